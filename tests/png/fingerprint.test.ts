/**
 * The screen fingerprint (src/png/fingerprint.ts): the grid's cells hold the mean luma of exactly their pixels
 * (portrait 5×8, landscape 8×5), the status bar strip is left out, every PNG format a device or the sim writes
 * gives the same fingerprint for the same pixels, and the comparison's two knobs hold at their edges: a cell
 * differing by exactly the tolerance matches and one more does not; a share of matching cells exactly at the
 * threshold passes and one cell fewer fails.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { deflateSync } from "node:zlib";
import UPNG from "upng-js";
import { FLOW_FINGERPRINT_PATTERN } from "../../contracts/flow.ts";
import { HarnessError } from "../../src/errors.ts";
import { compareFingerprints, encodePng, FINGERPRINT_CELLS, isFingerprint, screenFingerprint } from "../../src/png/mod.ts";

/** An opaque RGBA image whose pixel at (x, y) is `pixel(x, y)`. */
function image(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]) {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgba.set([...pixel(x, y), 255], (y * width + x) * 4);
  return { width, height, rgba };
}

const hex = (values: number[]) => values.map((v) => v.toString(16).padStart(2, "0")).join("");

test("portrait: 5 columns by 8 rows below the top 1/16, each cell the mean grey of its pixels; the status bar is left out", () => {
  // 50×128: the top 8 rows (1/16) are the status bar, then 8 rows of 15 px, 5 columns of 10 px.
  const cellValue = (cell: number) => (cell * 6 + 3) & 255;
  const img = image(50, 128, (x, y) => {
    if (y < 8) return [255, 0, (x * 97) & 255]; // a status bar whose pixels must not count
    const v = cellValue(Math.floor((y - 8) / 15) * 5 + Math.floor(x / 10));
    return [v, v, v];
  });
  const expected = hex(Array.from({ length: 40 }, (_, cell) => cellValue(cell)));
  assert.equal(screenFingerprint(encodePng(img, 0)), expected);
  assert.equal(expected.length, FINGERPRINT_CELLS * 2);
  assert.match(expected, FLOW_FINGERPRINT_PATTERN, "the flow file accepts what the harness writes");
});

test("landscape: 8 columns by 5 rows; a cell's value is the mean Rec. 601 luma, rounded", () => {
  // 160×80: top 5 rows left out, then 5 rows of 15 px, 8 columns of 20 px; cell 0 half red half green.
  const img = image(160, 80, (x, y) => {
    if (y < 5) return [0, 0, 0];
    const cell = Math.floor((y - 5) / 15) * 8 + Math.floor(x / 20);
    if (cell === 0) return x < 10 ? [255, 0, 0] : [0, 255, 0];
    if (cell === 1) return [0, 0, 255];
    if (cell === 2) return [255, 255, 255];
    return [cell, cell, cell];
  });
  const fp = screenFingerprint(encodePng(img, 0));
  // red 76.245, green 149.685: their mean 112.965 → 113; blue 29.07 → 29; white 255.
  assert.deepEqual([fp.slice(0, 2), fp.slice(2, 4), fp.slice(4, 6)], [hex([113]), hex([29]), hex([255])]);
  assert.equal(fp.slice(6), hex(Array.from({ length: 37 }, (_, i) => i + 3)));
});

test("the strip left out can be given in px (a known status bar inset)", () => {
  const img = image(50, 128, (_x, y) => (y < 40 ? [250, 250, 250] : [10, 10, 10]));
  // The default strip is 8 rows: grid rows of 15 px from y=8; the light band fills two and 2 of the third's 15 rows.
  assert.equal(screenFingerprint(encodePng(img, 0)), hex([...Array(10).fill(250), ...Array(5).fill(42), ...Array(25).fill(10)]));
  assert.equal(screenFingerprint(encodePng(img, 0), { topPx: 40 }), hex(Array(40).fill(10)));
});

/** A PNG of the given colour type and bit depth from its unfiltered sample bytes (filter 0 on every row). */
function rawPng(width: number, height: number, colourType: number, depth: number, samples: Uint8Array, plte?: Uint8Array): Uint8Array {
  const stride = samples.length / height;
  const rows = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) rows.set(samples.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, width);
  new DataView(header.buffer).setUint32(4, height);
  header.set([depth, colourType, 0, 0, 0], 8);
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    new DataView(out.buffer).setUint32(0, data.length);
    out.set([...type].map((ch) => ch.charCodeAt(0)), 4);
    out.set(data, 8);
    return out; // CRC left zero: neither decoder checks it
  };
  const signature = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  const parts = [signature, chunk("IHDR", header), ...(plte === undefined ? [] : [chunk("PLTE", plte)])];
  return new Uint8Array(Buffer.concat([...parts, chunk("IDAT", deflateSync(rows)), chunk("IEND", new Uint8Array())]));
}

test("the same pixels give the same fingerprint as RGB, RGBA, palette, grey and 16-bit PNGs", () => {
  const width = 64, height = 112;
  const level = (x: number, y: number) => ((x >> 3) * 24 + (y >> 4) * 9) & 255; // 8 × 7 grey levels
  const img = image(width, height, (x, y) => [level(x, y), level(x, y), level(x, y)]);
  const rgb = encodePng(img, 0);
  assert.equal(rgb[25], 2, "our encoder writes an opaque image as RGB");
  const n = width * height;
  const rgba = rawPng(width, height, 6, 8, img.rgba);
  const grey = new Uint8Array(n), index = new Uint8Array(n), wide = new Uint8Array(n * 6);
  const levels: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = img.rgba[i * 4]!;
    grey[i] = v;
    if (!levels.includes(v)) levels.push(v);
    index[i] = levels.indexOf(v);
    for (let c = 0; c < 3; c++) wide.set([v, 0x7f], i * 6 + c * 2);
  }
  const palette = rawPng(width, height, 3, 8, index, Uint8Array.from(levels.flatMap((v) => [v, v, v])));
  const expected = screenFingerprint(rgb);
  assert.ok(isFingerprint(expected));
  const formats = { rgba, palette, grey: rawPng(width, height, 0, 8, grey), sixteen: rawPng(width, height, 2, 16, wide) };
  for (const [name, png] of Object.entries(formats)) assert.equal(screenFingerprint(png), expected, name);
  assert.equal(screenFingerprint(new Uint8Array(UPNG.encode([img.rgba.slice().buffer], width, height, 256))), expected, "upng-js's own");
});

test("bytes that are not a PNG: EVIDENCE_WRITE_FAILED, as for any screenshot", () => {
  assert.throws(() => screenFingerprint(new TextEncoder().encode("not a png at all, really not a png")), (e: unknown) => {
    return e instanceof HarnessError && e.code === "EVIDENCE_WRITE_FAILED";
  });
});

const BASE = hex(Array(40).fill(0x80));
/** BASE with the first `n` cells raised by `by`. */
const shifted = (n: number, by: number) => hex(Array.from({ length: 40 }, (_, i) => (i < n ? 0x80 + by : 0x80)));

test("tolerance: a cell differing by exactly the tolerance matches, one more does not (defaults 14 and 0.85)", () => {
  assert.deepEqual(compareFingerprints(BASE, shifted(40, 14)), { met: true, matched: 40, cells: 40, tolerance: 14, minMatch: 0.85 });
  assert.equal(compareFingerprints(BASE, shifted(40, 15)).matched, 0);
  assert.equal(compareFingerprints(shifted(40, 15), BASE).matched, 0, "darker or lighter alike");
  assert.equal(compareFingerprints(BASE, shifted(40, 20), { tolerance: 20 }).matched, 40);
  assert.equal(compareFingerprints(BASE, shifted(40, 21), { tolerance: 20 }).matched, 0);
  assert.equal(compareFingerprints(BASE, shifted(1, 1), { tolerance: 0 }).matched, 39);
});

test("share: exactly the share of matching cells passes, one cell fewer fails", () => {
  // 0.85 of 40 is 34: six cells off passes, seven fail.
  assert.equal(compareFingerprints(BASE, shifted(6, 15)).met, true);
  assert.equal(compareFingerprints(BASE, shifted(6, 15)).matched, 34);
  assert.equal(compareFingerprints(BASE, shifted(7, 15)).met, false);
  // 0.9 of 40 is 36; 0.5 is 20; 1 asks every cell.
  assert.equal(compareFingerprints(BASE, shifted(4, 15), { minMatch: 0.9 }).met, true);
  assert.equal(compareFingerprints(BASE, shifted(5, 15), { minMatch: 0.9 }).met, false);
  assert.equal(compareFingerprints(BASE, shifted(20, 15), { minMatch: 0.5 }).met, true);
  assert.equal(compareFingerprints(BASE, shifted(21, 15), { minMatch: 0.5 }).met, false);
  assert.equal(compareFingerprints(BASE, shifted(1, 15), { minMatch: 1 }).met, false);
  assert.equal(compareFingerprints(BASE, shifted(0, 15), { minMatch: 1 }).met, true);
  assert.equal(compareFingerprints(BASE, shifted(40, 99), { minMatch: 0 }).met, true);
});

test("what is not a fingerprint is refused", () => {
  for (const bad of ["", BASE.slice(2), BASE + "00", BASE.replace(/^../, "AB"), BASE.replace(/^../, "zz")]) {
    assert.equal(isFingerprint(bad), false, bad);
    assert.throws(() => compareFingerprints(BASE, bad));
  }
});
