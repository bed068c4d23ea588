/**
 * The act tools' battery once more through the REAL stack (issue 7): `serve` over real stdio → webdriverio
 * → the real Appium 3.8 server + UiAutomator2 driver 8.7 → the real adb client → the simulated device.
 * Not gated: CI has adb and Appium (devDependencies). Appium is started on a free port and stopped by PID.
 * Issue 16's hands battery (tests/support/hands_battery.ts) runs here too, unchanged, through the real driver.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startSimDevice } from "../../src/sim/mod.ts";
import {
  appiumSessions,
  type BatteryTarget,
  callTool,
  navigationArrivesWithEvidence,
  noSessionLeftBehind,
  type Served,
  serveOn,
  sigtermDeletesTheSession,
} from "../support/act_battery.ts";
import { type RunningAppium, startAppium } from "../support/appium.ts";
import { dumpIndexNamesTheSessionElement, HAND_TASKS, type ShopRun, startShop } from "../support/hands_battery.ts";

let appium: RunningAppium;
let target: BatteryTarget;
let served: Served;
/** Opened by the first hands task (after the tests above: a new session on the same serial ends the one before). */
let shop: ShopRun | undefined;

before(async () => {
  appium = await startAppium();
  const sim = await startSimDevice({});
  target = { sim, appiumUrl: appium.url };
  served = await serveOn(target);
});

after(async () => {
  await shop?.close();
  await served?.close();
  served?.home.remove();
  await target?.sim.stop();
  await appium?.stop();
});

/** Appium's last lines on a failure: the real driver's reason is there. */
async function withAppiumLog(promise: () => Promise<void>): Promise<void> {
  try {
    await promise();
  } catch (error) {
    const tail = appium.output().split("\n").slice(-30).join("\n");
    throw new Error(`${(error as Error).message}\n--- last Appium output ---\n${tail}`);
  }
}

test("through real Appium: navigation arrives where it says, leaves a PNG, and returns the new screen", () =>
  withAppiumLog(() => navigationArrivesWithEvidence(target, served)));

test("through real Appium: a batch of successes and failures leaves no Appium session behind (R20)", () =>
  withAppiumLog(() => noSessionLeftBehind(target, served)));

test("through real Appium: typing non-ASCII text replaces the field's content; the keyboard is hidden for a covered tab", () =>
  withAppiumLog(async () => {
    const sim = await startSimDevice({ scenario: "login" });
    const login = await serveOn({ sim, appiumUrl: appium.url });
    try {
      const typed = await callTool(login.server, "ui_type_text", {
        selector: { resource_id: "com.example.shop:id/email" },
        text: "שלום 你好 👋",
      });
      assert.equal(typed.ok, true, JSON.stringify(typed.error));
      assert.match(sim.device.hierarchyXml(), /text="שלום 你好 👋"/);
      assert.equal(typed.data["typed_length"], 9, "code points, not UTF-16 units");
      assert.equal(sim.device.keyboard().open, true);
      const tab = await callTool(login.server, "ui_tap", { selector: { resource_id: "com.example.shop:id/tab_home" } });
      assert.equal(tab.ok, true, JSON.stringify(tab.error));
      assert.equal(sim.device.keyboard().open, false);
    } finally {
      await login.close();
      login.home.remove();
      await sim.stop();
    }
  }));

test("through real Appium: SIGTERM during an open session deletes it", () => withAppiumLog(() => sigtermDeletesTheSession(target)));

// Issue 16's hands, each one UiAutomator2 mobile: command sent by the real driver, in one session on the shop.
for (const task of HAND_TASKS) {
  test(`through real Appium: ${task.name}`, () => withAppiumLog(async () => task.run(shop ??= await startShop(() => appium.url))));
}

test("through real Appium: closing the shop's session leaves Appium with the sessions it had", async () => {
  await shop?.close();
  shop = undefined;
  assert.deepEqual(await appiumSessions(appium.url), []);
});

test("through real Appium: an index offered from a uiautomator dump names the same element in the session's page source", () =>
  withAppiumLog(() => dumpIndexNamesTheSessionElement(() => appium.url)));

test("through real Appium: the sessions list ends as it began", async () => {
  assert.deepEqual(await appiumSessions(appium.url), []);
});
