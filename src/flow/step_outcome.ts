/**
 * How a step ends, decided from data alone (pure): the tool's envelope, the act's `settled`/`changed`,
 * and the expectation's verdict become one FlowOutcome (contracts/flow.ts). The rules of SPEC §8: a
 * failed expectation after an act that changed the screen is unexpected_screen (3), after one that
 * changed nothing no_progress (5), a fingerprint that does not match always 3; a screen that never settled is
 * timed_out (2); device faults are 4.
 */
import type { ErrorCode } from "../../contracts/error_codes.ts";
import { FLOW_EXIT, type FlowExitCode, type FlowOutcome } from "../../contracts/flow.ts";
import type { ExpectationVerdict } from "./expectation.ts";

/** Which outcome a tool's error code means for the flow. */
export const OUTCOME_OF_ERROR: Readonly<Record<ErrorCode, FlowOutcome>> = {
  EMULATOR_UNAVAILABLE: "device_fault",
  EMULATOR_BUSY: "device_fault",
  APPIUM_UNAVAILABLE: "device_fault",
  OPERATION_TIMEOUT: "timed_out",
  SETTINGS_FOREGROUND_FAILED: "timed_out",
  // The act was sent but the screen it led to was not read in time: it never showed settled.
  ACT_UNCONFIRMED: "timed_out",
  // uiautomator could not dump ("could not get idle state", "null root node"): the screen never held still.
  UI_TREE_UNAVAILABLE: "timed_out",
  // The element the step names is not there (or not alone): something else is showing.
  UI_ELEMENT_NOT_FOUND: "unexpected_screen",
  UI_ELEMENT_AMBIGUOUS: "unexpected_screen",
  APP_NOT_FOUND: "error",
  // A flow cannot name a session (session_id is refused): the one not found is the runner's own, which the
  // Appium side ended mid-flow (UiAutomator2 crashed, the device went away).
  SESSION_NOT_FOUND: "device_fault",
  EVIDENCE_WRITE_FAILED: "error",
  INVALID_SELECTOR: "error",
  INVALID_TEXT: "error",
  INVALID_PACKAGE: "error",
  INVALID_SCROLL_DIRECTION: "error",
  INVALID_ARGUMENT: "error",
  INTERNAL_ERROR: "error",
};

/** What the act said about the screen (absent for observe tools, which change nothing by design). */
export interface ActEffect {
  settled: boolean;
  changed: boolean;
}

export interface StepFacts {
  /** The tool's error code; undefined when the call succeeded. */
  errorCode?: ErrorCode;
  /** The act's effect, when the step was an act that succeeded. */
  effect?: ActEffect;
  /** For an observe step: the effect of the last act before it (an observation changes nothing itself). */
  previousEffect?: ActEffect;
  /** The expectation's final verdict; undefined when the step has none. */
  verdict?: ExpectationVerdict;
}

export interface StepDecision {
  outcome: FlowOutcome;
  /** Why, in one sentence, when the step did not pass. */
  reason?: string;
}

export function decideStep(facts: StepFacts): StepDecision {
  if (facts.errorCode !== undefined) {
    const outcome = OUTCOME_OF_ERROR[facts.errorCode];
    return { outcome, reason: `the tool answered ${facts.errorCode}` };
  }
  const effect = facts.effect;
  if (facts.verdict === undefined || facts.verdict.met) {
    // An expectation that holds proves the screen arrived, even if something on it keeps moving.
    if (effect !== undefined && !effect.settled && facts.verdict === undefined) {
      return { outcome: "timed_out", reason: "the screen never settled after the action (add an expectation to accept a moving screen)" };
    }
    return { outcome: "passed" };
  }
  const unmet = facts.verdict.unmet.join("; ");
  if (effect !== undefined && !effect.settled) return { outcome: "timed_out", reason: `the screen never settled, and ${unmet}` };
  // The page source is blind to pixels: a fingerprint that does not match says the screen is another (a canvas
  // redrawn under an unchanged tree), never that nothing changed.
  const changed = facts.verdict.fingerprint_unmet === true || ((effect ?? facts.previousEffect)?.changed ?? true);
  return changed
    ? { outcome: "unexpected_screen", reason: `the action changed the screen, but ${unmet}` }
    : { outcome: "no_progress", reason: `the action changed nothing on screen, and ${unmet}` };
}

export function exitCodeOf(outcome: FlowOutcome): FlowExitCode {
  return FLOW_EXIT[outcome];
}

/**
 * One outcome for several devices: passed when all passed, otherwise the first failing device's in the
 * order they were given (each device's own code stays in its report).
 */
export function combinedOutcome(outcomes: readonly FlowOutcome[]): FlowOutcome {
  return outcomes.find((o) => o !== "passed") ?? "passed";
}

/** An act's effect read from its envelope data, or undefined when the data carries none (observe tools). */
export function effectOf(data: Record<string, unknown>): ActEffect | undefined {
  if (typeof data["settled"] !== "boolean" || typeof data["changed"] !== "boolean") return undefined;
  return { settled: data["settled"], changed: data["changed"] };
}
