/**
 * The tickingClock fault: a status-bar clock whose text changes on every read of the screen, so two
 * consecutive dumps (or page sources) never agree — a screen that never settles. Off by default;
 * scenario files may switch it on.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseScenarioText, resolveScenario, ScenarioDevice } from "../../src/sim/mod.ts";

test("with tickingClock every read of the screen differs, only in the clock; without it reads agree", () => {
  const device = new ScenarioDevice(resolveScenario("settings"));
  assert.equal(device.hierarchyXml(), device.hierarchyXml());
  device.setFaults({ tickingClock: true });
  const [first, second] = [device.hierarchyXml(), device.hierarchyXml()];
  assert.notEqual(first, second);
  assert.match(first, /resource-id="com\.android\.systemui:id\/clock"[^>]*package="com\.android\.systemui"/);
  const withoutClock = (xml: string) => xml.replace(/text="12:\d\d:\d\d"/, "");
  assert.equal(withoutClock(first), withoutClock(second));
  assert.match(first, /Network &amp; internet/, "the screen itself is still there");
});

test("a scenario file can switch tickingClock on", () => {
  const scenario = { ...resolveScenario("settings"), faults: { tickingClock: true } };
  const device = new ScenarioDevice(parseScenarioText(JSON.stringify(scenario), "ticking.json"));
  assert.notEqual(device.hierarchyXml(), device.hierarchyXml());
});
