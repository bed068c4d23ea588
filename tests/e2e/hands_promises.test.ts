/**
 * Issue 16's hands end to end over real stdio against the simulated device's own UiAutomator2 endpoint:
 * one scripted task per capability on the shop app (tests/support/hands_battery.ts), each arriving where it
 * says with PNG evidence, in one UI session; and a dump's `index` naming the same element in the page source.
 */
import { after, before, test } from "node:test";
import { dumpIndexNamesTheSessionElement, HAND_TASKS, type ShopRun, startShop } from "../support/hands_battery.ts";

let run: ShopRun;

before(async () => {
  run = await startShop((sim) => sim.appiumUrl);
});

after(async () => {
  await run?.close();
});

for (const task of HAND_TASKS) test(task.name, () => task.run(run));

test("an index offered from a uiautomator dump names the same element in the session's page source", () =>
  dumpIndexNamesTheSessionElement((sim) => sim.appiumUrl));
