/**
 * One run of the harness's command line (`harnessCommand()`: the compiled main.js, or ANDROID_MCP_HARNESS_CMD)
 * to its end: exit code, stdout, stderr, and whether it had to be killed at `limitMs` (a hang). stdin is closed
 * unless `keepStdinOpen` (a `serve` that was not refused then keeps serving until the limit).
 */
import { spawn } from "node:child_process";
import { harnessCommand } from "./mcp_client.ts";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Killed at the limit. */
  hung: boolean;
}

export function runCli(
  args: string[],
  env: Record<string, string>,
  options: { limitMs?: number; keepStdinOpen?: boolean } = {},
): Promise<CliRun> {
  const [command, ...prefix] = harnessCommand();
  const child = spawn(command, [...prefix, ...args], { env, stdio: [options.keepStdinOpen ? "pipe" : "ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let hung = false;
  child.stdout!.on("data", (c: Buffer) => void (stdout += c.toString("utf8")));
  child.stderr!.on("data", (c: Buffer) => void (stderr += c.toString("utf8")));
  const killer = setTimeout(() => ((hung = true), child.kill("SIGKILL")), options.limitMs ?? 90_000);
  return new Promise((resolve) => child.on("close", (code) => (clearTimeout(killer), resolve({ code, stdout, stderr, hung }))));
}
