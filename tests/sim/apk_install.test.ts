/**
 * The simulated package manager given an APK (a streamed install ends in ScenarioDevice.installApk): what its own
 * manifest says is installed, launchable as on a device (a LAUNCHER activity, or an app APK with no activity at
 * all opens on a placeholder showing its label, else its package name); the UiAutomator2 server and its
 * instrumentation stay unlaunchable; an uninstall takes the app's screens and data with it.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { packagedServerApks } from "../../src/adapters/uia2_direct/server_package.ts";
import { resolveScenario, ScenarioDevice } from "../../src/sim/mod.ts";
import { buildApk } from "../support/apk_builder.ts";

const device = () => new ScenarioDevice(resolveScenario("settings"));

test("an app APK is installed launchable: its launcher activity, its label on the placeholder screen", () => {
  const d = device();
  const manifest = d.installApk(
    buildApk({ package: "com.example.hello", versionCode: 7, versionName: "1.2.3", label: "Hello", launcherActivity: ".Main" }),
  );
  assert.equal(manifest?.packageName, "com.example.hello");
  assert.deepEqual(d.packageVersion("com.example.hello"), { code: 7, name: "1.2.3" });
  assert.equal(d.launchActivity("com.example.hello"), "com.example.hello/.Main");
  assert.equal(d.launch("com.example.hello"), true);
  assert.equal(d.foregroundPackage(), "com.example.hello");
  assert.match(d.hierarchyXml(), /text="Hello"/);
});

test("an app APK without label or activity opens on a placeholder titled with its package name", () => {
  const d = device();
  d.installApk(buildApk({ package: "com.example.bare" }));
  assert.equal(d.launch("com.example.bare"), true);
  assert.match(d.hierarchyXml(), /text="com\.example\.bare"/);
});

test("activities without a launcher, the UiAutomator2 server and its instrumentation are installed but not launchable", () => {
  const d = device();
  d.installApk(buildApk({ package: "com.example.service", activities: [".Settings"] }));
  const apks = packagedServerApks();
  d.installApk(readFileSync(apks.server));
  d.installApk(readFileSync(apks.test));
  for (const name of ["com.example.service", "io.appium.uiautomator2.server", "io.appium.uiautomator2.server.test"]) {
    assert.ok(d.installedPackages().some((p) => p.name === name), name);
    assert.equal(d.launchActivity(name), null, name);
  }
  assert.deepEqual(d.packageVersion("io.appium.uiautomator2.server"), { code: 278, name: "10.6.6" });
});

test("uninstalling the app in front takes its screens with it; a reinstall under another label shows the new one", () => {
  const d = device();
  d.installApk(buildApk({ package: "com.example.hello", label: "Hello" }));
  d.launch("com.example.hello");
  assert.equal(d.removePackage("com.example.hello"), true);
  assert.notEqual(d.foregroundPackage(), "com.example.hello");
  assert.equal(d.removePackage("com.example.hello"), false, "a second uninstall finds nothing");
  d.installApk(buildApk({ package: "com.example.hello", label: "Hello again" }));
  d.launch("com.example.hello");
  assert.match(d.hierarchyXml(), /text="Hello again"/);
});

test("bytes that are no APK install nothing", () => {
  const d = device();
  const before = d.installedPackages().length;
  assert.equal(d.installApk(new Uint8Array(300)), null);
  assert.equal(d.installedPackages().length, before);
});
