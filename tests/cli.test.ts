import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runCliCaptured } from "./support/cli.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { startSimDevice } from "../src/sim/mod.ts";
import { VERSION } from "../src/version.ts";

test("--version prints the package.json version", async () => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
  assert.equal(VERSION, pkg.version);
  const run = await runCliCaptured(["--version"]);
  assert.equal(run.code, 0);
  assert.match(run.stdout, new RegExp(VERSION.replaceAll(".", "\\.")));
});

test("an unknown command is a usage error with exit code 2", async () => {
  const run = await runCliCaptured(["frobnicate"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /Unknown command "frobnicate"/);
  assert.match(run.stderr, /--help/);
});

test("no command prints help and exits 2", async () => {
  const run = await runCliCaptured([]);
  assert.equal(run.code, 2);
  assert.match(run.stdout, /Usage:/);
});

test("an unknown option is a usage error with exit code 2", async () => {
  const run = await runCliCaptured(["--frobnicate"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /Unknown option "--frobnicate"/);
});

test("option values keep their text: a numeric-looking serial keeps its leading zeros", async (t) => {
  const sim = await startSimDevice({});
  t.after(() => sim.stop());
  const run = await runCliCaptured(["tree", "--device", "0012345"], { env: { ADB_SERVER_SOCKET: sim.adbServerSocket } });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /Cannot find device "0012345"/);
  const inline = await runCliCaptured(["tree", "--file=007"]);
  assert.match(inline.stderr, /\/007\b/);
  assert.doesNotMatch(inline.stderr, /needs a path/);
});
