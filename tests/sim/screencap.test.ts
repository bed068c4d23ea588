import assert from "node:assert/strict";
import { test } from "node:test";
import UPNG from "upng-js";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { BUILTIN_SCENARIOS } from "../../src/sim/scenarios/mod.ts";
import { keyboardKeys, SIMULATED_LABEL, simulatedBadge } from "../../src/sim/png/screencap.ts";
import { encodeRgbaPng } from "../../src/sim/png/encode_rgba.ts";
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

/** The RGB of one pixel. */
function rgbAt(image: { width: number; px: Uint32Array }, x: number, y: number): [number, number, number] {
  const v = image.px[y * image.width + x]!;
  return [v & 255, (v >>> 8) & 255, (v >>> 16) & 255];
}

test("the shop's filter sheet is drawn opaque over the page: the product row under it shows none of its pixels", () => {
  const d = new ScenarioDevice(resolveScenario("shop"));
  d.tap({ "content-desc": "Filters" });
  assert.equal(d.screenId(), "filters");
  const sheet = pixels(d.screenshotPng());
  // "Leather wallet" (product_title [300,1280][1017,1360]) lies under the sheet ([0,1200][1080,2400]), between its title
  // "Filters" ([63,1230][600,1320], text at its left) and "Apply" ([780,1220][1017,1340]): the sheet's surface alone there.
  const under = { left: 420, top: 1270, right: 760, bottom: 1370 };
  const seen = new Set<string>();
  for (let y = under.top; y < under.bottom; y++) {
    for (let x = under.left; x < under.right; x++) seen.add(rgbAt(sheet, x, y).join());
  }
  assert.deepEqual([...seen], ["255,255,255"], "only the sheet's white surface where the row's title would show");
  // The rows above the sheet are drawn as before ("Wool beanie", product_title [300,980][1017,1060]); the sheet's own options
  // are drawn on it ("Brand", [0,1400][1080,1550], its text at the left).
  const darkIn = (r: { left: number; top: number; right: number; bottom: number }) => {
    let n = 0;
    for (let y = r.top; y < r.bottom; y++) for (let x = r.left; x < r.right; x++) if (rgbAt(sheet, x, y)[0] < 100) n++;
    return n;
  };
  assert.ok(darkIn({ left: 300, top: 980, right: 700, bottom: 1060 }) > 200, "the title of the row above the sheet");
  assert.ok(darkIn({ left: 0, top: 1440, right: 300, bottom: 1510 }) > 100, `the option "Brand" on the sheet`);
});

/** The white icon pixels on the keyboard's action key (the accent-coloured key at the bottom row's end), as a mask. */
function actionKeyIcon(image: { width: number; height: number; px: Uint32Array }, keyboardTop: number): string {
  const key = keyboardKeys(image.width, image.height, keyboardTop).find((k) => k.label === "action")!.rect;
  let mask = "";
  let accent = 0;
  for (let y = Math.ceil(key.top); y < Math.floor(key.bottom); y++) {
    for (let x = Math.ceil(key.left); x < Math.floor(key.right); x++) {
      const [r, g, b] = rgbAt(image, x, y);
      if (b > 150 && r < 60) accent++;
      mask += r > 200 && g > 200 && b > 200 ? "#" : ".";
    }
  }
  assert.ok(accent > 2000, `the action key is filled with the accent colour (${accent} px)`);
  return mask;
}

test("the drawn keyboard has the field's action key: search on the shop's search field, next then done on the login form", () => {
  const shop = new ScenarioDevice(resolveScenario("shop"));
  shop.tap({ "content-desc": "Search" });
  assert.equal(shop.keyboard().open, true);
  const search = actionKeyIcon(pixels(shop.screenshotPng()), shop.keyboard().top!);
  const login = new ScenarioDevice(resolveScenario("login"));
  const next = actionKeyIcon(pixels(login.screenshotPng()), login.keyboard().top!); // the e-mail field, with the password after it
  login.tap({ "resource-id": "com.example.shop:id/password" });
  const done = actionKeyIcon(pixels(login.screenshotPng()), login.keyboard().top!); // the last input
  const icons = { search, next, done };
  for (const [name, mask] of Object.entries(icons)) {
    const white = [...mask].filter((c) => c === "#").length;
    assert.ok(white > 100, `${name}: a white icon on the key (${white} px)`);
  }
  assert.equal(new Set(Object.values(icons)).size, 3, "three different icons");
  // The search icon is a magnifier: a ring (about 15 px across its radius here, centre 6 px up and left of the key's)
  // whose centre is the key's colour, its sides white; the check mark and the arrow pass nowhere near that centre's ring.
  const key = keyboardKeys(1080, 2400, shop.keyboard().top!).find((k) => k.label === "action")!.rect;
  const width = Math.floor(key.right) - Math.ceil(key.left), height = search.length / width;
  const at = (mask: string, dx: number, dy: number) => mask[Math.round(height / 2 + dy) * width + Math.round(width / 2 + dx)];
  assert.deepEqual([at(search, -6, -6), at(search, -19, -6), at(search, 7, -6), at(search, -6, -19)], [".", "#", "#", "#"]);
});

test("the Sub filter is lossless on any pixels: every byte, borrows across channels included, decodes back as drawn", () => {
  // Sub subtracts each pixel's four channels as one 32-bit word; channels below their left neighbour's need a
  // borrow that must not reach the next channel. Pixels that step down and up by every amount hold every case.
  const width = 257, height = 3;
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < rgba.length; i++) rgba[i] = (i * 97 + ((i >> 2) % 7) * 61) & 255;
  const png = encodeRgbaPng(rgba, width, height);
  const image = UPNG.decode(png.buffer as ArrayBuffer);
  assert.deepEqual(new Uint8Array(UPNG.toRGBA8(image)[0]!), rgba);
});

test("the same screen gives the same bytes on every device; a changed screen, its own; the caller's copy is its own", () => {
  const first = new ScenarioDevice(resolveScenario("login")), second = new ScenarioDevice(resolveScenario("login"));
  const shot = first.screenshotPng();
  assert.deepEqual(second.screenshotPng(), shot);
  shot.fill(0);
  assert.notDeepEqual(second.screenshotPng(), shot, "a caller's change reaches no other screenshot");
  const before = second.screenshotPng();
  second.back(); // the keyboard closes
  assert.notDeepEqual(second.screenshotPng(), before);
  assert.deepEqual(first.screenshotPng(), before, "the other device still shows the keyboard");
});
