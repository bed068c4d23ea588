import assert from "node:assert/strict";
import { test } from "node:test";
import UPNG from "upng-js";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { BUILTIN_SCENARIOS } from "../../src/sim/scenarios/mod.ts";

function pixels(png: Uint8Array): { width: number; height: number; px: Uint32Array } {
  const img = UPNG.decode(png.buffer as ArrayBuffer);
  return { width: img.width, height: img.height, px: new Uint32Array(UPNG.toRGBA8(img)[0]!) };
}

test("every built-in start screen is a full-size PNG with many colours (never one flat colour)", () => {
  for (const name of Object.keys(BUILTIN_SCENARIOS)) {
    const d = new ScenarioDevice(resolveScenario(name));
    const { width, height, px } = pixels(d.screenshotPng());
    assert.deepEqual([width, height], [d.width, d.height], name);
    assert.ok(new Set(px).size >= 4, `${name}: at least four colours`);
  }
});

test("different screens give different images; the open keyboard is drawn", () => {
  const d = new ScenarioDevice(resolveScenario("settings"));
  const home = pixels(d.screenshotPng()).px;
  d.scroll("down");
  const second = pixels(d.screenshotPng()).px;
  assert.notDeepEqual(home, second);
  const login = new ScenarioDevice(resolveScenario("login"));
  const withKeyboard = pixels(login.screenshotPng());
  login.back();
  const without = pixels(login.screenshotPng());
  const row = 2000 * withKeyboard.width + 5; // inside the keyboard area, left edge
  assert.notEqual(withKeyboard.px[row], without.px[row]);
});

test("the blank-screencap fault gives a valid one-colour PNG", () => {
  const d = new ScenarioDevice(resolveScenario("settings"));
  d.setFaults({ blankScreencap: true });
  const { px } = pixels(d.screenshotPng());
  assert.equal(new Set(px).size, 1);
});
