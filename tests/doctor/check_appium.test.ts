/**
 * Checks 6 (Appium reachable) and 7 (UiAutomator2 driver) against the REAL Appium 3.8 started from the
 * project's node_modules (the driver as a devDependency, APPIUM_HOME unset): ready with its version, and
 * the driver found by the real `appium driver list --installed --json`. Also: a closed port (a miss at
 * once; the local driver list still answers), a server that never answers, something that is not
 * WebDriver, not ready, the simulated device's UiAutomator2 endpoint, a Selenium Grid, a remote Appium,
 * and fake `appium` programs without the driver or hanging.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { assertEndedByDeadline } from "../support/time_bounds.ts";
import { classifyStatus } from "../../src/doctor/appium_status.ts";
import { appiumCheck } from "../../src/doctor/check_appium.ts";
import { uiautomator2Check } from "../../src/doctor/check_uiautomator2.ts";
import type { HttpClient } from "../../src/ports/http_client.ts";
import { type RunningSim, startSimDevice } from "../../src/sim/mod.ts";
import { type RunningAppium, startAppium } from "../support/appium.ts";
import { HANGING, printing, programDir, writeProgram } from "../support/fake_programs.ts";
import { freePort } from "../support/outcomes.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { doctorInputs, runCheck } from "./doctor_inputs.ts";
import { httpServer, tcpServer } from "./tcp_servers.ts";

let appium: RunningAppium | undefined;
let sim: RunningSim | undefined;
before(async () => {
  [appium, sim] = await Promise.all([startAppium(), startSimDevice({})]);
});
after(async () => {
  await Promise.all([appium?.stop(), sim?.stop()]);
});

/** node must stay reachable for the appium script's `#!/usr/bin/env node`; APPIUM_HOME stays unset. */
const PATH = process.env["PATH"] ?? "";
const ESPRESSO_ONLY = JSON.stringify({
  espresso: { automationName: "Espresso", platformNames: ["Android"], version: "4.0.0", installed: true },
});

const GRID_STATUS = (automationName: string) =>
  JSON.stringify({
    value: {
      ready: true,
      message: "Selenium Grid ready.",
      nodes: [{
        id: "n1",
        uri: "http://10.0.0.7:5555",
        version: "4.48.0 (revision 1)",
        availability: "UP",
        slots: [{
          id: { hostId: "n1", id: "s1" },
          session: null,
          stereotype: { platformName: "Android", "appium:automationName": automationName },
        }],
      }],
    },
  });

function answering(body: string): HttpClient {
  return { get: async () => ({ kind: "response", status: 200, body, durationMs: 1 }) };
}

test("real Appium 3.8: reachable and ready with its version; the real driver list finds uiautomator2 8.7.0", async (t) => {
  const inputs = doctorInputs(t, { PATH, APPIUM_URL: appium!.url }, { cwd: REPO_ROOT });
  const [reach, driver] = await Promise.all([runCheck(appiumCheck, inputs), runCheck(uiautomator2Check, inputs, 15_000)]);
  assert.equal(reach.ok, true, reach.detail);
  assert.equal(reach.detail, `${appium!.url} ready: Appium 3.8.0`);
  assert.equal(driver.ok, true, driver.detail);
  assert.match(driver.detail, /^uiautomator2 8\.7\.0 installed \(appium driver list of .*node_modules\/\.bin\/appium\)$/);
});

test("a closed port: Appium is a miss at once with the command to start it; the local driver list still answers", async (t) => {
  const url = `http://127.0.0.1:${await freePort()}`;
  const inputs = doctorInputs(t, { PATH, APPIUM_URL: url, ANDROID_HOME: "/usr/lib/android-sdk" }, { cwd: REPO_ROOT });
  const reach = await runCheck(appiumCheck, inputs);
  assert.equal(reach.ok, false);
  assert.equal(reach.detail, `nothing answers at ${url} (connection refused)`);
  assertEndedByDeadline(reach.tookMs, 0, "a refused connection (not the 5 s timeout: the detail says refused)");
  assert.match(
    reach.remedy ?? "",
    new RegExp(`appium driver install uiautomator2 && ANDROID_HOME=\\S+ appium --address 127\\.0\\.0\\.1 --port ${new URL(url).port}`),
  );
  const driver = await runCheck(uiautomator2Check, inputs, 15_000);
  assert.equal(driver.ok, true, driver.detail);
  assert.match(driver.detail, /uiautomator2 8\.7\.0 installed .*; Appium does not answer yet \(see Appium\)$/);
});

test("a server that never answers is a miss within the timeout", async (t) => {
  const silent = await tcpServer(t, null);
  const result = await runCheck(appiumCheck, doctorInputs(t, { APPIUM_URL: `http://127.0.0.1:${silent.port}` }), 1000);
  assert.equal(result.ok, false);
  assert.equal(result.detail, `http://127.0.0.1:${silent.port}/status did not answer within 1 s`);
  assertEndedByDeadline(result.tookMs, 1000, "the Appium check");
});

test("something that is not WebDriver, and an Appium that is not ready, are misses", async (t) => {
  const web = await httpServer(t, 404, "not found");
  const notWebDriver = await runCheck(appiumCheck, doctorInputs(t, { APPIUM_URL: web }));
  assert.equal(notWebDriver.ok, false);
  assert.equal(notWebDriver.detail, `${web}/status answered HTTP 404 (not found), not a WebDriver status`);
  const starting = await httpServer(
    t,
    200,
    JSON.stringify({ value: { ready: false, message: "The server is shutting down", build: { version: "3.8.0" } } }),
  );
  const notReady = await runCheck(appiumCheck, doctorInputs(t, { APPIUM_URL: starting }));
  assert.deepEqual([notReady.ok, notReady.detail], [false, `${starting} answers but is not ready: The server is shutting down`]);
  const ancient = await httpServer(t, 200, JSON.stringify({ value: { build: { version: "1.22.3" } }, status: 0 }));
  const appium1 = await runCheck(appiumCheck, doctorInputs(t, { APPIUM_URL: ancient }));
  assert.deepEqual([appium1.ok, appium1.detail], [
    false,
    `${ancient} is Appium 1.22.3, which is end-of-life and has no UiAutomator2 driver 8`,
  ]);
});

test("--device sim: the simulated device's UiAutomator2 server is the endpoint, and no driver is needed", async (t) => {
  const inputs = doctorInputs(t, { APPIUM_URL: sim!.appiumUrl }, { simulated: { serial: sim!.device.serial } });
  const reach = await runCheck(appiumCheck, inputs);
  assert.deepEqual([reach.ok, reach.detail], [
    true,
    `${sim!.appiumUrl} ready: the simulated device's UiAutomator2 server (with --device sim it is the Appium endpoint)`,
  ]);
  const driver = await runCheck(uiautomator2Check, inputs);
  assert.deepEqual([driver.ok, driver.detail], [true, "not needed: the endpoint is the simulated device's own UiAutomator2 server"]);
});

test("a Selenium Grid: ready with its node version; the driver is there when a node offers UiAutomator2", async (t) => {
  assert.deepEqual(classifyStatus(200, GRID_STATUS("UiAutomator2")), {
    kind: "grid",
    ready: true,
    version: "4.48.0 (revision 1)",
    message: "Selenium Grid ready.",
    nodes: 1,
    automationNames: ["UiAutomator2"],
  });
  const url = "http://grid.example:4444";
  const reach = await runCheck(appiumCheck, doctorInputs(t, { APPIUM_URL: url }, { http: answering(GRID_STATUS("UiAutomator2")) }));
  assert.deepEqual([reach.ok, reach.detail], [true, `${url} ready: Selenium Grid 4.48.0 (revision 1) with 1 node`]);
  const offered = await runCheck(uiautomator2Check, doctorInputs(t, { APPIUM_URL: url }, { http: answering(GRID_STATUS("UiAutomator2")) }));
  assert.equal(offered.ok, true);
  const other = await runCheck(uiautomator2Check, doctorInputs(t, { APPIUM_URL: url }, { http: answering(GRID_STATUS("XCUITest")) }));
  assert.deepEqual([other.ok, other.detail], [false, "no Grid node offers UiAutomator2 (offered: XCUITest)"]);
});

test("a remote Appium cannot be asked for its drivers: a miss saying what to run on its host", async (t) => {
  const status = JSON.stringify({
    value: { ready: true, message: "The server is ready to accept new connections", build: { version: "3.8.0" } },
  });
  const result = await runCheck(uiautomator2Check, doctorInputs(t, { APPIUM_URL: "http://10.0.0.5:4723" }, { http: answering(status) }));
  assert.equal(result.ok, false);
  assert.equal(result.detail, "cannot confirm: http://10.0.0.5:4723 is not on this machine and Appium's /status does not list its drivers");
  assert.match(result.remedy ?? "", /On the Appium host run: appium driver list --installed/);
});

test("an appium without the uiautomator2 driver, one that hangs, and none at all are misses", async (t) => {
  const closed = `http://127.0.0.1:${await freePort()}`;
  const withEspresso = programDir(t);
  writeProgram(withEspresso, "appium", printing({ stdout: ESPRESSO_ONLY }));
  const missing = await runCheck(uiautomator2Check, doctorInputs(t, { PATH: withEspresso, APPIUM_URL: closed }));
  assert.equal(missing.ok, false);
  assert.match(missing.detail, /has no uiautomator2 driver \(installed: espresso\); Appium does not answer yet/);
  assert.match(missing.remedy ?? "", /^appium driver install uiautomator2/);

  const hanging = programDir(t);
  writeProgram(hanging, "appium", HANGING);
  const hung = await runCheck(uiautomator2Check, doctorInputs(t, { PATH: hanging, APPIUM_URL: closed }), 1000);
  assert.equal(hung.ok, false);
  assert.match(hung.detail, /appium driver list --installed --json` did not answer within 1 s and was stopped/);
  assertEndedByDeadline(hung.tookMs, 1000, "the driver check");

  const none = await runCheck(uiautomator2Check, doctorInputs(t, { PATH: programDir(t), APPIUM_URL: closed }));
  assert.equal(none.ok, false);
  assert.match(none.detail, /^no appium command is here to list the installed drivers/);
});
