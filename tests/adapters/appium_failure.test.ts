/**
 * Appium's and webdriverio's real failure texts (Appium 3.8 + UiAutomator2 8.7 and webdriverio 9.33, as
 * recorded in ../shared/notes/test-infrastructure.md) become the closed codes, with a remedy and without
 * the foreign stack or more than one bounded line of the foreign message.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { appiumFailure } from "../../src/adapters/appium/appium_failure.ts";

const URL = "http://127.0.0.1:4723";
const fail = (message: string, name = "WebDriverError") =>
  appiumFailure(Object.assign(new Error(message), { name }), URL, "starting a UiAutomator2 session");

test("nothing listening, in both of webdriverio's wordings, is APPIUM_UNAVAILABLE saying where to start Appium", () => {
  for (
    const text of [
      'Unable to connect to "http://127.0.0.1:4798/", make sure browser driver is running on that address.\nIt seems like the service failed to start or is rejecting any connections.',
      "Failed to fetch [POST] http://127.0.0.1:9/session: please make sure you have a WebDriver compatible server running on http://127.0.0.1:9",
    ]
  ) {
    const e = fail(text, "Error");
    assert.equal(e.code, "APPIUM_UNAVAILABLE");
    assert.match(e.message, /Start Appium 3 .* or set APPIUM_URL/);
  }
});

test("a missing UiAutomator2 driver names the install command; a missing SDK names ANDROID_HOME", () => {
  const driver = fail(
    "Could not find a driver for automationName 'UiAutomator2' and platformName 'Android'. Have you installed a driver that supports those capabilities? Run 'appium driver list --installed' to see. (Lower-level error: Could not find installed driver to support given caps)",
  );
  assert.equal(driver.code, "APPIUM_UNAVAILABLE");
  assert.match(driver.message, /appium driver install uiautomator2/);
  const sdk = fail(
    'Neither ANDROID_HOME nor ANDROID_SDK_ROOT environment variable was exported. Read https://developer.android.com/studio/command-line/variables for more details when running "http://127.0.0.1:4733/session" with method "POST"',
  );
  assert.equal(sdk.code, "APPIUM_UNAVAILABLE");
  assert.match(sdk.message, /ANDROID_HOME/);
});

test("Appium not finding the device is EMULATOR_UNAVAILABLE; a dead session SESSION_NOT_FOUND; an uninstalled app APP_NOT_FOUND", () => {
  assert.equal(
    fail('Could not find a connected Android device in 20000ms when running ".../session" with method "POST"').code,
    "EMULATOR_UNAVAILABLE",
  );
  assert.equal(fail("Device emulator-5554 was not in the list of connected devices when running …").code, "EMULATOR_UNAVAILABLE");
  assert.equal(fail("A session is either terminated or not started", "invalid session id").code, "SESSION_NOT_FOUND");
  assert.equal(
    fail(
      "An unknown server-side error occurred while processing the command. Original error: The application 'com.x' is not installed on the device.",
      "unknown error",
    ).code,
    "APP_NOT_FOUND",
  );
});

test("anything else is APPIUM_UNAVAILABLE quoting one bounded line, never the stack", () => {
  const long = `An unknown server-side error occurred ${
    "x".repeat(2000)
  }\n    at Object.<anonymous> (/usr/lib/node_modules/appium/build/lib/main.js:1:1)`;
  const e = fail(long, "unknown error");
  assert.equal(e.code, "APPIUM_UNAVAILABLE");
  assert.ok(e.message.length < 500, `${e.message.length} characters`);
  assert.doesNotMatch(e.message, /at Object\.<anonymous>|main\.js/);
  assert.equal(e.details?.["w3c_error"], "unknown error");
});

test("a deep link nothing handles (the driver's startUri failure) and a failed pm clear are APP_NOT_FOUND; a refused argument INVALID_ARGUMENT", () => {
  const opening = (message: string, name = "unknown error") =>
    appiumFailure(Object.assign(new Error(message), { name }), URL, "opening a link");
  const link = opening(
    "An unknown server-side error occurred while processing the command. Original error: Error attempting to start URI. " +
      "Original error: Starting: Intent { act=android.intent.action.VIEW dat=nothing://here/1 }\n" +
      "Error: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW dat=nothing://here/1 flg=0x10000000 }",
  );
  assert.equal(link.code, "APP_NOT_FOUND");
  assert.match(link.message, /Nothing on the device handles the link while opening a link \(Android could not resolve its VIEW intent\)/);
  assert.doesNotMatch(link.message, /nothing:\/\/|dat=|\n/, "the intent's data (a userinfo, a query) is not quoted");
  const clear = opening(
    "An unknown server-side error occurred while processing the command. Original error: Error executing adbExec. " +
      "Original error: 'Command 'adb shell pm clear com.example.absent' exited with code 1'; Command output: Failed",
  );
  assert.equal(clear.code, "APP_NOT_FOUND");
  const refused = opening(
    'The following required parameter is missing: ["percent"]\nKnown required parameters are: ["direction","percent"]',
    "invalid argument",
  );
  assert.equal(refused.code, "INVALID_ARGUMENT");
  assert.match(refused.message, /refused the arguments while opening a link: The following required parameter is missing/);
});
