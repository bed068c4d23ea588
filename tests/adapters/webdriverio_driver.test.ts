/**
 * The webdriverio UiDriver against the simulated device's own UiAutomator2 endpoint (real HTTP, real
 * W3C answers): how the protocol's element errors come back through appium_failure's closed codes.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createAppiumDriverFactory } from "../../src/adapters/appium/mod.ts";
import { HarnessError } from "../../src/errors.ts";
import { startSimDevice } from "../../src/sim/mod.ts";

test("tapping an element the screen no longer has is UI_ELEMENT_NOT_FOUND (read again), not APPIUM_UNAVAILABLE", async () => {
  const sim = await startSimDevice({});
  const driver = await createAppiumDriverFactory({
    appiumUrl: sim.appiumUrl, adbServer: sim.adbServerSocket, requestTimeoutMs: 10_000, newCommandTimeoutS: 90,
  }).open(sim.device.serial, { timeoutMs: 10_000 });
  try {
    const source = await driver.source();
    assert.match(source, /Network &amp; internet/);
    const [id] = await driver.findElements("//*[@text='Network & internet']");
    assert.ok(id !== undefined);
    await driver.back(); // the screen changes under the agent: Settings' home is gone
    await assert.rejects(driver.click(id!), (error: unknown) => {
      assert.ok(error instanceof HarnessError);
      assert.equal(error.code, "UI_ELEMENT_NOT_FOUND", error.message);
      assert.match(error.message, /screen changed/i);
      return true;
    });
  } finally {
    await driver.delete();
    await sim.stop();
  }
});
