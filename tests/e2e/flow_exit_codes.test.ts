/**
 * Every exit code of `flow`, driven by the simulated device through the real CLI, real adb and the real
 * act tools: 0 a flow that holds; 1 a bad field (nothing runs); 2 a screen that never settles (the
 * tickingClock fault); 3 a dialog appearing after a tap, or a switch not in the state asserted; 4 the device going offline mid-flow; 5 a scroll
 * that changes nothing. Each failure's report names the step, what was expected and what the screen offers.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { BUILTIN_SCENARIOS, startSimDevice } from "../../src/sim/mod.ts";
import { actToolsSkipReason } from "../support/act_tools.ts";
import { runCliCaptured } from "../support/cli.ts";
import { tempDir } from "../evidence/temp_dir.ts";

const skip = actToolsSkipReason();

interface Outcome {
  code: number;
  stderr: string;
  report: {
    exit_code: number;
    outcome: string;
    runs: {
      failure?: { step?: number; tool?: string; outcome: string; reason: string; expected?: string; screen_offers?: string };
      steps: { outcome: string }[];
      session: { closed: boolean };
    }[];
  };
}

async function runFlowFile(
  t: import("node:test").TestContext,
  flow: unknown,
  args: string[],
  hooks: { onStderr?: (text: string) => void; env?: Record<string, string> } = {},
): Promise<Outcome> {
  const dir = tempDir(t, "amh-exit-");
  const file = join(dir, "flow.json");
  writeFileSync(file, JSON.stringify(flow));
  let stderr = "";
  const run = await runCliCaptured(["flow", file, "--artifacts", join(dir, "artifacts"), "--json", ...args], {
    stderr: (text) => {
      stderr += text;
      hooks.onStderr?.(text);
    },
    ...(hooks.env === undefined ? {} : { env: hooks.env }),
  });
  return { code: run.code, stderr, report: run.stdout === "" ? undefined as never : JSON.parse(run.stdout) };
}

function scenarioFile(t: import("node:test").TestContext, name: string, faults: object): string {
  const file = join(tempDir(t, "amh-scenario-"), `${name}.json`);
  writeFileSync(file, JSON.stringify({ ...BUILTIN_SCENARIOS[name], faults }));
  return file;
}

const settings = (steps: unknown[]) => ({ version: 1, name: "exit-codes", package_name: "com.android.settings", steps });

test("0: a flow whose expectations hold passes", { skip }, async (t) => {
  const out = await runFlowFile(
    t,
    settings([
      { tool: "settings_open", expect: { visible: { text: "Network & internet" } } },
      { tool: "ui_tap", args: { selector: { text: "Display" } }, expect: { visible: { text: "Brightness level" } } },
    ]),
    ["--device", "sim"],
  );
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.report.exit_code, 0);
});

test("1: a bad field is refused before anything runs", async (t) => {
  const out = await runFlowFile(t, settings([{ tool: "ui_tap", args: { selector: { text: "Display" }, x: 540, y: 1200 } }]), [
    "--device",
    "sim",
  ]);
  assert.equal(out.code, 1);
  assert.match(out.stderr, /steps\.0\.args: unknown keys 'x', 'y'/);
  assert.doesNotMatch(out.stderr, /SIMULATED|step 1 of/);
});

test("2: a screen that never settles times out", { skip }, async (t) => {
  const out = await runFlowFile(
    t,
    settings([
      { tool: "ui_tap", args: { selector: { text: "Display" } } },
    ]),
    ["--device", "sim", "--scenario", scenarioFile(t, "settings", { tickingClock: true })],
  );
  assert.equal(out.code, 2, out.stderr);
  const failure = out.report.runs[0]!.failure!;
  assert.equal(failure.outcome, "timed_out");
  assert.equal(failure.step, 1);
  assert.match(failure.reason, /never settled/);
  assert.ok(out.report.runs[0]!.session.closed);
});

test("3: a dialog appearing after the tap is an unexpected screen, and the report says what the screen offers", { skip }, async (t) => {
  const out = await runFlowFile(t, {
    version: 1,
    name: "near-me",
    package_name: "com.example.maps",
    steps: [
      { tool: "app_launch", args: { package: "com.example.maps" }, expect: { visible: { text: "Find places near me" } } },
      {
        tool: "ui_tap",
        args: { selector: { text: "Find places near me" } },
        expect: { visible: { text: "Café Central" }, timeout_ms: 1500 },
      },
      { tool: "device_back" },
    ],
  }, ["--device", "sim", "--scenario", "permission"]);
  assert.equal(out.code, 3, out.stderr);
  const run = out.report.runs[0]!;
  assert.deepEqual(run.steps.map((s) => s.outcome), ["passed", "unexpected_screen", "skipped"]);
  assert.equal(run.failure!.step, 2);
  assert.equal(run.failure!.expected, 'visible {"text":"Café Central"}');
  assert.match(run.failure!.screen_offers!, /permissioncontroller offers .*While using the app/);
  assert.match(out.stderr, /step 2 of 3 ui_tap unexpected_screen \(\d+ ms\): the action changed the screen/);
});

test(
  "0 and 3: a flow asserting the switch it turned on is checked passes; asserting it is not checked is an unexpected screen",
  { skip },
  async (t) => {
    const toggle = (checked: boolean) =>
      settings([
        { tool: "settings_open" },
        {
          tool: "ui_tap",
          args: { selector: { text: "Network & internet" } },
          expect: { visible: { text: "Airplane mode" }, checked: false },
        },
        {
          tool: "ui_tap",
          args: { selector: { text: "Airplane mode" } },
          expect: { visible: { text: "Airplane mode" }, checked, timeout_ms: 1000 },
        },
      ]);
    const pass = await runFlowFile(t, toggle(true), ["--device", "sim"]);
    assert.equal(pass.code, 0, pass.stderr);
    const wrong = await runFlowFile(t, toggle(false), ["--device", "sim"]);
    assert.equal(wrong.code, 3, wrong.stderr);
    const run = wrong.report.runs[0]!;
    assert.deepEqual(run.steps.map((s) => s.outcome), ["passed", "passed", "unexpected_screen"]);
    assert.equal(run.failure!.expected, 'visible {"text":"Airplane mode"} not checked');
    assert.match(run.failure!.reason, /\{"text":"Airplane mode"\} is checked, expected not checked/);
  },
);

test("4: the device going offline mid-flow is a device fault", { skip }, async (t) => {
  const sim = await startSimDevice({});
  t.after(() => sim.stop());
  const out = await runFlowFile(
    t,
    settings([
      { tool: "ui_tap", args: { selector: { text: "Display" } }, expect: { visible: { text: "Brightness level" } } },
      { tool: "device_back", expect: { visible: { text: "Network & internet" } } },
      { tool: "ui_scroll", args: { direction: "down" } },
    ]),
    ["--device", sim.device.serial, "--appium-url", sim.appiumUrl],
    {
      env: { ADB_SERVER_SOCKET: sim.adbServerSocket },
      // The cable is pulled as soon as the first step is reported.
      onStderr: (text) => {
        if (/step 1 of 3 ui_tap passed/.test(text)) sim.device.setFaults({ state: "offline" });
      },
    },
  );
  assert.equal(out.code, 4, out.stderr);
  const run = out.report.runs[0]!;
  assert.equal(run.steps[0]!.outcome, "passed");
  assert.equal(run.failure!.outcome, "device_fault");
  assert.equal(run.failure!.step, 2);
  assert.match(run.failure!.reason, /EMULATOR_UNAVAILABLE/);
});

test("4: the flow's UI session dying mid-flow (UiAutomator2 crashed, the Appium side ended it) is a device fault, not an invalid flow", {
  skip,
}, async (t) => {
  const sim = await startSimDevice({});
  t.after(() => sim.stop());
  const out = await runFlowFile(
    t,
    settings([
      { tool: "ui_tap", args: { selector: { text: "Display" } }, expect: { visible: { text: "Brightness level" } } },
      { tool: "device_back", expect: { visible: { text: "Network & internet" } } },
    ]),
    ["--device", sim.device.serial, "--appium-url", sim.appiumUrl],
    {
      env: { ADB_SERVER_SOCKET: sim.adbServerSocket },
      onStderr: (text) => {
        if (/step 1 of 2 ui_tap passed/.test(text)) sim.device.setFaults({ uia2SessionDiesAfter: 0 });
      },
    },
  );
  assert.equal(out.code, 4, out.stderr);
  const run = out.report.runs[0]!;
  assert.equal(run.failure!.outcome, "device_fault");
  assert.equal(run.failure!.step, 2);
  assert.match(run.failure!.reason, /SESSION_NOT_FOUND: .*the UiAutomator2 side ended it/);
});

test("5: a scroll that changes nothing is no progress", { skip }, async (t) => {
  const out = await runFlowFile(
    t,
    settings([
      { tool: "settings_open", expect: { visible: { text: "Network & internet" } } },
      { tool: "ui_scroll", args: { direction: "down" }, expect: { visible: { text: "About emulated device" } } },
      { tool: "ui_scroll", args: { direction: "down" }, expect: { visible: { text: "Tips & support" }, timeout_ms: 1000 } },
    ]),
    ["--device", "sim"],
  );
  assert.equal(out.code, 5, out.stderr);
  const failure = out.report.runs[0]!.failure!;
  assert.equal(failure.step, 3);
  assert.match(failure.reason, /changed nothing on screen/);
  assert.match(failure.screen_offers!, /'About emulated device'/);
});
