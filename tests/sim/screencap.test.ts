import assert from "node:assert/strict";
import { test } from "node:test";
import UPNG from "upng-js";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { BUILTIN_SCENARIOS } from "../../src/sim/scenarios/mod.ts";
import { SIMULATED_LABEL, simulatedBadge } from "../../src/sim/png/screencap.ts";
import { GLYPH_WIDTH, glyphRows } from "../../src/sim/png/glyphs.ts";

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

test("every screenshot says SIMULATED, legibly, in the status-bar band at the top", () => {
  for (const name of Object.keys(BUILTIN_SCENARIOS)) {
    const d = new ScenarioDevice(resolveScenario(name));
    const { width, px } = pixels(d.screenshotPng());
    const badge = simulatedBadge(d.width, d.height);
    assert.ok(badge.band.bottom <= 136 && badge.scale >= 4, `${name}: inside the status bar, at least 4 px per font pixel`);
    const colourAt = (x: number, y: number) => {
      const v = px[y * width + x]!;
      return [v & 255, (v >>> 8) & 255, (v >>> 16) & 255];
    };
    [...SIMULATED_LABEL].forEach((char, i) => {
      glyphRows(char).forEach((row, ry) =>
        row.forEach((ink, rx) => {
          const x = badge.x + (i * (GLYPH_WIDTH + 1) + rx) * badge.scale + (badge.scale >> 1);
          const y = badge.y + ry * badge.scale + (badge.scale >> 1);
          assert.deepEqual(colourAt(x, y), [...(ink ? badge.ink : badge.paper)], `${name}: "${char}" pixel ${rx},${ry}`);
        })
      );
    });
  }
});

test("screenshots are 8-bit RGBA PNGs as a device's screencap writes them, with a real screen's texture", () => {
  const d = new ScenarioDevice(resolveScenario("settings"));
  const png = d.screenshotPng();
  assert.deepEqual([png[24], png[25]], [8, 6], "bit depth 8, colour type 6 (RGBA)");
  // Before the texture: flat bands and 3x5 block letters, about 9 KB. A real 1080x2400 Settings capture is 100-250 KB.
  assert.ok(png.length >= 80_000, `${png.length} bytes`);
  const { width, px } = pixels(png);
  assert.ok(new Set(px).size >= 200, "anti-aliased edges give many colours");
  // The "Network & internet" title (bounds [189,540][1017,606]): glyph marks with soft edges, not an empty band.
  const tones = new Set<number>();
  let ink = 0;
  for (let y = 540; y < 606; y++) {
    for (let x = 189; x < 700; x++) {
      const v = px[y * width + x]!;
      const grey = v & 255;
      tones.add(grey);
      if (grey < 100) ink++;
    }
  }
  assert.ok(ink > 500, `dark text pixels: ${ink}`);
  assert.ok(tones.size >= 20, `edge tones: ${tones.size}`);
});
