/**
 * A scripted ProcessRunner for the adb tests: answers by matching the argument list (after
 * `-s SERIAL`), records every call, and can hang until the timeout or abort like a stuck adb.
 */
import type { ProcessResult, ProcessRunner, RunOptions } from "../../src/ports/process_runner.ts";

export type Answer = Partial<Pick<ProcessResult, "exitCode" | "stderr" | "spawnError">> & {
  stdout?: string | Uint8Array;
  /** Never answers: resolves as timed out / aborted like the real runner. */
  hang?: boolean;
};

export interface Call {
  program: string;
  args: string[];
  options: RunOptions;
}

export function fakeRunner(answer: (args: string[], call: number) => Answer | undefined): ProcessRunner & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    run(program, args, options) {
      calls.push({ program, args: [...args], options });
      const a = answer([...args], calls.length) ?? { exitCode: 1, stderr: `fake: no answer for ${args.join(" ")}` };
      const base = { argv: [program, ...args], durationMs: 1, timedOut: false, aborted: false };
      if (a.hang) {
        return new Promise<ProcessResult>((resolve) => {
          const done = (timedOut: boolean) => resolve({ ...base, exitCode: null, stdout: Buffer.alloc(0), stderr: "", timedOut, aborted: !timedOut });
          const timer = setTimeout(() => done(true), options.timeoutMs);
          options.signal?.addEventListener("abort", () => {
            clearTimeout(timer);
            done(false);
          }, { once: true });
        });
      }
      const stdout = typeof a.stdout === "string" ? Buffer.from(a.stdout) : Buffer.from(a.stdout ?? new Uint8Array());
      const result: ProcessResult = { ...base, exitCode: a.spawnError ? null : (a.exitCode ?? 0), stdout, stderr: a.stderr ?? "" };
      if (a.spawnError !== undefined) result.spawnError = a.spawnError;
      return Promise.resolve(result);
    },
  };
}

/** The words after `-s SERIAL` joined by spaces, e.g. "shell wm size". */
export function commandOf(args: string[]): string {
  return (args[0] === "-s" ? args.slice(2) : args).join(" ");
}
