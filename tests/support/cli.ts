/**
 * Runs the CLI in-process with captured output and fake-free real adapters where harmless.
 */
import { createNodeProcessRunner } from "../../src/adapters/node_process_runner.ts";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import type { CliContext } from "../../src/cli/context.ts";
import { runCli } from "../../src/cli/program.ts";
import { silentLogger } from "../../src/ports/logger.ts";

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
    env: {},
    cwd: process.cwd(),
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    runner: createNodeProcessRunner(),
    clock: createSystemClock(),
    logger: silentLogger,
    waitForStop: () => new Promise(() => {}),
    ...overrides,
  };
  const code = await runCli(args, ctx);
  return { code, stdout, stderr };
}
