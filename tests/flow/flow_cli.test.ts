/**
 * `flow` refuses before anything runs: an invalid flow lists every problem with its field's path, an
 * unreadable file and a bad option say what to do; all exit 1 (2 means "timed out" for flow), and
 * `--json` answers the same refusal as data. `--help` lists flow among the commands.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runCliCaptured } from "../support/cli.ts";
import { tempDir } from "../evidence/temp_dir.ts";

const bad = {
  version: 1,
  name: "bad",
  package_name: "com.android.settings",
  steps: [{ tool: "ui_tap", args: { selector: { x: 1 } } }, { tool: "ui_scroll", args: { direction: "diagonal" } }, {
    tool: "ui_session_open",
  }],
};

test("an invalid flow is refused with the path of every offending field, exit 1, nothing started", async (t) => {
  const dir = tempDir(t, "amh-flow-cli-");
  const file = join(dir, "bad.json");
  writeFileSync(file, JSON.stringify(bad));
  const run = await runCliCaptured(["flow", file, "--device", "sim", "--artifacts", dir]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /bad\.json is not a valid flow \(nothing was run\)/);
  assert.match(run.stderr, /steps\.0\.args\.selector: unknown key 'x'/);
  assert.match(run.stderr, /steps\.1\.args\.direction: Invalid option: expected one of "up"\|"down"\|"left"\|"right"/);
  assert.match(run.stderr, /steps\.2\.tool: the flow runs under one session/);
  assert.doesNotMatch(run.stderr, /SIMULATED/, "no device was started");
  const json = await runCliCaptured(["flow", file, "--json"]);
  assert.equal(json.code, 1);
  const answer = JSON.parse(json.stdout);
  assert.equal(answer.exit_code, 1);
  assert.deepEqual(answer.problems.map((p: { path: string }) => p.path), [
    "steps.0.args.selector",
    "steps.0.args.selector",
    "steps.1.args.direction",
    "steps.2.tool",
  ]);
});

test("a missing file, broken JSON, a bad option or a bad device are errors (exit 1), never 2", async (t) => {
  const dir = tempDir(t, "amh-flow-cli-");
  const missing = await runCliCaptured(["flow", join(dir, "nope.json")]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot read .*nope\.json \(ENOENT\)/);
  writeFileSync(join(dir, "broken.json"), '{ "version": 1,');
  const broken = await runCliCaptured(["flow", join(dir, "broken.json")]);
  assert.equal(broken.code, 1);
  assert.match(broken.stderr, /\(file\): not valid JSON/);
  writeFileSync(join(dir, "ok.json"), JSON.stringify({ ...bad, steps: [{ tool: "ui_get_tree" }] }));
  const option = await runCliCaptured(["flow", join(dir, "ok.json"), "--bogus"]);
  assert.equal(option.code, 1);
  assert.match(option.stderr, /Unknown option `--bogus`/);
  const device = await runCliCaptured(["flow", join(dir, "ok.json"), "--device", "bad;serial"]);
  assert.equal(device.code, 1);
  assert.match(device.stderr, /--device must be a device serial/);
  const noFile = await runCliCaptured(["flow"]);
  assert.equal(noFile.code, 1);
});

test("--help lists flow", async () => {
  const help = await runCliCaptured(["--help"]);
  assert.match(help.stdout, /flow <file>\s+Run a flow file/);
});
