/**
 * The direct backend's adb commands (issue 24): each built from validated values, and the one free-form value
 * that reaches a device shell line (a deep link's URL) single-quoted so that the device's shell gives it back
 * as one word, whatever it holds. Checked against a real POSIX shell (`sh -c`, as adb's joined line is split on
 * the device by mksh, whose quoting rules for '…' are the same).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { ADB_COMMANDS, shellQuote } from "../../src/adapters/adb/adb_commands.ts";
import { INSTRUMENTATION } from "../../src/adapters/uia2_direct/server_package.ts";

const HOSTILE = [
  "https://example.com/a?b=1&c=2",
  "myapp://x/'; rm -rf /data; echo '",
  "a b\tc",
  "$(reboot)`id`${HOME}",
  "quote'in'side",
  "back\\slash*?[x]",
  "",
  "'",
];

test("shellQuote: a shell gives each value back whole, as one word", () => {
  for (const value of HOSTILE) {
    const run = spawnSync("sh", ["-c", `printf '%s|' ${shellQuote(value)}`], { encoding: "utf8" });
    assert.equal(run.stdout, `${value}|`, value);
  }
});

test("shellQuote refuses a line break or NUL with INVALID_ARGUMENT (a device shell line ends there)", () => {
  for (const value of ["a\nreboot", "a\rb", "a\0b"]) {
    assert.throws(() => shellQuote(value), (e: Error & { code?: string }) => e.code === "INVALID_ARGUMENT");
  }
});

test("the deep link, instrumentation, install and forward commands: fixed words, validated values", () => {
  assert.deepEqual(ADB_COMMANDS.viewLink("shop://item/7?x='1'", "com.example.shop").args, [
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
  assert.throws(() => ADB_COMMANDS.viewLink("https://x", "com.x; reboot"), (e: Error & { code?: string }) => e.code === "INVALID_PACKAGE");
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
