/**
 * runDoctor's time promises on the virtual clock, so they are exact under any load: every check runs at once;
 * one that answers at its own timeout is reported at exactly that time; one whose work ignores its cancel signal
 * is cut by the backstop (budget + 300 ms for its own timeouts + 700 ms after the cancellation), never sooner,
 * and reported as timed out; the whole report ends with its slowest check.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runDoctor } from "../../src/doctor/run_doctor.ts";
import type { DoctorCheck } from "../../src/doctor/types.ts";
import { createVirtualClock } from "../support/virtual_clock.ts";
import { doctorInputs } from "./doctor_inputs.ts";

test("a check that answers at its timeout is reported then; one that ignores its cancel signal is cut by the backstop, never sooner", async (t) => {
  const clock = createVirtualClock();
  let cancelledAt: number | null = null;
  const started = clock.now();
  const checks: DoctorCheck[] = [
    {
      id: "runtime",
      name: "Runtime",
      run: async () => ({ ok: true, detail: "at once" }),
      timedOut: () => ({ ok: false, detail: "timed out" }),
    },
    {
      id: "java",
      name: "Java",
      // As a child process killed at its budget: answers exactly when the budget ends.
      run: async (_inputs, budget) => {
        await clock.sleep(budget.timeoutMs);
        return { ok: false, detail: `did not answer within ${budget.timeoutMs / 1000} s` };
      },
      timedOut: () => ({ ok: false, detail: "timed out" }),
    },
    {
      id: "adb",
      name: "adb",
      // Hangs and does not listen to its signal: only the backstop ends it.
      run: (_inputs, budget) => {
        budget.signal.addEventListener("abort", () => (cancelledAt = clock.now() - started));
        return new Promise(() => {});
      },
      timedOut: (_inputs, timeoutMs) => ({ ok: false, detail: `no answer within ${timeoutMs / 1000} s`, remedy: "look" }),
    },
  ];
  const report = await runDoctor(checks, { ...doctorInputs(t, {}), clock }, { timeoutMs: 2000 });
  assert.deepEqual(report.checks.map((c) => [c.id, c.ok, c.duration_ms, c.detail]), [
    ["runtime", true, 0, "at once"],
    ["java", false, 2000, "did not answer within 2 s"],
    ["adb", false, 3000, "no answer within 2 s"],
  ]);
  assert.equal(cancelledAt, 2300, "the hung work was cancelled 300 ms after its budget");
  assert.equal(report.duration_ms, 3000, "the checks ran at once: the report took its slowest check's time");
  assert.equal(report.blocking, 2);
});
