/**
 * Record → replay end to end: an MCP client drives the compiled `serve --device sim --record FILE` over
 * real stdio; the file is a valid flow after every act (also after the server is killed with SIGKILL),
 * keeps typed text while the audit log redacts it, and replaying it with `flow FILE --device sim` passes, also
 * for a session using issue 16's hands on the shop scenario.
 * `--record` refuses to overwrite an existing file.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseFlowText } from "../../contracts/flow.ts";
import { actToolsSkipReason } from "../support/act_tools.ts";
import { runCliCaptured } from "../support/cli.ts";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";
import { runCli } from "../support/run_cli.ts";

test(
  "an agent's session recorded by serve --record replays green, and survives a killed server",
  { skip: actToolsSkipReason() },
  async (t) => {
    const home = makeServeHome();
    t.after(() => home.remove());
    const file = join(home.root, "agent-session.json");
    const served = await spawnServe(["--device", "sim", "--record", file], home.env);
    t.after(() => served.close());
    const call = async (name: string, args: Record<string, unknown>) => {
      const envelope = envelopeOf(await served.client.callTool({ name, arguments: args }));
      assert.equal(envelope.ok, true, `${name}: ${JSON.stringify(envelope.error)}`);
      return envelope;
    };
    const stepsInFile = () => {
      const parsed = parseFlowText(readFileSync(file, "utf8"));
      assert.ok(parsed.ok, `a valid flow: ${JSON.stringify(!parsed.ok && parsed.problems)}`);
      return parsed.flow.steps;
    };
    await call("ui_get_tree", {});
    assert.equal(readFileSync(file, "utf8"), "", "the file is claimed (empty) at start; no step before the first act");
    await call("settings_open", {});
    assert.equal(stepsInFile().length, 1);
    const session = String((await call("ui_session_open", { package: "com.android.settings" })).data["session_id"]);
    await call("ui_tap", { selector: { text: "Network & internet" }, session_id: session });
    await call("ui_get_tree", {});
    await call("ui_tap", { selector: { content_desc: "Navigate up" }, session_id: session });
    await call("ui_scroll", { direction: "down", session_id: session });
    const failed = envelopeOf(
      await served.client.callTool({ name: "ui_tap", arguments: { selector: { text: "No such row" }, session_id: session } }),
    );
    assert.equal(failed.ok, false);
    await call("ui_tap", { selector: { text: "About emulated device" }, session_id: session });
    await call("device_back", { session_id: session });
    await call("ui_tap", { selector: { text: "Search Settings" }, session_id: session }); // changes nothing here
    await call("ui_session_close", { session_id: session });
    const steps = stepsInFile();
    assert.deepEqual(steps.map((s) => s.tool), ["settings_open", "ui_tap", "ui_tap", "ui_scroll", "ui_tap", "device_back", "ui_tap"]);
    assert.ok(steps.every((s) => s.args?.["session_id"] === undefined));
    assert.ok(steps.every((s) => s.expect?.foreground_package === "com.android.settings"), "every step expects the package it led to");
    assert.deepEqual(
      steps.map((s) => s.expect?.visible !== undefined),
      [false, true, true, true, true, true, false],
      "a selector that appeared, where the act changed the screen",
    );

    process.kill(served.pid!, "SIGKILL"); // a killed server leaves the last whole file
    assert.equal(stepsInFile().length, 7);
    assert.deepEqual(readdirSync(home.root).filter((n) => n.includes(".draft")), [], "no half-written drafts next to it");

    const replay = await runCliCaptured(["flow", file, "--device", "sim", "--artifacts", join(home.root, "replay")]);
    assert.equal(replay.code, 0, `${replay.stderr}\n${replay.stdout}`);
    assert.match(replay.stdout, /passed, 7 of 7 steps passed/);
  },
);

test(
  "--record-secrets keep: typed text, a password's too, is kept in the recording and redacted in the audit log; it replays",
  { skip: actToolsSkipReason() },
  async (t) => {
    const home = makeServeHome();
    t.after(() => home.remove());
    const file = join(home.root, "login.json");
    const served = await spawnServe(["--device", "sim", "--scenario", "login", "--record", file, "--record-secrets", "keep"], home.env);
    t.after(() => served.close());
    const call = async (name: string, args: Record<string, unknown>) => {
      const envelope = envelopeOf(await served.client.callTool({ name, arguments: args }));
      assert.equal(envelope.ok, true, `${name}: ${JSON.stringify(envelope.error)}`);
    };
    await call("ui_type_text", { selector: { resource_id: "com.example.shop:id/email" }, text: "Ünïcödé@例え.jp" });
    await call("ui_type_text", { selector: { resource_id: "com.example.shop:id/password" }, text: "ß-geheim" });
    await call("ui_tap", { selector: { resource_id: "com.example.shop:id/sign_in" } });
    await served.close();
    const flow = parseFlowText(readFileSync(file, "utf8"));
    assert.ok(flow.ok);
    assert.deepEqual(
      flow.flow.steps.map((s) => s.args?.["text"]),
      ["Ünïcödé@例え.jp", "ß-geheim", undefined],
      "kept as typed in the user's own file",
    );
    assert.equal(flow.flow.package_name, "com.example.shop");
    const audit = readFileSync(join(home.artifacts, readdirSync(home.artifacts).find((n) => n.endsWith(".jsonl"))!), "utf8");
    assert.ok(!audit.includes("Ünïcödé") && !audit.includes("geheim"), "the audit log never holds the text");
    assert.ok(
      audit.includes(`"redacted_length":${[..."Ünïcödé@例え.jp"].length}`) && audit.includes('"redacted_length":8'),
      "only its length",
    );
    const replay = await runCliCaptured(["flow", file, "--device", "sim", "--scenario", "login", "--artifacts", join(home.root, "replay")]);
    assert.equal(replay.code, 0, `${replay.stderr}\n${replay.stdout}`);
  },
);

test(
  "a recorded session using the new hands (gestures, sideways and until scrolls, append and submit, deep link, keys, wait, clear) replays green",
  {
    skip: actToolsSkipReason(),
  },
  async (t) => {
    const home = makeServeHome();
    t.after(() => home.remove());
    const file = join(home.root, "shop-hands.json");
    const served = await spawnServe(["--device", "sim", "--scenario", "shop", "--record", file], home.env);
    t.after(() => served.close());
    const call = async (name: string, args: Record<string, unknown>) => {
      const envelope = envelopeOf(await served.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 }));
      assert.equal(envelope.ok, true, `${name}: ${JSON.stringify(envelope.error)}`);
      return envelope;
    };
    const shop = "com.example.shop";
    const failsOnPurpose = (name: string, args: Record<string, unknown>) => name === "ui_type_text" && args["text"] === "x";
    const session = String((await call("ui_session_open", { package: shop })).data["session_id"]);
    const calls: [string, Record<string, unknown>][] = [
      ["app_launch", { package: shop, restart: true }],
      ["ui_tap", { selector: { text: "Canvas sneakers" }, gesture: "long_press" }],
      ["ui_tap", { selector: { text: "Share" } }],
      ["ui_scroll", { direction: "right", container: { resource_id: "chips" } }],
      ["ui_scroll", { direction: "down", until: { text: "Daypack" } }],
      ["ui_tap", { selector: { content_desc: "Search" } }],
      ["ui_type_text", { selector: { resource_id: "search_field" }, text: "bo" }],
      ["ui_type_text", { selector: { resource_id: "search_field" }, text: "ots", append: true, submit: "search" }],
      ["app_open_url", { url: "shop://product/42" }],
      ["ui_tap", { selector: { content_desc: "Canvas sneakers photo" }, gesture: "double_tap" }],
      ["ui_wait", { visible: { text: "In your favourites" }, timeout_ms: 2000 }],
      ["ui_tap", { selector: { text: "Add to cart" } }],
      ["ui_type_text", { selector: { text: "Place order" }, text: "x" }], // fails (not an input): not a step
      ["device_press", { key: "home" }],
      ["app_clear", { package: shop }],
      ["app_launch", { package: shop }],
    ];
    for (const [name, args] of calls) {
      const observe = name === "ui_wait";
      const envelope = envelopeOf(
        await served.client.callTool({ name, arguments: observe ? args : { ...args, session_id: session } }, undefined, {
          timeout: 60_000,
        }),
      );
      if (!failsOnPurpose(name, args)) {
        assert.equal(envelope.ok, true, `${name} ${JSON.stringify(args)}: ${JSON.stringify(envelope.error)}`);
      }
    }
    await call("ui_session_close", { session_id: session });
    await served.close();
    const parsed = parseFlowText(readFileSync(file, "utf8"));
    assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.problems));
    assert.deepEqual(
      parsed.flow.steps.map((s) => [s.tool, s.args]),
      calls.filter(([name, args]) => !failsOnPurpose(name, args)),
      "every new tool and argument as sent",
    );
    assert.equal(parsed.flow.package_name, shop);
    assert.equal(parsed.flow.sim_scenario, "shop", "the recording names the scenario it was made on");
    // Replayed as recorded: no --scenario, the file's sim_scenario picks it.
    const replay = await runCliCaptured(["flow", file, "--device", "sim", "--artifacts", join(home.root, "replay")]);
    assert.equal(replay.code, 0, `${replay.stderr}\n${replay.stdout}`);
    assert.match(replay.stderr, /plays the scenario "shop" \(the flow's sim_scenario/);
    assert.match(replay.stdout, /passed, 15 of 15 steps passed/);
  },
);

test("--record never overwrites an existing file", async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const file = join(home.root, "kept.json");
  writeFileSync(file, "precious");
  const run = await runCliCaptured(["serve", "--device", "sim", "--record", file]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /already exists .*--record never overwrites a file/);
  assert.equal(readFileSync(file, "utf8"), "precious");
});

test("--record into a directory that cannot hold the file is refused at start, not lost after a whole session", async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  writeFileSync(join(home.root, "a-file"), "not a directory");
  const file = join(home.root, "a-file", "session.json");
  const run = await runCliCaptured(["serve", "--device", "sim", "--record", file]);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /--record: cannot create .*a-file.*; choose a path in a writable directory/);
});

/** Issue 25 (defects 3 and 4): what a recording keeps of typed secrets. */
const SECRET = "Hunter2-S3cr3t!pw";

test("serve --record (no --record-secrets): the password is a reference named on stderr, the e-mail kept; the replay needs it", {
  skip: actToolsSkipReason(),
  timeout: 120_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const record = join(home.root, "login.json");
  const served = await spawnServe(["--device", "sim", "--scenario", "login", "--record", record], home.env);
  t.after(() => served.close());
  const call = async (name: string, args: Record<string, unknown>) => envelopeOf(await served.client.callTool({ name, arguments: args }));
  assert.equal((await call("ui_type_text", { selector: { resource_id: "email" }, text: "zoe@example.com" })).ok, true);
  assert.equal((await call("ui_type_text", { selector: { resource_id: "com.example.shop:id/password" }, text: SECRET })).ok, true);
  assert.equal((await call("ui_tap", { selector: { resource_id: "sign_in" } })).ok, true);
  await served.close();
  const text = readFileSync(record, "utf8");
  assert.ok(!text.includes(SECRET), text);
  const flow = JSON.parse(text) as { steps: { tool: string; args?: Record<string, unknown> }[] };
  assert.deepEqual(flow.steps.map((s) => s.args?.["text"]), ["zoe@example.com", { env: "ANDROID_MCP_TEXT_2" }, undefined]);
  assert.match(served.stderr(), /step 2 types into a password field, written as \{"env": "ANDROID_MCP_TEXT_2"\}; set ANDROID_MCP_TEXT_2/);
  assert.ok(!served.stderr().includes(SECRET), "the password is not on stderr");
  const unset = await runCli(["flow", record, "--device", "sim"], home.env);
  assert.equal(unset.code, 1, unset.stderr);
  assert.match(unset.stderr, /steps\.1\.args\.text: the environment variable ANDROID_MCP_TEXT_2 is not set/);
  const replay = await runCli(["flow", record, "--device", "sim"], { ...home.env, ANDROID_MCP_TEXT_2: SECRET });
  assert.equal(replay.code, 0, replay.stderr + replay.stdout.slice(0, 2000));
  assert.ok(!replay.stdout.includes(SECRET), "nor in the replay's output");
});

test("--record-secrets env: a typed text the next screen shows inside a longer text is in no expectation (issue 25, 3)", {
  skip: actToolsSkipReason(),
  timeout: 60_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const record = join(home.root, "search.json");
  const query = "zebra-Geheimnis"; // no digits: the recorder prefers texts without them
  const served = await spawnServe(["--device", "sim", "--scenario", "shop", "--record", record, "--record-secrets", "env"], home.env);
  t.after(() => served.close());
  const call = async (name: string, args: Record<string, unknown>) => envelopeOf(await served.client.callTool({ name, arguments: args }));
  assert.equal((await call("ui_tap", { selector: { content_desc: "Search" } })).ok, true);
  const typed = await call("ui_type_text", { selector: { resource_id: "search_field" }, text: query, submit: "search" });
  assert.equal(typed.ok, true, JSON.stringify(typed.error));
  assert.ok(JSON.stringify(typed.data["screen"]).includes(`No results for \u201c${query}\u201d`), "the next screen shows it");
  await served.close();
  const text = readFileSync(record, "utf8");
  assert.ok(!text.toLowerCase().includes(query.toLowerCase()), text);
  const flow = JSON.parse(text) as { steps: { tool: string; args?: Record<string, unknown> }[] };
  assert.deepEqual(flow.steps[1]?.args?.["text"], { env: "ANDROID_MCP_TEXT_1" });
});
