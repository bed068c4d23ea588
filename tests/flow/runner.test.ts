/**
 * The flow runner on a scenario device through the real gate: one session for the whole flow (its id on
 * every act, always closed), the device lock held throughout, expectations polled, and each exit code
 * from what the screen did: passed 0, a dialog 3, a scroll that changes nothing 5, a screen that never
 * settles 2, the device going away 4, an unserved tool 1. The report names the step, what was expected
 * and what the screen offers.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type FlowFile, parseFlow } from "../../contracts/flow.ts";
import { HarnessError } from "../../src/errors.ts";
import { runFlow, type StepProgress, unservedTools } from "../../src/flow/runner.ts";
import { SERVED_TOOLS } from "../../src/tools/mod.ts";
import { tempDir } from "../evidence/temp_dir.ts";
import { scenarioWorld, virtualScenarioWorld } from "./scenario_world.ts";

function flow(value: unknown): FlowFile {
  const parsed = parseFlow(value);
  if (!parsed.ok) assert.fail(JSON.stringify(parsed.problems));
  return parsed.flow;
}

const settingsTour = flow({
  version: 1,
  name: "settings tour",
  package_name: "com.android.settings",
  steps: [
    { tool: "settings_open", expect: { visible: { text: "Network & internet" }, foreground_package: "com.android.settings" } },
    { tool: "ui_tap", args: { selector: { text: "Display" } }, expect: { visible: { text: "Dark theme" } } },
    { tool: "ui_get_tree" },
    {
      tool: "ui_tap",
      args: { selector: { content_desc: "Navigate up" } },
      expect: { not_visible: { text: "Dark theme" }, visible: { text: "Apps" } },
    },
    { tool: "ui_scroll", args: { direction: "down" }, expect: { visible: { text: "About emulated device" } } },
  ],
});

test("a flow that holds passes: one session on every act, closed; the lock held throughout; progress per step", async (t) => {
  const world = scenarioWorld("settings", tempDir(t));
  const progress: StepProgress[] = [];
  const heldDuringDriverCalls: number[] = [];
  world.behaviour.beforeCall = async () => void heldDuringDriverCalls.push(world.lock.held.size);
  const run = await runFlow(settingsTour, world.harness, { onProgress: (e) => progress.push(e), pollIntervalMs: 20 });
  assert.equal(run.outcome, "passed", JSON.stringify(run.failure));
  assert.equal(run.exit_code, 0);
  assert.deepEqual(run.steps.map((s) => s.outcome), ["passed", "passed", "passed", "passed", "passed"]);
  const sessionId = run.session.session_id!;
  assert.match(sessionId, /^s-test/);
  assert.deepEqual(run.session, { session_id: sessionId, closed: true });
  assert.equal(world.calls.filter((c) => c === "open").length, 1, "one Appium session for the whole flow");
  assert.equal(world.live.size, 0, "deleted on the Appium side at the end");
  assert.equal(world.layer.openCount(), 0);
  assert.equal(world.lock.acquisitions, 1, "one acquisition of the cross-process lock for the whole flow");
  assert.equal(world.lock.held.size, 0, "released at the end");
  assert.ok(heldDuringDriverCalls.length > 10 && heldDuringDriverCalls.every((n) => n === 1), "held during every driver call");
  const acts = world.audit.filter((a) => !["ui_get_tree", "ui_session_open", "ui_session_close"].includes(a.tool));
  assert.equal(acts.length, 4);
  assert.ok(acts.every((a) => a.arguments["session_id"] === sessionId), "every act carried the flow's session");
  assert.equal(
    world.audit.find((a) => a.tool === "ui_get_tree" && a.arguments["include_raw"] === undefined)?.arguments["session_id"],
    undefined,
  );
  assert.equal(run.device.udid, "emulator-5554");
  assert.ok(run.steps.every((s) => s.envelope?.ok), "every envelope kept");
  assert.ok(
    run.steps.filter((s) => s.tool !== "ui_get_tree").every((s) =>
      s.evidence_id !== null && s.evidence_id === s.envelope!.evidence?.artifact_id
    ),
  );
  assert.deepEqual(progress.filter((p) => p.phase === "finished").map((p) => `${p.index}/${p.total} ${p.tool} ${p.outcome}`), [
    "1/5 settings_open passed",
    "2/5 ui_tap passed",
    "3/5 ui_get_tree passed",
    "4/5 ui_tap passed",
    "5/5 ui_scroll passed",
  ]);
  assert.ok(progress.every((p) => p.phase === "started" || typeof p.durationMs === "number"));
});

test("a dialog appearing after the act is an unexpected screen (3), and the report says what the screen offers", async () => {
  const world = virtualScenarioWorld("permission");
  const run = await runFlow(
    flow({
      version: 1,
      name: "near me",
      package_name: "com.example.maps",
      steps: [
        {
          tool: "ui_tap",
          args: { selector: { text: "Find places near me" } },
          expect: { visible: { text: "Café Central" }, timeout_ms: 300 },
        },
        { tool: "device_back" },
      ],
    }),
    world.harness,
    { pollIntervalMs: 50 },
  );
  assert.equal(run.outcome, "unexpected_screen");
  assert.equal(run.exit_code, 3);
  assert.deepEqual(run.steps.map((s) => s.outcome), ["unexpected_screen", "skipped"]);
  const failure = run.failure!;
  assert.equal(failure.step, 1);
  assert.equal(failure.tool, "ui_tap");
  assert.equal(failure.expected, 'visible {"text":"Café Central"}');
  assert.match(failure.reason, /changed the screen, but \{"text":"Café Central"\} is not on screen/);
  assert.match(
    failure.screen_offers!,
    /com\.google\.android\.permissioncontroller offers .*'While using the app' \(button\).*'Don’t allow'/,
  );
  assert.match(
    failure.screen_offers!,
    /'While using the app' \(button\) \{"[a-z_]+":/,
    "each action with its selector, as a failed lookup says it",
  );
  assert.equal(failure.screen!.foreground_package, "com.google.android.permissioncontroller");
  assert.ok(failure.evidence?.artifact_id.endsWith("ui-screenshot.png"), "a screenshot of the failing screen");
  // The runner's stop rule on the virtual clock (timeout_ms 300, a poll each 50 ms): readings at 0, 50, … 300 ms,
  // and it gave up at the one after which the next poll would pass the timeout.
  assert.deepEqual(
    { readings: run.steps[0]!.expectation!.readings, waited_ms: run.steps[0]!.expectation!.waited_ms },
    { readings: 7, waited_ms: 300 },
    "polled until its timeout, and no longer",
  );
  assert.equal(run.session.closed, true, "closed after the failure too");
  assert.equal(world.live.size, 0);
});

test("a scroll that changes nothing is no progress (5)", async (t) => {
  const world = scenarioWorld("settings", tempDir(t));
  const run = await runFlow(
    flow({
      version: 1,
      name: "end of list",
      package_name: "com.android.settings",
      steps: [
        { tool: "ui_scroll", args: { direction: "down" }, expect: { visible: { text: "System" } } },
        { tool: "ui_scroll", args: { direction: "down" }, expect: { visible: { text: "Tips & support" }, timeout_ms: 100 } },
      ],
    }),
    world.harness,
    { pollIntervalMs: 20 },
  );
  assert.equal(run.exit_code, 5, JSON.stringify(run.failure));
  assert.equal(run.steps[1]!.envelope!.data["changed"], false);
  assert.match(run.failure!.reason, /changed nothing on screen/);
});

test("a screen that never settles is timed out (2); an expectation that still holds lets the step pass", async () => {
  const world = virtualScenarioWorld("settings"); // the settle limit on the virtual clock, not waited out in real time
  world.device.setFaults({ tickingClock: true });
  const run = await runFlow(
    flow({
      version: 1,
      name: "ticking",
      package_name: "com.android.settings",
      steps: [
        { tool: "ui_tap", args: { selector: { text: "Display" } }, expect: { visible: { text: "Dark theme" } } },
        { tool: "ui_tap", args: { selector: { text: "Dark theme" } } },
      ],
    }),
    world.harness,
    { pollIntervalMs: 20 },
  );
  assert.deepEqual(run.steps.map((s) => s.outcome), ["passed", "timed_out"]);
  assert.equal(run.exit_code, 2);
  assert.match(run.failure!.reason, /never settled/);
});

test("the device going away mid-flow is a device fault (4); the session is still closed", async (t) => {
  const world = scenarioWorld("settings", tempDir(t));
  let gone = false;
  world.behaviour.beforeCall = async (name) => {
    if (gone && name !== "delete") throw new HarnessError("EMULATOR_UNAVAILABLE", "Device emulator-5554 is offline; reconnect it.");
  };
  const run = await runFlow(
    flow({
      version: 1,
      name: "offline",
      package_name: "com.android.settings",
      steps: [{ tool: "ui_tap", args: { selector: { text: "Display" } } }, { tool: "device_back" }, { tool: "device_back" }],
    }),
    world.harness,
    { onProgress: (e) => void (gone ||= e.phase === "finished" && e.index === 1) },
  );
  assert.equal(run.exit_code, 4, JSON.stringify(run.failure));
  assert.deepEqual(run.steps.map((s) => s.outcome), ["passed", "device_fault", "skipped"]);
  assert.match(run.failure!.reason, /EMULATOR_UNAVAILABLE: Device emulator-5554 is offline/);
  assert.equal(run.failure!.evidence, null, "no screenshot of a device that is gone");
  assert.equal(world.layer.openCount(), 0, "the session was still closed");
  assert.equal(world.lock.held.size, 0);
});

test("a device that is busy before the flow starts is a device fault (4) and nothing runs", async (t) => {
  const world = scenarioWorld("settings", tempDir(t));
  const other = await world.lock.acquire({ adbServer: world.deps.ports.observer.adbServer, udid: "emulator-5554" }, {
    operationId: "x",
    tool: "serve",
  });
  const run = await runFlow(settingsTour, world.harness);
  await other.release();
  assert.equal(run.exit_code, 4);
  assert.match(run.failure!.reason, /EMULATOR_BUSY/);
  assert.equal(run.failure!.step, undefined);
  assert.ok(run.steps.every((s) => s.outcome === "skipped"));
  assert.equal(world.calls.filter((c) => c === "open").length, 0, "no Appium session without the lock");
});

test("a missing target names what the screen offers (3); a text typed into a plain field is shown, the act echoes its length", async (t) => {
  const world = scenarioWorld("login", tempDir(t));
  const run = await runFlow(
    flow({
      version: 1,
      name: "login",
      package_name: "com.example.shop",
      steps: [
        {
          tool: "ui_type_text",
          args: { selector: { resource_id: "com.example.shop:id/email" }, text: "zoë@例え.jp" },
          expect: { visible: { text: "zoë@例え.jp" } },
        },
        { tool: "ui_tap", args: { selector: { text: "Log in" } } },
      ],
    }),
    world.harness,
    { pollIntervalMs: 20 },
  );
  assert.equal(run.exit_code, 3);
  assert.deepEqual(run.steps[0]!.args, { selector: { resource_id: "com.example.shop:id/email" }, text: "zoë@例え.jp" });
  assert.equal(run.steps[0]!.expected, 'visible {"text":"zoë@例え.jp"}');
  assert.equal(run.steps[0]!.envelope!.data["typed_length"], 9);
  const { screen: _shown, ...echo } = run.steps[0]!.envelope!.data;
  assert.ok(!JSON.stringify(echo).includes("zoë"), "the act echoes only the typed length (the screen itself may show the text)");
  assert.match(run.failure!.reason, /UI_ELEMENT_NOT_FOUND/);
  assert.match(run.failure!.screen_offers!, /'Sign in'/);
});

test("the record shows a typed text except a secret one: a password field's, the environment's, one never typed (its length only)", async (t) => {
  const world = scenarioWorld("login", tempDir(t));
  const email = { resource_id: "com.example.shop:id/email" };
  const run = await runFlow(
    flow({
      version: 1,
      name: "login secrets",
      package_name: "com.example.shop",
      steps: [
        { tool: "ui_type_text", args: { selector: email, text: "ada@example.com" }, expect: { visible: { text: "ada@example.com" } } },
        { tool: "ui_type_text", args: { selector: { resource_id: "com.example.shop:id/password" }, text: "hunter22" } },
        // As resolveFlowEnv leaves a {"env": NAME} text: the value, named by the runner's envTexts.
        {
          tool: "ui_type_text",
          args: { selector: email, text: "from-env@example.com" },
          expect: { visible: { text: "from-env@example.com" } },
        },
        { tool: "ui_tap", args: { selector: { text: "Log in" } } },
        { tool: "ui_type_text", args: { selector: email, text: "never@example.com" }, expect: { visible: { text: "never@example.com" } } },
      ],
    }),
    world.harness,
    { pollIntervalMs: 20, envTexts: new Set(["from-env@example.com"]) },
  );
  assert.equal(run.exit_code, 3, JSON.stringify(run.failure));
  assert.deepEqual(run.steps.map((s) => s.args["text"]), [
    "ada@example.com",
    { redacted_length: 8 },
    { redacted_length: 20 },
    undefined,
    { redacted_length: 17 },
  ]);
  assert.deepEqual(run.steps.map((s) => s.expected), [
    'visible {"text":"ada@example.com"}',
    undefined,
    'visible {"text":"[typed text, 20 characters]"}',
    undefined,
    'visible {"text":"[typed text, 17 characters]"}',
  ]);
  // What the flow says (the screen a field shows an environment text on is masked by the flow command: maskEnvTexts).
  const said = JSON.stringify(run.steps.map(({ args, expect, expected, expectation }) => ({ args, expect, expected, expectation })));
  for (const secret of ["hunter22", "from-env", "never@"]) assert.ok(!said.includes(secret), `${secret} is in no step's words`);
  assert.ok(!JSON.stringify(run).includes("hunter22"), "the password is nowhere in the record");
});

test("a flow naming a tool the harness does not serve is found before anything runs", () => {
  assert.deepEqual(unservedTools(settingsTour, SERVED_TOOLS), []);
  const observeOnly = SERVED_TOOLS.filter((tool) => tool.name === "ui_get_tree");
  assert.deepEqual(unservedTools(settingsTour, observeOnly), [
    "ui_session_open",
    "ui_session_close",
    "settings_open",
    "ui_tap",
    "ui_scroll",
  ]);
});

/** The harness's ui_get_tree, failing the runner's own readings (include_raw) while `failing()` says so. */
function flakyReadings(world: ReturnType<typeof scenarioWorld>, failing: () => boolean): void {
  world.harness.tools = SERVED_TOOLS.map((tool) =>
    tool.name !== "ui_get_tree" ? tool : {
      ...tool,
      run: async (args, ctx, ports) => {
        if ((args as { include_raw?: boolean }).include_raw === true && failing()) {
          throw new HarnessError(
            "UI_TREE_UNAVAILABLE",
            "uiautomator dump failed: ERROR: null root node returned by UiTestAutomationBridge.",
          );
        }
        return tool.run(args, ctx, ports);
      },
    } as typeof tool
  );
}

test("one failed reading while the expectation is polled (a window in transition) is read again, not a timeout", async (t) => {
  const world = scenarioWorld("settings", tempDir(t));
  let failNext = 1;
  flakyReadings(world, () => failNext-- > 0);
  const run = await runFlow(
    flow({
      version: 1,
      name: "transition",
      package_name: "com.android.settings",
      steps: [{ tool: "ui_tap", args: { selector: { text: "Display" } }, expect: { visible: { text: "Dark theme" } } }],
    }),
    world.harness,
    { pollIntervalMs: 20 },
  );
  assert.equal(run.exit_code, 0, JSON.stringify(run.failure));
  assert.equal(run.steps[0]!.expectation!.readings, 2, "the failed reading, then one that holds");

  // A screen that never yields a tree within the expectation's time is still "never settled" (2).
  const world2 = scenarioWorld("settings", tempDir(t));
  flakyReadings(world2, () => true);
  const never = await runFlow(
    flow({
      version: 1,
      name: "never",
      package_name: "com.android.settings",
      steps: [{ tool: "ui_tap", args: { selector: { text: "Display" } }, expect: { visible: { text: "Dark theme" }, timeout_ms: 200 } }],
    }),
    world2.harness,
    { pollIntervalMs: 20 },
  );
  assert.equal(never.exit_code, 2, JSON.stringify(never.failure));
  assert.match(never.failure!.reason, /UI_TREE_UNAVAILABLE/);
  assert.ok(never.steps[0]!.expectation!.readings > 1, "read again until the timeout");
});

test("a long flow leaves no listener behind on the run's stop signal (each call's cancellation is detached when it ends) (R40)", async (t) => {
  const world = scenarioWorld("settings", tempDir(t));
  const stop = new AbortController();
  let listening = 0;
  const add = stop.signal.addEventListener.bind(stop.signal);
  const remove = stop.signal.removeEventListener.bind(stop.signal);
  stop.signal.addEventListener = ((type: string, ...rest: [EventListener, AddEventListenerOptions?]) => {
    if (type === "abort") listening++;
    add(type, ...rest);
  }) as typeof stop.signal.addEventListener;
  stop.signal.removeEventListener = ((type: string, ...rest: [EventListener]) => {
    if (type === "abort") listening--;
    remove(type, ...rest);
  }) as typeof stop.signal.removeEventListener;
  const steps = Array.from({ length: 30 }, () => ({ tool: "ui_get_tree", expect: { visible: { text: "Network & internet" } } }));
  const run = await runFlow(
    flow({ version: 1, name: "many", package_name: "com.android.settings", steps: [{ tool: "settings_open" }, ...steps] }),
    world.harness,
    { stop: stop.signal, pollIntervalMs: 20 },
  );
  assert.equal(run.outcome, "passed", JSON.stringify(run.failure));
  assert.ok(listening <= 1, `${listening} abort listeners left on the run's stop signal after 31 steps (Node warns past 10)`);
});
