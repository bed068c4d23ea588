/**
 * The build under test installed end to end (issue 26): the SDK client spawns the compiled `serve --device sim`,
 * an APK built in the test (a minimal zip with a binary AndroidManifest.xml, tests/support/apk_builder.ts) goes
 * through the real `adb install` to the simulated package manager, which lists it, launches it on a placeholder
 * screen with the manifest's label, and uninstalls it. Bad paths and an unknown package are typed errors that say
 * what to do, and the server keeps serving.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { buildApk, zip } from "../support/apk_builder.ts";
import { envelopeOf, type SpawnedServer, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";

let home: ServeHome;
let served: SpawnedServer;
let dir: string;

before(async () => {
  home = makeServeHome();
  dir = mkdtempSync(join(tmpdir(), "app-install-e2e-"));
  served = await spawnServe(["--device", "sim"], home.env);
});

after(async () => {
  await served?.close();
  home?.remove();
  rmSync(dir, { recursive: true, force: true });
});

const call = async (name: string, args: Record<string, unknown>) => envelopeOf(await served.client.callTool({ name, arguments: args }));

test("an APK built in the test is installed, listed, launched on a placeholder and uninstalled through serve --device sim", async () => {
  const path = join(dir, "app-debug.apk");
  writeFileSync(
    path,
    buildApk({
      package: "com.example.buildundertest",
      versionCode: 42,
      versionName: "4.2.0",
      label: "Build Under Test",
      launcherActivity: ".Main",
    }),
  );
  const installed = await call("app_install", { path });
  assert.equal(installed.ok, true, JSON.stringify(installed.error));
  assert.equal(installed.data["package"], "com.example.buildundertest");
  assert.equal(installed.data["version_name"], "4.2.0");
  assert.equal(installed.data["version_code"], 42);
  assert.equal(installed.data["replaced"], false);
  assert.notEqual(installed.evidence, null, "an act's evidence");
  assert.deepEqual((await call("app_list", { filter: "buildundertest" })).data["packages"], ["com.example.buildundertest"]);
  const launched = await call("app_launch", { package: "com.example.buildundertest" });
  assert.equal(launched.ok, true, JSON.stringify(launched.error));
  assert.equal(launched.data["foreground_package"], "com.example.buildundertest");
  assert.match(JSON.stringify(launched.data["screen"]), /Build Under Test/);
  const replaced = await call("app_install", { path });
  assert.equal(replaced.data["replaced"], true, JSON.stringify(replaced.error));
  const removed = await call("app_uninstall", { package: "com.example.buildundertest" });
  assert.equal(removed.ok, true, JSON.stringify(removed.error));
  assert.notEqual(removed.data["foreground_package"], "com.example.buildundertest");
  assert.deepEqual((await call("app_list", { filter: "buildundertest" })).data["packages"], []);
  const again = await call("app_uninstall", { package: "com.example.buildundertest" });
  assert.equal(again.error?.code, "APP_NOT_FOUND");
  assert.match(again.error!.message, /Check the name with app_list/);
});

test("a missing, huge, non-APK, FIFO or directory path is INVALID_ARGUMENT saying what to do, and the server keeps serving", async () => {
  const text = join(dir, "readme.apk");
  writeFileSync(text, "# not an APK\n");
  const noManifest = join(dir, "assets.apk");
  writeFileSync(noManifest, zip([{ name: "assets/a.txt", data: new TextEncoder().encode("a") }]));
  const huge = join(dir, "huge.apk");
  writeFileSync(huge, "");
  truncateSync(huge, 1024 * 1024 * 1024 + 1);
  const fifo = join(dir, "pipe.apk");
  execFileSync("mkfifo", [fifo]);
  const cases: [string, RegExp][] = [
    [join(dir, "gone.apk"), /does not exist on the machine the harness runs on: check the path/],
    [huge, /is 1073741825 bytes: an APK for app_install is at most 1024 MiB/],
    [text, /is not an APK: it is not a zip file/],
    [noManifest, /is not an APK: its zip holds no AndroidManifest\.xml/],
    [fifo, /is a FIFO \(named pipe\): give the path of an \.apk file/],
    [dir, /is a directory: give the path of an \.apk file/],
  ];
  for (const [path, message] of cases) {
    const envelope = await call("app_install", { path });
    assert.equal(envelope.error?.code, "INVALID_ARGUMENT", path);
    assert.match(envelope.error!.message, message);
  }
  assert.equal((await call("device_status", {})).ok, true, "the server still serves");
});
