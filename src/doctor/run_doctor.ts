/**
 * Runs every check at once, each bounded by its own timeout: the check's work gets the budget and a
 * signal that cancels it (killing its child processes), and a backstop a moment later reports the
 * check as timed out even if its work ignores the signal. A check that throws is a miss naming the
 * fault. Never stops at the first miss; the report lists all eight in order. With the simulated device, a
 * miss of a check it does not need (Java, the Android SDK) is reported as not needed and does not block; with the
 * direct backend (no Appium URL) Java and Appium are not run ("not needed (direct)") and an SDK miss does not block.
 */
import type { CheckOutcome, CheckResult, DoctorCheck, DoctorInputs, DoctorReport } from "./types.ts";

/** Each check's budget: long enough for a JVM or Appium's CLI to start on a busy machine. */
export const DEFAULT_CHECK_TIMEOUT_MS = 5000;
/** After its budget, the check's own timeouts have had this long to answer before its work is cancelled… */
const CANCEL_AFTER_MS = 300;
/** …and this long after the cancellation it is reported as timed out, whatever its work still does. */
const BACKSTOP_MS = 700;

export async function runDoctor(
  checks: readonly DoctorCheck[],
  inputs: DoctorInputs,
  options: { timeoutMs?: number } = {},
): Promise<DoctorReport> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const started = inputs.clock.now();
  const results = await Promise.all(checks.map((check) => runOne(check, inputs, timeoutMs)));
  const blocking = results.filter((r) => !r.ok).length;
  return {
    ok: blocking === 0,
    blocking,
    total: results.length,
    simulated: inputs.simulated !== undefined,
    duration_ms: Math.round(inputs.clock.now() - started),
    checks: results,
  };
}

async function runOne(check: DoctorCheck, inputs: DoctorInputs, timeoutMs: number): Promise<CheckResult> {
  const started = inputs.clock.now();
  const controller = new AbortController();
  const backstop = new AbortController();
  const skipped = inputs.config.backend === "direct" && check.direct === "not_needed";
  const work = (skipped ? Promise.resolve(NOT_NEEDED_DIRECT) : check.run(inputs, { timeoutMs, signal: controller.signal })).catch((
    error: unknown,
  ): CheckOutcome => ({
    ok: false,
    detail: `the check failed: ${(error as Error)?.message ?? String(error)}`,
    remedy: "Report this as a bug of android-mcp-harness doctor, with this line",
  }));
  const late = inputs.clock.sleep(timeoutMs + CANCEL_AFTER_MS, backstop.signal).then(
    async () => {
      controller.abort(); // the work had its whole budget and did not end itself: stop it (kills its processes)
      await inputs.clock.sleep(BACKSTOP_MS, backstop.signal);
      return check.timedOut(inputs, timeoutMs);
    },
  );
  late.catch(() => {}); // the backstop's own cancellation when the work finished first
  try {
    const outcome = notNeededDirect(check, inputs, notNeededOnSim(check, inputs, await Promise.race([work, late])));
    return {
      id: check.id,
      name: check.name,
      ok: outcome.ok,
      detail: outcome.detail,
      remedy: outcome.ok ? null : outcome.remedy ?? "See docs/doctor.md",
      duration_ms: Math.round(inputs.clock.now() - started),
      facts: outcome.facts ?? {},
    };
  } finally {
    backstop.abort();
    controller.abort();
  }
}

/** What a check Appium alone needs reads with the direct backend. */
const NOT_NEEDED_DIRECT: CheckOutcome = {
  ok: true,
  detail: "not needed (direct): the harness installs and starts the device's UiAutomator2 server itself over adb; " +
    "give --appium-url (or APPIUM_URL) to use Appium",
  facts: { not_needed: true, backend: "direct" },
};

/** A miss the direct backend does not care about (the Android SDK): ok, the finding kept. */
function notNeededDirect(check: DoctorCheck, inputs: DoctorInputs, outcome: CheckOutcome): CheckOutcome {
  if (outcome.ok || inputs.config.backend !== "direct" || check.direct !== "optional") return outcome;
  return {
    ok: true,
    detail: `not needed (direct: only adb is used; Appium would need it: ${outcome.detail})`,
    facts: { ...outcome.facts, not_needed: true, backend: "direct" },
  };
}

/** A miss the simulated device does not care about: ok, the finding kept, said to be for real devices only. */
function notNeededOnSim(check: DoctorCheck, inputs: DoctorInputs, outcome: CheckOutcome): CheckOutcome {
  if (outcome.ok || inputs.simulated === undefined || check.neededBySimulatedDevice !== false) return outcome;
  return {
    ok: true,
    detail: `not needed for the simulated device (a real device's Appium needs it: ${outcome.detail})`,
    facts: { ...outcome.facts, not_needed: true },
  };
}
