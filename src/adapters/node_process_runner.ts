/**
 * The real ProcessRunner: `child_process.spawn` with an argument array and `shell: false`.
 * Enforces the timeout and the AbortSignal by killing the child (SIGKILL after a grace period),
 * caps captured stdout, and always resolves with plain data.
 */
import { spawn } from "node:child_process";
import type { ProcessResult, ProcessRunner, RunOptions } from "../ports/process_runner.ts";

const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;
const KILL_GRACE_MS = 500;

export function createNodeProcessRunner(): ProcessRunner {
  return { run: runProcess };
}

function runProcess(program: string, args: readonly string[], options: RunOptions): Promise<ProcessResult> {
  const argv = [program, ...args];
  const started = performance.now();
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutBytes = 0;
    let timedOut = false;
    let aborted = false;
    let settled = false;
    const env = options.env === undefined ? process.env : { ...process.env, ...options.env };
    const child = spawn(program, args, { shell: false, env, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });

    const kill = () => {
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      kill();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });

    const finish = (exitCode: number | null, spawnError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      const result: ProcessResult = {
        argv,
        exitCode,
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).toString("utf8"),
        durationMs: Math.round(performance.now() - started),
        timedOut,
        aborted,
      };
      if (spawnError !== undefined) result.spawnError = spawnError;
      resolve(result);
    };

    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxOutput) {
        kill();
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => finish(null, error.code ?? error.message));
    child.on("close", (code) => finish(code));
    child.stdin.on("error", () => {});
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}
