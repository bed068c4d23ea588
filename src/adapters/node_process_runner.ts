/**
 * The real ProcessRunner: `child_process.spawn` with an argument array and `shell: false`.
 * Enforces the timeout and the AbortSignal by killing the child's whole process group (SIGTERM, then
 * SIGKILL after a grace period), so a wrapper script's own children die with it; caps captured stdout;
 * and always resolves with plain data, also when after a kill an escaped grandchild still holds the pipes.
 */
import { spawn } from "node:child_process";
import type { ProcessResult, ProcessRunner, RunOptions } from "../ports/process_runner.ts";

const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;
const KILL_GRACE_MS = 500;
/** After the child exits, how long its pipes may stay open (held by something it started) before we stop reading. */
const PIPE_GRACE_MS = 200;

export function createNodeProcessRunner(): ProcessRunner {
  return { run: runProcess };
}

function runProcess(program: string, args: readonly string[], options: RunOptions): Promise<ProcessResult> {
  const argv = [program, ...args];
  const started = performance.now();
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  // Its own process group (POSIX), so a kill reaches what a wrapper script started (`sh` running `sleep`).
  const ownGroup = process.platform !== "win32";
  return new Promise((resolve) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutBytes = 0;
    let timedOut = false;
    let aborted = false;
    let settled = false;
    const env = options.env === undefined ? process.env : { ...process.env, ...options.env };
    const child = spawn(program, args, { shell: false, env, stdio: ["pipe", "pipe", "pipe"], windowsHide: true, detached: ownGroup });

    const signalAll = (signal: NodeJS.Signals) => {
      try {
        if (ownGroup && child.pid !== undefined) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        child.kill(signal); // the group is gone; the child itself may still be there
      }
    };
    const kill = () => {
      signalAll("SIGTERM");
      setTimeout(() => signalAll("SIGKILL"), KILL_GRACE_MS).unref();
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
    // After a kill, a grandchild that escaped the group (its own session) may still hold our pipes: it
    // must not keep the answer, or this process, waiting. Shortly after the exit, stop reading.
    child.on("exit", (code) => {
      if (!timedOut && !aborted) return; // a normal exit: 'close' comes once the last bytes are read
      setTimeout(() => {
        if (settled) return;
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code);
      }, PIPE_GRACE_MS).unref();
    });
    child.stdin.on("error", () => {});
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}
