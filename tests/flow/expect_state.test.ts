/**
 * Flow expectations of an element's state (`checked`, `selected`, `focused` with `visible`), run by the real
 * runner over the sim's Settings (the Airplane mode switch) and login form (its focused e-mail field) through the real gate:
 * the right state passes, the wrong one is an unexpected screen (exit 3) saying what the state is; a state
 * asked of several elements or of a plain text is unmet in words; a state without `visible` is refused.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type FlowFile, parseFlow } from "../../contracts/flow.ts";
import { describeExpectation } from "../../src/flow/expectation.ts";
import { runFlow } from "../../src/flow/runner.ts";
import { tempDir } from "../evidence/temp_dir.ts";
import { scenarioWorld } from "./scenario_world.ts";

function flow(steps: unknown[], packageName = "com.android.settings"): FlowFile {
  const parsed = parseFlow({ version: 1, name: "state", package_name: packageName, steps });
  if (!parsed.ok) assert.fail(JSON.stringify(parsed.problems));
  return parsed.flow;
}

const toAirplaneMode = [
  { tool: "settings_open" },
  { tool: "ui_tap", args: { selector: { text: "Network & internet" } }, expect: { visible: { text: "Airplane mode" }, checked: false } },
];

test("checked: true after turning Airplane mode on passes; checked: false after it is an unexpected screen (3)", async (t) => {
  const on = { tool: "ui_tap", args: { selector: { text: "Airplane mode" } } };
  const pass = await runFlow(
    flow([...toAirplaneMode, { ...on, expect: { visible: { text: "Airplane mode" }, checked: true } }]),
    scenarioWorld("settings", tempDir(t)).harness,
    { pollIntervalMs: 20 },
  );
  assert.equal(pass.outcome, "passed", JSON.stringify(pass.failure));

  const wrong = await runFlow(
    flow([...toAirplaneMode, { ...on, expect: { visible: { text: "Airplane mode" }, checked: false, timeout_ms: 300 } }]),
    scenarioWorld("settings", tempDir(t)).harness,
    { pollIntervalMs: 20 },
  );
  assert.equal(wrong.outcome, "unexpected_screen");
  assert.equal(wrong.exit_code, 3);
  assert.equal(wrong.failure?.step, 3);
  assert.equal(wrong.failure?.expected, 'visible {"text":"Airplane mode"} not checked');
  assert.match(wrong.failure!.reason, /\{"text":"Airplane mode"\} is checked, expected not checked/);
});

test("focused names the input with the focus; selected asked of it is unmet in words", async (t) => {
  const login = (expect: object) =>
    flow([
      { tool: "app_launch", args: { package: "com.example.shop" }, expect: { ...expect, timeout_ms: 300 } },
    ], "com.example.shop");
  const world = () => scenarioWorld("login", tempDir(t)).harness;
  const focused = await runFlow(login({ visible: { input_hint: "Email" }, focused: true }), world(), { pollIntervalMs: 20 });
  assert.equal(focused.outcome, "passed", JSON.stringify(focused.failure));
  const password = await runFlow(login({ visible: { input_hint: "Password" }, focused: true }), world(), { pollIntervalMs: 20 });
  assert.match(password.failure!.reason, /\{"input_hint":"Password"\} is not focused, expected focused/);
  const notSelected = await runFlow(login({ visible: { input_hint: "Email" }, selected: true }), world(), { pollIntervalMs: 20 });
  assert.match(notSelected.failure!.reason, /\{"input_hint":"Email"\} is not selected, expected selected/);
});

test("a state asked of several elements, or of a text that is not an action, is unmet and says why", async (t) => {
  const several = await runFlow(
    flow([{ tool: "settings_open", expect: { visible: { text_contains: "a" }, checked: false, timeout_ms: 200 } }]),
    scenarioWorld("settings", tempDir(t)).harness,
    { pollIntervalMs: 20 },
  );
  assert.match(several.failure!.reason, /names \d+ elements; a state is checked on one: add a within or an index/);
  const tip = { text: "Type a product and press search" };
  const text = await runFlow(
    flow([
      { tool: "app_launch", args: { package: "com.example.shop" } },
      { tool: "ui_tap", args: { selector: { content_desc: "Search" } }, expect: { visible: tip, checked: true, timeout_ms: 200 } },
    ], "com.example.shop"),
    scenarioWorld("shop", tempDir(t)).harness,
    { pollIntervalMs: 20 },
  );
  assert.match(
    text.failure!.reason,
    /names 'Type a product and press search', which is not an action \(a text\): it has no checked, selected or focused state/,
  );
});

test("the flow file refuses a state without visible, and a state that is not a boolean", () => {
  const refused = (expect: object) => {
    const parsed = parseFlow({ version: 1, name: "s", package_name: "com.android.settings", steps: [{ tool: "settings_open", expect }] });
    assert.equal(parsed.ok, false, JSON.stringify(expect));
    return parsed.ok ? [] : parsed.problems;
  };
  assert.match(
    refused({ foreground_package: "com.android.settings", checked: true })[0]!.message,
    /state of the element 'visible' names: add visible/,
  );
  assert.deepEqual(refused({ visible: { text: "A" }, checked: "yes" }).map((p) => p.path), ["steps.0.expect.checked"]);
  assert.deepEqual(refused({ visible: { text: "A" }, enabled: true }).map((p) => p.message), ["unknown key 'enabled'"]);
  assert.equal(
    describeExpectation({ visible: { text: "Wi-Fi" }, checked: true, focused: false }),
    'visible {"text":"Wi-Fi"} checked not focused',
  );
});

test("a ui_wait step: what it waits for arriving passes; never appearing is 3 (UI_ELEMENT_NOT_FOUND), never going is 2 (OPERATION_TIMEOUT)", async (t) => {
  const run = (wait: object) =>
    runFlow(
      flow([{ tool: "settings_open" }, { tool: "ui_wait", args: { ...wait, timeout_ms: 300 } }]),
      scenarioWorld("settings", tempDir(t)).harness,
      { pollIntervalMs: 20 },
    );
  const holds = await run({ visible: { text: "Network & internet" } });
  assert.equal(holds.outcome, "passed", JSON.stringify(holds.failure));
  const never = await run({ visible: { text: "No such row" } });
  assert.deepEqual([never.exit_code, never.failure?.step, never.failure?.tool], [3, 2, "ui_wait"]);
  assert.match(never.failure!.reason, /UI_ELEMENT_NOT_FOUND/);
  const stays = await run({ gone: { text: "Network & internet" } });
  assert.deepEqual([stays.exit_code, stays.failure?.outcome], [2, "timed_out"]);
  assert.match(stays.failure!.reason, /OPERATION_TIMEOUT|still on screen/);
});
