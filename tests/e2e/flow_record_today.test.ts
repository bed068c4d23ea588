/**
 * Record → replay on the sim's newer behaviour: the launcher's Notes Save (the saved note heads the list, the
 * editor opens empty again) and the shop's filtered search ("No results for “…”" found by a model's straight
 * quotes), recorded by `serve --record` over real stdio and replayed green by `flow FILE --device sim`.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseFlowText } from "../../contracts/flow.ts";
import { actToolsSkipReason } from "../support/act_tools.ts";
import { runCliCaptured } from "../support/cli.ts";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";

const cases: { scenario: string; pkg: string; calls: [string, Record<string, unknown>][] }[] = [
  {
    scenario: "launcher",
    pkg: "com.example.notes",
    calls: [
      ["app_launch", { package: "com.example.notes", restart: true }],
      ["ui_tap", { selector: { content_desc: "New note" } }],
      ["ui_type_text", { selector: { resource_id: "title" }, text: "Dentist" }],
      ["ui_type_text", { selector: { resource_id: "body" }, text: "Tuesday 9:00" }],
      ["ui_tap", { selector: { text: "Save" } }],
      ["ui_wait", { visible: { text: "Dentist" }, timeout_ms: 2000 }],
      ["ui_tap", { selector: { content_desc: "New note" } }],
      ["ui_wait", { visible: { input_hint: "Title" }, timeout_ms: 2000 }],
    ],
  },
  {
    scenario: "shop",
    pkg: "com.example.shop",
    calls: [
      ["app_launch", { package: "com.example.shop", restart: true }],
      ["ui_tap", { selector: { content_desc: "Search" } }],
      ["ui_type_text", { selector: { resource_id: "search_field" }, text: "boots 3", submit: "search" }],
      ["ui_wait", { visible: { text: 'No results for "boots 3"' }, timeout_ms: 2000 }],
      ["ui_type_text", { selector: { resource_id: "search_field" }, text: "an", submit: "search" }],
      ["ui_wait", { visible: { text: "2 results" }, timeout_ms: 2000 }],
      ["ui_tap", { selector: { text: "Canvas sneakers" } }],
    ],
  },
];

for (const { scenario, pkg, calls } of cases) {
  test(`a session on the ${scenario} scenario recorded by serve --record replays green`, { skip: actToolsSkipReason() }, async (t) => {
    const home = makeServeHome();
    t.after(() => home.remove());
    const file = join(home.root, `${scenario}.json`);
    const served = await spawnServe(["--device", "sim", "--scenario", scenario, "--record", file], home.env);
    t.after(() => served.close());
    const call = async (name: string, args: Record<string, unknown>) => {
      const envelope = envelopeOf(await served.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 }));
      assert.equal(envelope.ok, true, `${name} ${JSON.stringify(args)}: ${JSON.stringify(envelope.error)}`);
      return envelope;
    };
    const session = String((await call("ui_session_open", { package: pkg })).data["session_id"]);
    for (const [name, args] of calls) await call(name, name === "ui_wait" ? args : { ...args, session_id: session });
    await call("ui_session_close", { session_id: session });
    await served.close();
    const parsed = parseFlowText(readFileSync(file, "utf8"));
    assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.problems));
    assert.deepEqual(parsed.flow.steps.map((s) => [s.tool, s.args]), calls);
    const replay = await runCliCaptured(["flow", file, "--device", "sim", "--artifacts", join(home.root, "replay")]);
    assert.equal(replay.code, 0, `${replay.stderr}\n${replay.stdout}`);
    assert.match(replay.stdout, new RegExp(`passed, ${calls.length} of ${calls.length} steps passed`));
  });
}
