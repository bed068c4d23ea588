/**
 * Runs the CLI in-process with captured output and fake-free real adapters where harmless.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { createNodeProcessRunner } from "../../src/adapters/node_process_runner.ts";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import type { CliContext } from "../../src/cli/context.ts";
import { runCli } from "../../src/cli/program.ts";
import { silentLogger } from "./silent_logger.ts";

export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCliCaptured(
  args: string[],
  overrides: Partial<CliContext> = {},
): Promise<CapturedRun> {
  let stdout = "";
  let stderr = "";
  const ctx: CliContext = {
    // The state directory (artifacts' last fallback) stays private; device locks are always the user's
    // lock directory of this machine (state_directories.ts lockDirectory), keyed by each sim's own socket.
    env: { XDG_STATE_HOME: privateStateHome() },
    cwd: process.cwd(),
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    // A command that serves stdio gets streams that say nothing; tests that speak MCP spawn the real binary.
    stdio: { stdin: Readable.from([]), stdout: new PassThrough() },
    runner: createNodeProcessRunner(),
    clock: createSystemClock(),
    logger: silentLogger,
    waitForStop: () => new Promise(() => {}),
    ...overrides,
  };
  if (overrides.env !== undefined) ctx.env = { XDG_STATE_HOME: privateStateHome(), ...overrides.env };
  const code = await runCli(args, ctx);
  return { code, stdout, stderr };
}

let stateHome: string | undefined;

/** One temporary state directory per test process, removed when it exits. */
export function privateStateHome(): string {
  if (stateHome === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "amh-cli-state-"));
    stateHome = dir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return stateHome;
}
