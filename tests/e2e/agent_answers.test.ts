/**
 * What an agent reads, where it had to guess (issue 27), through `serve` over real stdio on the simulated device's
 * `shop` scenario: a scroll at the end of a list that moved nothing says so (`scrolled: false` beside
 * `at_end: true`), a selector sent as a string is answered with the object to send, and a lookup whose words are on
 * the screen under another key answers at once (no second page source read), naming that selector.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startSimDevice } from "../../src/sim/mod.ts";
import { type BatteryTarget, callTool, type Served, serveOn } from "../support/act_battery.ts";

let target: BatteryTarget;
let served: Served;

before(async () => {
  const sim = await startSimDevice({ scenario: "shop" });
  target = { sim, appiumUrl: sim.appiumUrl };
  served = await serveOn(target);
});

after(async () => {
  await served?.close();
  served?.home.remove();
  await target?.sim.stop();
});

const call = (name: string, args: Record<string, unknown> = {}) => callTool(served.server, name, args);

test("a lookup whose words are on the screen under another key answers at once, naming that selector", async () => {
  // The product row's photo is known by its content-desc; the agent tries it as a text.
  const log = target.sim.device.log;
  const from = log.length;
  const missed = await call("ui_tap", { selector: { text: "Rain jacket photo" } });
  assert.equal(missed.error?.code, "UI_ELEMENT_NOT_FOUND", JSON.stringify(missed));
  assert.match(missed.error!.message, /\{"content_desc":"Rain jacket photo"\} names one\./);
  const reads = log.slice(from).filter((e) => e.command.startsWith("get page source")).length;
  assert.equal(reads, 1, "the screen before the act, and no second look: the answer did not wait for the element");
});

test("ui_scroll at the end of a list that moved nothing answers scrolled: false beside at_end: true and changed: false", async () => {
  let last: Awaited<ReturnType<typeof call>> | undefined;
  for (let i = 0; i < 6 && last?.data["at_end"] !== true; i++) {
    last = await call("ui_scroll", { direction: "down" });
    assert.equal(last.ok, true, JSON.stringify(last.error));
  }
  assert.equal(last?.data["at_end"], true, "the product list has an end");
  const again = await call("ui_scroll", { direction: "down" });
  assert.equal(again.ok, true, JSON.stringify(again.error));
  assert.deepEqual([again.data["scrolled"], again.data["at_end"], again.data["changed"]], [false, true, false], JSON.stringify(again.data));
  const back = await call("ui_scroll", { direction: "up" });
  assert.deepEqual([back.data["scrolled"], back.data["changed"]], [true, true], "it still scrolls back");
});

test("a selector sent as a string is INVALID_SELECTOR with the object to send", async () => {
  const tapped = await call("ui_tap", { selector: "Rain jacket" });
  assert.equal(tapped.error?.code, "INVALID_SELECTOR");
  assert.match(tapped.error!.message, /not a string: send \{"text":"Rain jacket"\}/);
});
