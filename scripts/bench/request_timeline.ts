/**
 * A timeline of the device requests one call makes (issue 24's warm tap): each adb process the harness's runner
 * starts and each HTTP request to the UiAutomator2 server (`fetch`, wrapped only while `during` runs and put back
 * after), with its start and end in ms from the call's start, the answer's moment, and the evidence capture that
 * runs behind it. `first_use.ts` prints one warm `ui_tap`'s.
 */
import type { ProcessRunner } from "../../src/ports/process_runner.ts";

export interface TimedRequest {
  startMs: number;
  endMs: number;
  what: string;
}

export interface RequestTimeline {
  /** The runner to hand the harness: its processes are recorded while `during` runs. */
  runner(inner: ProcessRunner): ProcessRunner;
  /**
   * Runs `call` (after `settle`, so nothing earlier is under way), then `settle` again (the capture behind the answer),
   * recording every request meanwhile.
   */
  during(call: () => Promise<unknown>, settle: () => Promise<void>): Promise<{ answeredMs: number; requests: TimedRequest[] }>;
}

export function requestTimeline(): RequestTimeline {
  let started: number | undefined;
  const requests: TimedRequest[] = [];
  const record = (startAt: number, what: string) => {
    if (started !== undefined) requests.push({ startMs: startAt - started, endMs: performance.now() - started, what });
  };
  return {
    runner: (inner) => ({
      async run(program, args, options) {
        const at = performance.now();
        try {
          return await inner.run(program, args, options);
        } finally {
          // `-s SERIAL` left out: the command is what the device does.
          const command = args.slice(args.indexOf("-s") === -1 ? 0 : args.indexOf("-s") + 2).join(" ");
          record(at, `adb ${command.replace(/\s*;\s*echo [^;]*/g, "")}`); // without the harness's marker lines
        }
      },
    }),
    async during(call, settle) {
      await settle();
      const realFetch = globalThis.fetch;
      globalThis.fetch = async (input, init) => {
        const at = performance.now();
        try {
          return await realFetch(input, init);
        } finally {
          const path = String(input instanceof Request ? input.url : input).replace(/^.*?\/session\/[^/]+/, "");
          record(at, `HTTP ${init?.method ?? "GET"} ${path === "" ? "/session/:id" : path.replace(/\/element\/[^/]+/, "/element/:id")}`);
        }
      };
      requests.length = 0;
      started = performance.now();
      try {
        await call();
        const answeredMs = performance.now() - started;
        await settle();
        return { answeredMs, requests: [...requests].sort((a, b) => a.startMs - b.startMs) };
      } finally {
        started = undefined;
        globalThis.fetch = realFetch;
      }
    },
  };
}
