/**
 * Checks 1 (runtime), 4 (Android SDK) and 8 (artifacts) over real temporary folders: the runtime line
 * for Node, Deno and the compiled executable; ANDROID_HOME / ANDROID_SDK_ROOT holding platform-tools or
 * not (the remedy names an SDK found in the usual places); the artifacts directory chosen like `serve`
 * does, writable or not, never created by the check, and too little free space as a miss.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { androidSdkCheck } from "../../src/doctor/check_android_sdk.ts";
import { artifactsCheck } from "../../src/doctor/check_artifacts.ts";
import { runtimeCheck } from "../../src/doctor/check_runtime.ts";
import { createNodeFileProbe } from "../../src/adapters/node_file_probe.ts";
import { printing, writeProgram } from "../support/fake_programs.ts";
import { doctorInputs, runCheck, scratch } from "./doctor_inputs.ts";

test("runtime: Node 20 and Deno 2 are ok, Node 18 is a miss, the compiled executable says so", async (t) => {
  const node = await runCheck(
    runtimeCheck,
    doctorInputs(t, {}, { runtime: { kind: "node", version: "20.20.2", executable: "/usr/bin/node" } }),
  );
  assert.deepEqual([node.ok, node.detail], [true, "Node 20.20.2 (/usr/bin/node)"]);
  const old = await runCheck(
    runtimeCheck,
    doctorInputs(t, {}, { runtime: { kind: "node", version: "18.19.0", executable: "/usr/bin/node" } }),
  );
  assert.equal(old.ok, false);
  assert.match(old.detail, /Node 18\.19\.0 .* is older than Node 20/);
  assert.match(old.remedy ?? "", /Install Node 20 LTS or newer/);
  const deno = await runCheck(runtimeCheck, doctorInputs(t, {}, { runtime: { kind: "deno", version: "2.9.6", executable: "/x/deno" } }));
  assert.deepEqual([deno.ok, deno.detail], [true, "Deno 2.9.6 (/x/deno)"]);
  const compiled = await runCheck(
    runtimeCheck,
    doctorInputs(t, {}, { runtime: { kind: "compiled", engine: "Bun", version: "1.4.5", executable: "/opt/amh" } }),
  );
  assert.deepEqual([compiled.ok, compiled.detail], [true, "the compiled executable /opt/amh (Bun 1.4.5 inside)"]);
});

test("Android SDK: ANDROID_HOME holding platform-tools/adb is ok; ANDROID_SDK_ROOT alone is accepted and named", async (t) => {
  const sdk = scratch(t);
  writeProgram(sdk, "platform-tools/adb", printing({}));
  const home = await runCheck(androidSdkCheck, doctorInputs(t, { ANDROID_HOME: sdk }));
  assert.deepEqual([home.ok, home.detail], [true, `ANDROID_HOME=${sdk} has platform-tools/adb`]);
  const root = await runCheck(androidSdkCheck, doctorInputs(t, { ANDROID_SDK_ROOT: sdk }));
  assert.deepEqual([root.ok, root.detail], [true, `ANDROID_SDK_ROOT=${sdk} has platform-tools/adb`]);
});

test("Android SDK: unset is a miss whose remedy exports an SDK found in the usual place", async (t) => {
  const inputs = doctorInputs(t, {}, { platform: "darwin" });
  const sdk = join(inputs.homeDir, "Library", "Android", "sdk");
  writeProgram(sdk, "platform-tools/adb", printing({}));
  const result = await runCheck(androidSdkCheck, inputs);
  assert.equal(result.ok, false);
  assert.equal(result.detail, "neither ANDROID_HOME nor ANDROID_SDK_ROOT is set (Appium refuses a session without one)");
  assert.match(result.remedy ?? "", new RegExp(`^export ANDROID_HOME=${sdk} \\(an SDK with platform-tools is there\\)`));
});

test("Android SDK: a folder that is not there, or has no platform-tools, is a miss", async (t) => {
  const missing = join(scratch(t), "nope");
  const gone = await runCheck(androidSdkCheck, doctorInputs(t, { ANDROID_HOME: missing }));
  assert.deepEqual([gone.ok, gone.detail], [false, `ANDROID_HOME=${missing}, which is not there`]);
  const bare = scratch(t);
  // macOS with a fresh home: no SDK in the usual place to point at instead
  const empty = await runCheck(androidSdkCheck, doctorInputs(t, { ANDROID_HOME: bare }, { platform: "darwin" }));
  assert.deepEqual([empty.ok, empty.detail], [false, `ANDROID_HOME=${bare} has no platform-tools/adb`]);
  assert.match(empty.remedy ?? "", /Point ANDROID_HOME at an SDK holding platform-tools\/adb/);
});

test("artifacts: --artifacts names a writable folder: ok with its free space; a missing one is not created", async (t) => {
  const dir = scratch(t);
  const there = await runCheck(artifactsCheck, doctorInputs(t, {}, { flags: { artifacts: dir } }));
  assert.equal(there.ok, true, there.detail);
  assert.match(there.detail, new RegExp(`^${dir} \\(set by --artifacts\\): writable, [\\d.]+ [kMGT]B free$`));
  const later = join(dir, "new", "evidence");
  const missing = await runCheck(artifactsCheck, doctorInputs(t, { ANDROID_MCP_ARTIFACTS_DIR: later }));
  assert.equal(missing.ok, true, missing.detail);
  assert.match(missing.detail, /\(set by ANDROID_MCP_ARTIFACTS_DIR, created on first use\): writable/);
  assert.equal(existsSync(join(dir, "new")), false, "doctor created the directory");
});

test("artifacts: without configuration ./artifacts in a project, else the state directory, as serve chooses", async (t) => {
  const home = doctorInputs(t, { XDG_STATE_HOME: "/nonexistent-state" });
  const project = join(home.cwd, "app");
  mkdirSync(project);
  writeFileSync(join(project, ".git"), "gitdir: elsewhere\n"); // a worktree's .git is a file
  const result = await runCheck(artifactsCheck, { ...home, cwd: project });
  assert.equal(result.ok, true, result.detail);
  assert.match(
    result.detail,
    new RegExp(`^${join(project, "artifacts")} \\(\\./artifacts in the project \\(its \\.git\\), created on first use\\)`),
  );
  const inHome = await runCheck(artifactsCheck, home);
  assert.match(inHome.detail, /^\/nonexistent-state\/android-mcp-harness\/artifacts \(the working directory .* is not a project/);
});

test("artifacts: a folder that cannot be made (under a file) is a miss with a directory to use instead", async (t) => {
  const file = join(scratch(t), "a-file");
  writeFileSync(file, "");
  const result = await runCheck(artifactsCheck, doctorInputs(t, {}, { flags: { artifacts: join(file, "artifacts") } }));
  assert.equal(result.ok, false);
  assert.match(result.detail, /The artifacts directory ".*a-file\/artifacts" \(from --artifacts\) cannot be created or written/);
  assert.match(result.remedy ?? "", /export ANDROID_MCP_ARTIFACTS_DIR=/);
});

test("artifacts: less than 100 MB free is a miss", async (t) => {
  const dir = scratch(t);
  const real = createNodeFileProbe();
  const nearlyFull = { ...real, freeBytes: async () => 42_000_000 };
  const result = await runCheck(artifactsCheck, doctorInputs(t, {}, { flags: { artifacts: dir }, files: nearlyFull }));
  assert.equal(result.ok, false);
  assert.match(result.detail, /is writable but only 42\.0 MB is free \(evidence needs at least 100 MB\)/);
});
