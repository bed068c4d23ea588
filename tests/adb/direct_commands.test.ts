/**
 * The direct backend's adb commands (issue 24): each built from validated values; the one free-form value that
 * reaches a device shell line (a deep link's URL) is one quoted word (shellWord: tests/adb/shell_word.test.ts
 * checks it against a real shell).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ADB_COMMANDS } from "../../src/adapters/adb/adb_commands.ts";
import { INSTRUMENTATION } from "../../src/adapters/uia2_direct/server_package.ts";

test("the deep link, instrumentation, install and forward commands: fixed words, validated values", () => {
  assert.deepEqual(ADB_COMMANDS.startView("shop://item/7?x='1'", "com.example.shop").args, [
    "shell",
    "am",
    "start",
    "-W",
    "-a",
    "android.intent.action.VIEW",
    "-d",
    `'shop://item/7?x='\\''1'\\'''`,
    "com.example.shop",
  ]);
  assert.throws(() => ADB_COMMANDS.startView("https://x", "com.x; reboot"), (e: Error & { code?: string }) => e.code === "INVALID_PACKAGE");
  assert.deepEqual(ADB_COMMANDS.instrument(INSTRUMENTATION).args, [
    "shell",
    "am",
    "instrument",
    "-w",
    "-e",
    "disableAnalytics",
    "true",
    "io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner",
  ]);
  assert.deepEqual(ADB_COMMANDS.install("/opt/h/apks/server.apk").args, ["install", "-r", "/opt/h/apks/server.apk"]);
  assert.throws(() => ADB_COMMANDS.install("relative.apk"));
  assert.throws(() => ADB_COMMANDS.install("/x/not-an-apk.zip"));
  assert.deepEqual(ADB_COMMANDS.forwardFreePort(6790).args, ["forward", "tcp:0", "tcp:6790"]);
  assert.throws(() => ADB_COMMANDS.forwardRemove(70000), (e: Error & { code?: string }) => e.code === "INVALID_ARGUMENT");
  assert.throws(() => ADB_COMMANDS.keyevent(-1));
});
