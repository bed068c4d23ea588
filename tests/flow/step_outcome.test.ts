/**
 * The exit-code rules as pure decisions: 3 vs 5 by the act's `changed`, an unsettled screen is 2 unless
 * an expectation proves the screen arrived, tool errors map to their outcome (device faults 4).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ERROR_CODE_LIST } from "../../contracts/error_codes.ts";
import { combinedOutcome, decideStep, effectOf, exitCodeOf, OUTCOME_OF_ERROR } from "../../src/flow/step_outcome.ts";

const unmet = { met: false, unmet: ['{"text":"Wi-Fi"} is not on screen'] };
const met = { met: true, unmet: [] };

test("an expectation failing after an act that changed the screen is 3, after one that changed nothing 5", () => {
  const three = decideStep({ effect: { settled: true, changed: true }, verdict: unmet });
  assert.equal(three.outcome, "unexpected_screen");
  assert.equal(exitCodeOf(three.outcome), 3);
  assert.match(three.reason!, /changed the screen, but \{"text":"Wi-Fi"\} is not on screen/);
  const five = decideStep({ effect: { settled: true, changed: false }, verdict: unmet });
  assert.equal(five.outcome, "no_progress");
  assert.equal(exitCodeOf(five.outcome), 5);
  assert.match(five.reason!, /changed nothing/);
});

test("an observe step's failed expectation takes the last act's changed (3 when there was none)", () => {
  assert.equal(decideStep({ previousEffect: { settled: true, changed: false }, verdict: unmet }).outcome, "no_progress");
  assert.equal(decideStep({ previousEffect: { settled: true, changed: true }, verdict: unmet }).outcome, "unexpected_screen");
  assert.equal(decideStep({ verdict: unmet }).outcome, "unexpected_screen");
});

test("a screen that never settled is 2, unless the expectation proves the screen arrived", () => {
  assert.equal(decideStep({ effect: { settled: false, changed: true } }).outcome, "timed_out");
  assert.equal(decideStep({ effect: { settled: false, changed: true }, verdict: unmet }).outcome, "timed_out");
  assert.equal(decideStep({ effect: { settled: false, changed: true }, verdict: met }).outcome, "passed");
});

test("a met expectation or no expectation passes, also when the act changed nothing", () => {
  assert.deepEqual(decideStep({ effect: { settled: true, changed: false } }), { outcome: "passed" });
  assert.deepEqual(decideStep({ effect: { settled: true, changed: true }, verdict: met }), { outcome: "passed" });
  assert.deepEqual(decideStep({}), { outcome: "passed" });
});

test("tool errors decide the step: device faults 4, timeouts 2, a missing target 3, the rest 1", () => {
  assert.equal(exitCodeOf(decideStep({ errorCode: "EMULATOR_UNAVAILABLE" }).outcome), 4);
  assert.equal(exitCodeOf(decideStep({ errorCode: "APPIUM_UNAVAILABLE" }).outcome), 4);
  assert.equal(exitCodeOf(decideStep({ errorCode: "EMULATOR_BUSY" }).outcome), 4);
  assert.equal(exitCodeOf(decideStep({ errorCode: "OPERATION_TIMEOUT" }).outcome), 2);
  assert.equal(exitCodeOf(decideStep({ errorCode: "SETTINGS_FOREGROUND_FAILED" }).outcome), 2);
  assert.equal(exitCodeOf(decideStep({ errorCode: "UI_ELEMENT_NOT_FOUND" }).outcome), 3);
  assert.equal(exitCodeOf(decideStep({ errorCode: "APP_NOT_FOUND" }).outcome), 1);
  assert.equal(exitCodeOf(decideStep({ errorCode: "INTERNAL_ERROR", verdict: met }).outcome), 1, "an error wins over the verdict");
  for (const code of ERROR_CODE_LIST) assert.notEqual(OUTCOME_OF_ERROR[code], "passed", code);
});

test("several devices: passed only when all passed, else the first failing device's outcome", () => {
  assert.equal(combinedOutcome(["passed", "passed"]), "passed");
  assert.equal(combinedOutcome(["passed", "no_progress", "device_fault"]), "no_progress");
});

test("the act's effect is read from its data; observe data has none", () => {
  assert.deepEqual(effectOf({ settled: true, changed: false, screen: {} }), { settled: true, changed: false });
  assert.equal(effectOf({ texts: [] }), undefined);
});
