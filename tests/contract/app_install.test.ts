/**
 * Contract tests of app_install and app_uninstall: the real MCP server over the in-memory transport, the real tools,
 * the product's APK check and copy (src/adapters/apk/apk_file.ts) and the simulated device's package manager given
 * the copy (act_world.ts). An APK built in the test is installed, listed, launched, replaced and uninstalled; bad
 * paths and unknown packages are typed errors before any UI session.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import { packagedServerApks } from "../../src/adapters/uia2_direct/server_package.ts";
import { callEnvelope as call, deviceScreen, evidenceRef, withActServer } from "../support/act_calls.ts";
import { actWorld } from "../support/act_world.ts";
import { buildApk } from "../support/apk_builder.ts";
import { operationId } from "../support/mcp_fakes.ts";

/**
 * A folder of the test's own, which is also the system temporary folder while the test runs (TMPDIR: os.tmpdir() reads
 * it on every call), so the private APK copies counted are this test's alone, not those of another test file or another
 * checkout's run installing at the same moment (a shared /tmp made the count flaky under load).
 */
function withFolder(body: (dir: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), "app-install-"));
    const tmp = process.env["TMPDIR"];
    process.env["TMPDIR"] = dir;
    try {
      await body(dir);
    } finally {
      if (tmp === undefined) delete process.env["TMPDIR"];
      else process.env["TMPDIR"] = tmp;
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** The APK is read from real files: the world runs on the system clock (a virtual one would jump past the reads). */
const realTimeWorld = () => actWorld({ clock: createSystemClock() });

const apkCopies = () => readdirSync(tmpdir()).filter((name) => name.startsWith("android-mcp-apk-"));

test(
  "app_install installs an APK built in the test, naming its package and version; app_list lists it, app_launch opens it, " +
    "app_uninstall removes it",
  withFolder(async (dir) => {
    const path = join(dir, "hello.apk");
    writeFileSync(path, buildApk({ package: "com.example.hello", versionCode: 7, versionName: "1.2.3", label: "Hello World" }));
    const world = realTimeWorld();
    const copiesBefore = apkCopies().length;
    await withActServer(world, async (c) => {
      const installed = await call(c, "app_install", { path });
      assert.deepEqual(installed, {
        ok: true,
        operation_id: operationId(1),
        tool: "app_install",
        data: {
          foreground_package: "com.android.settings",
          settled: true,
          changed: false,
          package: "com.example.hello",
          version_name: "1.2.3",
          version_code: 7,
          replaced: false,
          screen: deviceScreen(world),
        },
        evidence: evidenceRef(1, "app_install"),
        error: null,
      });
      assert.equal(apkCopies().length, copiesBefore, "the private copy is removed after the install");
      const listed = await call(c, "app_list", { filter: "hello" });
      assert.deepEqual(listed.data["packages"], ["com.example.hello"]);
      const launched = await call(c, "app_launch", { package: "com.example.hello" });
      assert.equal(launched.ok, true, JSON.stringify(launched.error));
      assert.equal(launched.data["foreground_package"], "com.example.hello");
      assert.match(JSON.stringify(launched.data["screen"]), /Hello World/, "the placeholder shows the manifest's label");
      const again = await call(c, "app_install", { path });
      assert.equal(again.data["replaced"], true, "a second install replaces the first");
      const refused = await call(c, "app_install", { path, replace: false });
      assert.equal(refused.error?.code, "INVALID_ARGUMENT");
      assert.match(refused.error!.message, /com\.example\.hello is already installed and replace is false: .*app_uninstall/);
      const removed = await call(c, "app_uninstall", { package: "com.example.hello" });
      assert.equal(removed.ok, true, JSON.stringify(removed.error));
      assert.equal(removed.data["package"], "com.example.hello");
      assert.notEqual(removed.data["foreground_package"], "com.example.hello", "its screens went with it");
      assert.equal(removed.data["changed"], true);
      assert.deepEqual((await call(c, "app_list", { filter: "hello" })).data["packages"], []);
    });
    assert.equal(world.lock.held.size, 0);
  }),
);

test("app_uninstall of a package not installed is APP_NOT_FOUND naming app_list; the harness's helpers are refused both ways", async () => {
  const world = realTimeWorld();
  await withActServer(world, async (c) => {
    const envelope = await call(c, "app_uninstall", { package: "com.example.nothere" });
    assert.equal(envelope.error?.code, "APP_NOT_FOUND");
    assert.match(envelope.error!.message, /"com\.example\.nothere" is not installed on the device\. Check the name with app_list\./);
    assert.deepEqual(world.calls, [], "no UI session was opened");
    const helper = await call(c, "app_uninstall", { package: "io.appium.uiautomator2.server" });
    assert.equal(helper.error?.code, "INVALID_PACKAGE", "the harness's own helpers are refused");
    const server = await call(c, "app_install", { path: packagedServerApks().server });
    assert.equal(server.error?.code, "INVALID_PACKAGE", "nor is one of them replaced");
    assert.match(server.error!.message, /is io\.appium\.uiautomator2\.server, a helper the harness acts through/);
  });
});

test(
  "app_install refuses a missing, relative, directory, FIFO, non-APK or manifest-less path with INVALID_ARGUMENT saying what to do, " +
    "before any UI session",
  withFolder(async (dir) => {
    const text = join(dir, "notes.apk");
    writeFileSync(text, "not a zip\n");
    const noManifest = join(dir, "empty.apk");
    const { zip } = await import("../support/apk_builder.ts");
    writeFileSync(noManifest, zip([{ name: "classes.dex", data: new Uint8Array(8) }]));
    const fifo = join(dir, "pipe.apk");
    const { execFileSync } = await import("node:child_process");
    execFileSync("mkfifo", [fifo]);
    const world = realTimeWorld();
    await withActServer(world, async (c) => {
      const cases: [string, RegExp][] = [
        [join(dir, "missing.apk"), /does not exist on the machine the harness runs on: check the path/],
        ["app-debug.apk", /is not an absolute path: give the APK's full path/],
        [dir, /is a directory: give the path of an \.apk file/],
        [fifo, /is a FIFO \(named pipe\): give the path of an \.apk file/],
        [text, /is not an APK: it is not a zip file\. Give the path of the \.apk file your build made/],
        [noManifest, /is not an APK: its zip holds no AndroidManifest\.xml\. Give the path/],
      ];
      for (const [path, message] of cases) {
        const envelope = await call(c, "app_install", { path });
        assert.equal(envelope.error?.code, "INVALID_ARGUMENT", path);
        assert.match(envelope.error!.message, message);
      }
    });
    assert.deepEqual(world.calls, [], "no UI session was opened");
  }),
);
