/**
 * The direct backend's install decision (issue 24 item 1): the installed server's version read from `dumpsys
 * package` as appium-adb reads it (`Package [NAME] (…):`, `versionCode=`, `versionName=`), and the Appium
 * driver's rule for when to install and when to uninstall the pair first. The `dumpsys package` text below is the
 * block Android prints for one package (no real capture of this command is in ../shared/fixtures/adb; its
 * SOURCES.md lists the package-version outputs as a gap), cut to the lines the parser reads and their neighbours.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { installPlan, parseDumpsysPackage, parsePackageNames, serverState } from "../../src/adapters/uia2_direct/install_state.ts";

const DUMPSYS = [
  "Activity Resolver Table:",
  "  Non-Data Actions:",
  "",
  "Packages:",
  "  Package [io.appium.uiautomator2.server] (5e0a3d8):",
  "    userId=10155",
  "    pkg=Package{9f1c2b1 io.appium.uiautomator2.server}",
  "    codePath=/data/app/~~Yk1YbW==/io.appium.uiautomator2.server-QmY1==",
  "    versionCode=278 minSdk=26 targetSdk=34",
  "    versionName=10.6.6",
  "    flags=[ DEBUGGABLE HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]",
  "",
].join("\n");

test("dumpsys package: installed with its versionCode and versionName; another package's block or none is not installed", () => {
  assert.deepEqual(parseDumpsysPackage(DUMPSYS, "io.appium.uiautomator2.server"), {
    installed: true,
    versionCode: 278,
    versionName: "10.6.6",
  });
  assert.deepEqual(parseDumpsysPackage(DUMPSYS, "io.appium.uiautomator2.server.test"), { installed: false });
  assert.deepEqual(parseDumpsysPackage("", "io.appium.uiautomator2.server"), { installed: false });
  // The filter is a substring: `Package [io.appium.uiautomator2.serverX]` is another package.
  assert.deepEqual(parseDumpsysPackage(DUMPSYS.replace("server]", "serverX]"), "io.appium.uiautomator2.server"), { installed: false });
});

test("pm list packages FILTER: the names listed, CRLF or not", () => {
  const names = parsePackageNames("package:io.appium.uiautomator2.server\r\npackage:io.appium.uiautomator2.server.test\r\n");
  assert.deepEqual([...names], ["io.appium.uiautomator2.server", "io.appium.uiautomator2.server.test"]);
});

test("the server's state against the APK: the code decides, the name when the codes are equal", () => {
  const apk = { code: 278, name: "10.6.6" };
  assert.equal(serverState({ installed: false }, apk), "not_installed");
  assert.equal(serverState({ installed: true, versionCode: 278, versionName: "10.6.6" }, apk), "same");
  assert.equal(serverState({ installed: true, versionCode: 270, versionName: "10.2.0" }, apk), "older");
  assert.equal(serverState({ installed: true, versionCode: 300, versionName: "11.0.0" }, apk), "newer");
  assert.equal(serverState({ installed: true, versionCode: 278, versionName: "10.6.7" }, apk), "newer");
  assert.equal(serverState({ installed: true, versionCode: 278, versionName: "10.6.5" }, apk), "older");
});

test("the driver's rule: install what is missing or older; uninstall the pair first when it is half there or newer", () => {
  assert.deepEqual(installPlan("same", true), { uninstallFirst: false, install: false });
  assert.deepEqual(installPlan("not_installed", false), { uninstallFirst: false, install: true });
  assert.deepEqual(installPlan("older", true), { uninstallFirst: false, install: true });
  assert.deepEqual(installPlan("newer", true), { uninstallFirst: true, install: true });
  assert.deepEqual(installPlan("same", false), { uninstallFirst: true, install: true });
  assert.deepEqual(installPlan("not_installed", true), { uninstallFirst: true, install: true });
});
