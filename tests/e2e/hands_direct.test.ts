/**
 * Issue 16's hands end to end over real stdio through the direct backend (issue 24 item 1): no APPIUM_URL, the
 * harness installs and starts the simulated device's UiAutomator2 server itself over adb and drives it with
 * webdriverio, its own server routes and its fixed adb commands. The same scripted tasks as through the
 * simulated endpoint and the real Appium 3.8 (tests/support/hands_battery.ts), each arriving with evidence.
 */
import { after, before, test } from "node:test";
import { dumpIndexNamesTheSessionElement, HAND_TASKS, type ShopRun, startShop } from "../support/hands_battery.ts";

let run: ShopRun;

before(async () => {
  run = await startShop(() => null);
});

after(async () => {
  await run?.close();
});

for (const task of HAND_TASKS) test(`direct: ${task.name}`, () => task.run(run));

test("direct: an index offered from a uiautomator dump names the same element in the session's page source", () =>
  dumpIndexNamesTheSessionElement(() => null));
