/**
 * `serve --record`'s recorder on a scenario device through the real gate: acting calls become steps
 * (session_id dropped, typed text kept; the audit log still redacts it), each with the foreground package
 * and a selector that appeared; the file is a valid flow after every step; replaying it on a fresh
 * device passes. Failed calls and observe calls are not steps.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseFlowText, resolveFlowEnv } from "../../contracts/flow.ts";
import { createNodeFileSystem } from "../../src/adapters/evidence/node_file_system.ts";
import { createFlowRecorder, expectationFrom } from "../../src/flow/recorder.ts";
import { runFlow } from "../../src/flow/runner.ts";
import type { ToolName } from "../../contracts/tools.ts";
import { inProcessClient } from "../../src/mcp/in_process_client.ts";
import type { AnsweredCall } from "../../src/mcp/server.ts";
import { silentLogger } from "../support/silent_logger.ts";
import { tempDir } from "../evidence/temp_dir.ts";
import { type ScenarioWorld, scenarioWorld } from "./scenario_world.ts";

async function call<N extends ToolName>(
  world: ScenarioWorld,
  recorder: ReturnType<typeof createFlowRecorder>,
  tool: N,
  args: Record<string, unknown>,
) {
  const envelope = await inProcessClient(world.harness.tools, world.harness.deps).call(tool, args);
  await recorder.record({ tool, args, envelope } as AnsweredCall);
  return envelope;
}

/** A recorder of the login scenario into a new file (the default secrets unless given). */
function loginRecording(t: Parameters<typeof tempDir>[0], secrets?: "keep" | "env") {
  const dir = tempDir(t, "amh-record-");
  const file = join(dir, "login.json");
  const world = scenarioWorld("login", dir);
  const recorder = createFlowRecorder({
    path: file,
    fs: createNodeFileSystem(),
    logger: silentLogger,
    device: "sim",
    now: Date.now,
    ...(secrets === undefined ? {} : { secrets }),
  });
  const typedTexts = () => {
    const parsed = parseFlowText(readFileSync(file, "utf8"));
    assert.ok(parsed.ok);
    return parsed.flow.steps.map((s) => s.args?.["text"]);
  };
  return { world, recorder, typedTexts };
}

test("a recorded login session is a valid flow after every step, keeps typed text but a password's, and replays green", async (t) => {
  const dir = tempDir(t, "amh-record-");
  const file = join(dir, "login-session.json");
  const world = scenarioWorld("login", dir);
  const warnings: string[] = [];
  const recorder = createFlowRecorder({
    path: file,
    fs: createNodeFileSystem(),
    logger: { ...silentLogger, warn: (line: string) => void warnings.push(line) },
    device: "simulated device emulator-5554",
    now: Date.now,
  });
  const session = (await call(world, recorder, "ui_session_open", {})).data["session_id"];
  await call(world, recorder, "ui_get_tree", {});
  const steps: [ToolName, Record<string, unknown>][] = [
    ["ui_type_text", { selector: { resource_id: "com.example.shop:id/email" }, text: "zoë@例え.jp", session_id: session }],
    ["ui_type_text", { selector: { resource_id: "com.example.shop:id/password" }, text: "pässwörd", session_id: session }],
    ["ui_tap", { selector: { text: "Nope" }, session_id: session }], // fails: not recorded
    ["ui_tap", { selector: { resource_id: "com.example.shop:id/sign_in" }, session_id: session }],
  ];
  let written = 0;
  for (const [tool, args] of steps) {
    const envelope = await call(world, recorder, tool, args);
    if (envelope.ok) written++;
    const parsed = parseFlowText(readFileSync(file, "utf8"));
    assert.ok(parsed.ok, "a valid flow after every step");
    assert.equal(parsed.flow.steps.length, written);
  }
  await call(world, recorder, "ui_session_close", { session_id: session });
  const parsed = parseFlowText(readFileSync(file, "utf8"));
  assert.ok(parsed.ok);
  const flow = parsed.flow;
  assert.equal(flow.name, "login-session");
  assert.equal(flow.package_name, "com.example.shop");
  assert.match(flow.description!, /Typed text is kept as typed .*except a password's/);
  assert.deepEqual(flow.steps.map((s) => s.tool), ["ui_type_text", "ui_type_text", "ui_tap"]);
  assert.equal(flow.steps[0]!.args!["text"], "zoë@例え.jp", "typed text kept in the recording");
  assert.deepEqual(flow.steps[1]!.args!["text"], { env: "ANDROID_MCP_TEXT_2" }, "a password field's text is a reference (issue 25, 4)");
  assert.ok(!readFileSync(file, "utf8").includes("pässwörd"));
  assert.deepEqual(warnings, [
    `record: step 2 types into a password field, written as {"env": "ANDROID_MCP_TEXT_2"}; set ANDROID_MCP_TEXT_2 before replaying ${file}`,
  ]);
  assert.ok(flow.steps.every((s) => s.args?.["session_id"] === undefined), "no session ids");
  assert.deepEqual(
    flow.steps[2]!.expect,
    { foreground_package: "com.example.shop", visible: { resource_id: "sign_out" } },
    "the summary's own (short) selector",
  );
  assert.ok(flow.steps.every((s) => s.expect?.foreground_package === "com.example.shop"));
  const audit = readFileSync(join(dir, readdirSync(dir).find((n) => n.endsWith(".jsonl"))!), "utf8");
  assert.ok(!audit.includes("zoë") && !audit.includes("pässwörd") && audit.includes('"redacted_length":9'), "the audit log still redacts");

  assert.deepEqual(resolveFlowEnv(flow, {}), {
    ok: false,
    problems: [{
      path: "steps.1.args.text",
      message: "the environment variable ANDROID_MCP_TEXT_2 is not set; set it (export ANDROID_MCP_TEXT_2=...) before running the flow",
    }],
  });
  const resolved = resolveFlowEnv(flow, { ANDROID_MCP_TEXT_2: "pässwörd" });
  assert.ok(resolved.ok);
  const replay = scenarioWorld("login", tempDir(t, "amh-replay-"));
  const run = await runFlow(resolved.flow, replay.harness, { pollIntervalMs: 20 });
  assert.equal(run.outcome, "passed", JSON.stringify(run.failure));
  assert.equal(replay.device.screenId(), "account");
});

test("--record-secrets keep writes a password field's text as typed; env writes every typed text as a reference", async (t) => {
  const texts = async (secrets: "keep" | "env", selector: Record<string, string>) => {
    const { world, recorder, typedTexts } = loginRecording(t, secrets);
    await call(world, recorder, "ui_get_tree", {});
    await call(world, recorder, "ui_type_text", { selector: { resource_id: "com.example.shop:id/email" }, text: "zoe@example.com" });
    await call(world, recorder, "ui_type_text", { selector, text: "pässwörd" });
    return typedTexts();
  };
  assert.deepEqual(await texts("keep", { resource_id: "com.example.shop:id/password" }), ["zoe@example.com", "pässwörd"]);
  assert.deepEqual(await texts("env", { resource_id: "password" }), [{ env: "ANDROID_MCP_TEXT_1" }, { env: "ANDROID_MCP_TEXT_2" }]);
});

test("a password field named in any form the locator takes is recognised: short or long id, its hint, or by the typed length", async (t) => {
  for (const selector of [{ resource_id: "password" }, { input_hint: "Password" }, { resource_id: "com.example.shop:id/password" }]) {
    const { world, recorder, typedTexts } = loginRecording(t);
    // No screen read before: the answer's new screen alone says it.
    assert.equal((await call(world, recorder, "ui_type_text", { selector, text: "hunter22" })).ok, true);
    assert.deepEqual(typedTexts(), [{ env: "ANDROID_MCP_TEXT_1" }], JSON.stringify(selector));
  }
});

test("the expectation prefers a stable selector that appeared, and only the package when nothing did", () => {
  const screen = (actions: object[], texts: string[]) =>
    ({ foreground_package: "p.q", texts, actions, can_scroll: false, keyboard: { open: false }, issues: [] }) as never;
  const before = screen([{ selector: { text: "Display" }, bounds: [0, 0, 1, 1] }], ["Settings"]);
  assert.deepEqual(expectationFrom(before, screen([{ selector: { text: "Display" }, bounds: [0, 0, 1, 1] }], ["Settings"]), "p.q"), {
    foreground_package: "p.q",
  });
  assert.deepEqual(
    expectationFrom(
      before,
      screen([{ selector: { text: "Brightness level" }, bounds: [0, 0, 1, 1] }, {
        selector: { resource_id: "p.q:id/x" },
        bounds: [0, 0, 1, 1],
      }], ["48%"]),
      "p.q",
    ),
    { foreground_package: "p.q", visible: { resource_id: "p.q:id/x" } },
  );
  assert.deepEqual(expectationFrom(before, screen([], ["12:01", "Alarm"]), "p.q"), {
    foreground_package: "p.q",
    visible: { text: "Alarm" },
  }, "no digits while a steady text exists");
  assert.equal(expectationFrom(undefined, undefined, undefined), undefined);
});

test("a text typed into another field is kept though a password field already holds as many characters", async (t) => {
  const { world, recorder, typedTexts } = loginRecording(t);
  await call(world, recorder, "ui_type_text", { selector: { resource_id: "password" }, text: "abcdefgh" });
  await call(world, recorder, "ui_type_text", { selector: { resource_id: "email" }, text: "zo@e.com" });
  assert.deepEqual(typedTexts(), [{ env: "ANDROID_MCP_TEXT_1" }, "zo@e.com"]);
});

test("no expectation holds a text written as a reference, even inside a longer text or in another case (issue 25, 3)", () => {
  const screen = (actions: object[], texts: string[]) =>
    ({ foreground_package: "p.q", texts, actions, can_scroll: false, keyboard: { open: false }, issues: [] }) as never;
  const secret = new Set(["zebraStraße"]);
  const after = (shown: string) =>
    screen([{ selector: { content_desc: `Clear ${shown}` }, bounds: [0, 0, 1, 1] }], [`No results for “${shown}”`, "Try another word"]);
  for (const shown of ["zebraStraße", "ZEBRASTRASSE", "zebrastraße"]) {
    assert.deepEqual(expectationFrom(screen([], []), after(shown), "p.q", secret), {
      foreground_package: "p.q",
      visible: { text: "Try another word" },
    }, shown);
  }
  assert.deepEqual(expectationFrom(screen([], []), after("zebra"), "p.q", secret), {
    foreground_package: "p.q",
    visible: { content_desc: "Clear zebra" },
  }, "a part of the secret is not the secret");
  const toggle = { selector: { text: "Remember zebraStraße" }, role: "toggle", checked: true, bounds: [0, 0, 1, 1] };
  assert.deepEqual(
    expectationFrom(screen([], []), screen([toggle], []), "p.q", secret, toggle.selector),
    { foreground_package: "p.q" },
    "nor a toggle's selector",
  );
});

test("the expectation never names an element that appeared under a sheet or the keyboard: replay could not tap it", () => {
  const screen = (actions: object[]) =>
    ({ foreground_package: "p.q", texts: [], actions, can_scroll: false, keyboard: { open: false }, issues: [] }) as never;
  const after = screen([
    { selector: { resource_id: "p.q:id/row" }, covered_by: "Size", bounds: [0, 0, 1, 1] },
    { selector: { resource_id: "p.q:id/key" }, covered_by_keyboard: true, bounds: [0, 0, 1, 1] },
    { selector: { text: "Size" }, bounds: [0, 0, 1, 1] },
  ]);
  assert.deepEqual(expectationFrom(screen([]), after, "p.q"), { foreground_package: "p.q", visible: { text: "Size" } });
});

test("a tap on a toggle records its new checked state, a ui_wait is a step of its own, and the recording replays green", async (t) => {
  const dir = tempDir(t, "amh-record-");
  const file = join(dir, "airplane.json");
  const world = scenarioWorld("settings", dir);
  const recorder = createFlowRecorder({
    path: file,
    fs: createNodeFileSystem(),
    logger: silentLogger,
    device: "simulated device emulator-5554",
    now: Date.now,
  });
  await call(world, recorder, "settings_open", {});
  const network = await call(world, recorder, "ui_tap", { selector: { text: "Network & internet" } });
  const screen = (network.data as { screen: { actions: { selector: Record<string, unknown>; role?: string; label?: string }[] } }).screen;
  const airplane = screen.actions.find((a) => a.role === "toggle" && JSON.stringify(a).includes("Airplane mode"))!;
  assert.ok(airplane !== undefined, "the summary offers the Airplane mode toggle");
  assert.equal((await call(world, recorder, "ui_tap", { selector: airplane.selector })).ok, true);
  assert.equal((await call(world, recorder, "ui_wait", { visible: { text: "Hotspot & tethering" }, timeout_ms: 1000 })).ok, true);
  assert.equal(
    (await call(world, recorder, "ui_wait", { gone: { text: "Hotspot & tethering" }, timeout_ms: 0 })).ok,
    false,
    "failed: not a step",
  );
  const parsed = parseFlowText(readFileSync(file, "utf8"));
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.flow.steps.slice(2), [
    {
      tool: "ui_tap",
      args: { selector: airplane.selector },
      expect: { foreground_package: "com.android.settings", visible: airplane.selector, checked: true },
    },
    { tool: "ui_wait", args: { visible: { text: "Hotspot & tethering" }, timeout_ms: 1000 } },
  ]);
  const replay = scenarioWorld("settings", tempDir(t, "amh-replay-"));
  const run = await runFlow(parsed.flow, replay.harness, { pollIntervalMs: 20 });
  assert.equal(run.outcome, "passed", JSON.stringify(run.failure));
  assert.equal(run.steps.length, 4);
});
