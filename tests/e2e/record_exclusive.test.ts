/**
 * `serve --record FILE` takes its file exclusively (issue 18), through the real binary: a second server naming
 * the same file is refused at start (exit 2) and the first one's steps stay; a file another program puts at the
 * path later is never replaced; a missing directory is refused, never created.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { actToolsSkipReason } from "../support/act_tools.ts";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";
import { runCli } from "../support/run_cli.ts";

// stdin stays open: a server that was not refused keeps serving until the limit kills it.
const runServe = (args: string[], env: Record<string, string>) => runCli(["serve", ...args], env, { limitMs: 30_000, keepStdinOpen: true });

test("a second server recording to the same file is refused at start; the first keeps its steps", {
  skip: actToolsSkipReason(),
  timeout: 90_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const record = join(home.root, "same.json");
  const first = await spawnServe(["--device", "sim", "--record", record], home.env);
  t.after(() => first.close());
  assert.ok(existsSync(record), "the file is claimed at start");
  assert.equal(statSync(record).mode & 0o777, 0o600);
  const second = await runServe(["--device", "sim", "--record", record], home.env);
  assert.equal(second.code, 2, second.stderr);
  assert.match(second.stderr, /already exists/);
  const shown = envelopeOf(await first.client.callTool({ name: "settings_open", arguments: {} }));
  assert.equal(shown.ok, true, JSON.stringify(shown.error));
  const flow = JSON.parse(readFileSync(record, "utf8")) as { steps: { tool: string }[] };
  assert.deepEqual(flow.steps.map((s) => s.tool), ["settings_open"]);
});

test("a file another program puts at the recorded path is never replaced", { skip: actToolsSkipReason(), timeout: 60_000 }, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const record = join(home.root, "theirs.json");
  const served = await spawnServe(["--device", "sim", "--record", record], home.env);
  t.after(() => served.close());
  rmSync(record);
  writeFileSync(record, "someone else's notes\n");
  const shown = envelopeOf(await served.client.callTool({ name: "settings_open", arguments: {} }));
  assert.equal(shown.ok, true, JSON.stringify(shown.error));
  await served.client.callTool({ name: "device_back", arguments: {} });
  assert.equal(readFileSync(record, "utf8"), "someone else's notes\n");
  assert.match(served.stderr(), /replaced or removed by another program; recording stopped/);
});

test("--record into a missing directory is refused at start and creates nothing", async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const missing = join(home.root, "nonexistent", "dir");
  const ran = await runServe(["--device", "sim", "--record", join(missing, "x.json")], home.env);
  assert.equal(ran.code, 2, ran.stderr);
  assert.match(ran.stderr, /never creates directories/);
  assert.equal(existsSync(join(home.root, "nonexistent")), false);
});
