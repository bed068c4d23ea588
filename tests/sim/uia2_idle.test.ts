/**
 * UiAutomator2's idle wait in the simulated device (src/sim/uia2/idle.ts): the device says how long until its UI
 * has been quiet for 500 ms (an animation's frames are its events; a screen without one is quiet at once; the
 * ticking clock never rests), and the server's page source and element click wait for that, at most the
 * session's `waitForIdleTimeout`, which the settings API reads and sets and every new session resets to 10 s.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { remote } from "webdriverio";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { startUia2Server } from "../../src/sim/uia2/server.ts";
import { IDLE_QUIET_MS } from "../../src/sim/uia2/idle.ts";

type Browser = Awaited<ReturnType<typeof remote>>;

function cartTag(device: ScenarioDevice): Record<string, string> {
  const tag = device.hierarchyXml().match(/<node [^>]*content-desc="Cart"[^>]*>/)?.[0];
  assert.ok(tag !== undefined, "the Cart button");
  return Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

async function session(port: number): Promise<Browser> {
  return await remote({
    hostname: "127.0.0.1",
    port,
    path: "/",
    capabilities: { platformName: "Android", "appium:automationName": "UiAutomator2" },
    waitforTimeout: 0,
    connectionRetryCount: 0,
    logLevel: "silent",
  });
}

test("msUntilIdle: the cart's slide (five frames 120 ms apart) is idle 500 ms after its last frame; a still screen or a late result at once", () => {
  let now = 1_000_000;
  const device = new ScenarioDevice(resolveScenario("shop"), { now: () => now });
  assert.equal(device.screenId(), "shop_home");
  assert.equal(device.msUntilIdle(500, 10_000), 0, "a screen without an animation is quiet at once");
  device.tap(cartTag(device));
  assert.equal(device.msUntilIdle(500, 10_000), 600 + 500, "the last frame comes at 600 ms, then 500 ms of quiet");
  assert.equal(device.msUntilIdle(500, 700), 700, "capped at the timeout while it still moves");
  now += 700;
  assert.equal(device.msUntilIdle(500, 10_000), 400);
  now += 400;
  assert.equal(device.msUntilIdle(500, 10_000), 0);
  assert.equal(device.screenId(), "cart");
  assert.ok(device.openUrl("https://shop.example/checkout") !== null);
  device.tap(
    Object.fromEntries(
      [...device.hierarchyXml().match(/<node [^>]*text="Place order"[^>]*>/)![0].matchAll(/([\w-]+)="([^"]*)"/g)].map((
        m,
      ) => [m[1]!, m[2]!]),
    ),
  );
  assert.equal(device.screenId(), "order_placing");
  assert.equal(device.msUntilIdle(500, 10_000), 0, "a result due in 3 s is no animation: the waiting screen is quiet");
  now += 3000;
  assert.equal(device.screenId(), "order_placed");
  assert.equal(device.msUntilIdle(500, 10_000), 0, "nor is its arrival");
  device.setFaults({ tickingClock: true });
  assert.equal(device.msUntilIdle(500, 3000), 3000, "a clock that ticks on every read never rests");
});

test("the settings API holds waitForIdleTimeout: 10 s by default, set and read back, reset by a new session", async () => {
  const device = new ScenarioDevice(resolveScenario("settings"));
  const server = await startUia2Server(device, {});
  let browser: Browser | null = null;
  try {
    browser = await session(server.port);
    assert.equal((await browser.getSettings() as Record<string, unknown>)["waitForIdleTimeout"], 10_000);
    await browser.updateSettings({ waitForIdleTimeout: 3000 });
    assert.equal((await browser.getSettings() as Record<string, unknown>)["waitForIdleTimeout"], 3000);
    await assert.rejects(browser.updateSettings({ waitForIdleTimeout: "soon" }), /Invalid 'waitForIdleTimeout' setting value type/);
    await browser.deleteSession();
    browser = await session(server.port);
    assert.equal(
      (await browser.getSettings() as Record<string, unknown>)["waitForIdleTimeout"],
      10_000,
      "a new session starts from the default",
    );
  } finally {
    await browser?.deleteSession().catch(() => {});
    await server.stop();
  }
});

test("a click answers once the slide it started is over, and a page source of a never-idle screen waits the whole timeout", async () => {
  const device = new ScenarioDevice(resolveScenario("shop"));
  const server = await startUia2Server(device, {});
  let browser: Browser | null = null;
  try {
    browser = await session(server.port);
    await browser.updateSettings({ waitForIdleTimeout: 3000 });
    const cart = await browser.$("~Cart");
    await cart.click();
    // The click waited for the slide (600 ms) and its quiet (500 ms): the device has nothing left to settle.
    assert.equal(device.msUntilIdle(IDLE_QUIET_MS, 10_000), 0, "the drawer is still when the click answers");
    assert.equal(device.screenId(), "cart", "the drawer is at rest when the click answers");
    assert.match(await browser.getPageSource(), /cart_drawer/);
    device.setFaults({ tickingClock: true });
    await browser.updateSettings({ waitForIdleTimeout: 400 });
    // It answers once the timeout has run out (its length is held on the virtual clock: tests/contract/act_settle.test.ts).
    assert.match(await browser.getPageSource(), /com\.android\.systemui:id\/clock/);
    await browser.updateSettings({ waitForIdleTimeout: 0 });
    assert.match(await browser.getPageSource(), /systemui/, "0 skips the wait");
  } finally {
    await browser?.deleteSession().catch(() => {});
    await server.stop();
  }
});
