/**
 * A scripted ProcessRunner for the adb tests: answers by matching the argument list (after
 * `-s SERIAL`), records every call, and can hang until the timeout or abort like a stuck adb. Like a
 * device's shell, it prints the end marker a shell command asks for (`; echo __android_mcp_end:$?`) with
 * the answer's exit status, unless the answer is `cut` (the stream ended early).
 */
import { END_MARKER, END_MARKER_ARGS, hasEndMarker } from "../../src/adapters/adb/stream_end.ts";
import type { ProcessResult, ProcessRunner, RunOptions } from "../../src/ports/process_runner.ts";

export type Answer = Partial<Pick<ProcessResult, "exitCode" | "stderr" | "spawnError">> & {
  stdout?: string | Uint8Array;
  /** Never answers: resolves as timed out / aborted like the real runner. */
  hang?: boolean;
  /** The stream ends before the end marker (a device that dropped mid-output); adb still exits 0. */
  cut?: boolean;
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
      const marked = hasEndMarker(args);
      const asked = marked ? args.slice(0, -END_MARKER_ARGS.length) : [...args];
      const a = answer(asked, calls.length) ?? { exitCode: 1, stderr: `fake: no answer for ${asked.join(" ")}` };
      const base = { argv: [program, ...args], durationMs: 1, timedOut: false, aborted: false };
      if (a.hang) {
        return new Promise<ProcessResult>((resolve) => {
          const done = (timedOut: boolean) =>
            resolve({ ...base, exitCode: null, stdout: Buffer.alloc(0), stderr: "", timedOut, aborted: !timedOut });
          const timer = setTimeout(() => done(true), options.timeoutMs);
          options.signal?.addEventListener("abort", () => {
            clearTimeout(timer);
            done(false);
          }, { once: true });
        });
      }
      let stdout = typeof a.stdout === "string" ? Buffer.from(a.stdout) : Buffer.from(a.stdout ?? new Uint8Array());
      const exitCode = a.spawnError ? null : (a.exitCode ?? 0);
      if (marked && !a.cut && a.spawnError === undefined) stdout = Buffer.concat([stdout, Buffer.from(`${END_MARKER}:${exitCode}\n`)]);
      const result: ProcessResult = { ...base, exitCode, stdout, stderr: a.stderr ?? "" };
      if (a.spawnError !== undefined) result.spawnError = a.spawnError;
      return Promise.resolve(result);
    },
  };
}

/** The words after `-s SERIAL` joined by spaces, without the end marker, e.g. "shell wm size". */
export function commandOf(args: string[]): string {
  const words = hasEndMarker(args) ? args.slice(0, -END_MARKER_ARGS.length) : args;
  return (words[0] === "-s" ? words.slice(2) : words).join(" ");
}
