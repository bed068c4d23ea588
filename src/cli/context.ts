/**
 * What every subcommand receives from the composition root: the environment as data, output sinks,
 * and the real (or, in tests, fake) adapters. Subcommands never read `process.*` themselves.
 */
import type { Readable, Writable } from "node:stream";
import type { Clock } from "../ports/clock.ts";
import type { Logger } from "../ports/logger.ts";
import type { ProcessRunner } from "../ports/process_runner.ts";

export interface CliContext {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The process's own byte streams, for the MCP stdio transport of `serve` (stdout carries only protocol there). */
  stdio: { stdin: Readable; stdout: Writable };
  runner: ProcessRunner;
  clock: Clock;
  logger: Logger;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM, or stdin closing for `serve`).
   * Only long-running commands call it; short ones keep the default signal behaviour. */
  waitForStop: () => Promise<string>;
}

/** Exit codes shared by all subcommands (flow adds its own, SPEC §8). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;
