/**
 * The real ProcessRunner: `child_process.spawn` with an argument array and `shell: false`.
 * Enforces the timeout and the AbortSignal by killing the child's whole process group (SIGTERM, then
 * SIGKILL after a grace period), so a wrapper script's own children die with it; caps captured stdout;
 * and always resolves with plain data, also when after a kill an escaped grandchild still holds the pipes.
 * Being in their own groups, the children are out of reach of a signal to the harness's group (a
 * terminal's Ctrl+C): `killAll()` ends every running child's group at once, for main.ts to call when
 * the harness itself is stopped or exits, so none outlives it.
 * On Linux each child is started through util-linux `setpriv --pdeathsig SIGKILL` (which then execs the
 * program in place), so it dies with the harness even when the harness is killed with SIGKILL mid-call;
 * elsewhere (or without setpriv) a SIGKILL of the harness can leave it running until it ends by itself.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { ProcessResult, ProcessRunner, RunOptions } from "../ports/process_runner.ts";

const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;
const KILL_GRACE_MS = 500;
/** After the child exits, how long its pipes may stay open (held by something it started) before we stop reading. */
const PIPE_GRACE_MS = 200;
const SETPRIV_PLACES = ["/usr/bin/setpriv", "/bin/setpriv"];

export interface NodeProcessRunnerOptions {
  /** The parent-death wrapper; default: setpriv on Linux when installed, else none. null: never wrap. */
  setpriv?: string | null;
}

export interface NodeProcessRunner extends ProcessRunner {
  /** SIGKILLs the process group (POSIX; the child itself on Windows) of every child still running. Synchronous. */
  killAll(): void;
}

export function createNodeProcessRunner(options: NodeProcessRunnerOptions = {}): NodeProcessRunner {
  const setpriv = options.setpriv !== undefined
    ? options.setpriv
    : process.platform === "linux"
    ? (SETPRIV_PLACES.find((path) => existsSync(path)) ?? null)
    : null;
  const running = new Set<(signal: NodeJS.Signals) => void>();
  return {
    run: (program, args, runOptions) => runProcess(program, args, runOptions, running, setpriv),
    killAll: () => {
      for (const signalAll of running) signalAll("SIGKILL");
    },
  };
}

function runProcess(
  program: string,
  args: readonly string[],
  options: RunOptions,
  running: Set<(signal: NodeJS.Signals) => void>,
  setpriv: string | null,
): Promise<ProcessResult> {
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
    const [command, commandArgs] = setpriv === null ? [program, args] : [setpriv, ["--pdeathsig", "SIGKILL", "--", program, ...args]];
    const child = spawn(command, commandArgs, {
      shell: false,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
      detached: ownGroup,
    });

    const signalAll = (signal: NodeJS.Signals) => {
      try {
        if (ownGroup && child.pid !== undefined) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        child.kill(signal); // the group is gone; the child itself may still be there
      }
    };
    running.add(signalAll);
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
      // setpriv could not exec the program: what a direct spawn reports as ENOENT / EACCES.
      if (setpriv !== null && spawnError === undefined && (exitCode === 127 || exitCode === 126) && stdoutBytes === 0) {
        const said = Buffer.concat(stderr).toString("utf8");
        if (said.startsWith("setpriv: failed to execute")) {
          stderr.length = 0;
          spawnError = exitCode === 127 ? "ENOENT" : "EACCES";
          exitCode = null;
        }
      }
      settled = true;
      running.delete(signalAll);
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
