/**
 * The native PNG codec (src/png/png_decode.ts, encode_png.ts): pixels come back exactly as written for
 * every row filter, RGB and RGBA, odd widths; the encoder's output decodes to its input (by us and by
 * upng-js); the one-colour check sees a single differing pixel anywhere; the downscale's size and averages.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { deflateSync } from "node:zlib";
import UPNG from "upng-js";
import { HarnessError } from "../../src/errors.ts";
import { boxResize, checkScreenshotShowsSomething, decodePng, downscaleForModel, encodePng, pngOneColour } from "../../src/png/mod.ts";
import { corpusSkipReason } from "../support/paths.ts";
import { corpusPngs } from "./png_samples.ts";

/** A PNG written by hand: 8-bit RGB (3) or RGBA (4), row y filtered with filters[y % filters.length]. */
function handPng(width: number, height: number, channels: 3 | 4, pixel: (x: number, y: number) => number[], filters: number[]): Uint8Array {
  const stride = width * channels;
  const plain = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) plain.set(pixel(x, y).slice(0, channels), y * stride + x * channels);
  const rows = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const type = filters[y % filters.length]!;
    rows[y * (stride + 1)] = type;
    for (let i = 0; i < stride; i++) {
      const at = y * stride + i;
      const a = i >= channels ? plain[at - channels]! : 0, b = y > 0 ? plain[at - stride]! : 0;
      const c = i >= channels && y > 0 ? plain[at - stride - channels]! : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const predicted = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][type]!;
      rows[y * (stride + 1) + 1 + i] = (plain[at]! - predicted) & 255;
    }
  }
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, width);
  new DataView(header.buffer).setUint32(4, height);
  header.set([8, channels === 4 ? 6 : 2, 0, 0, 0], 8);
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    new DataView(out.buffer).setUint32(0, data.length);
    out.set([...type].map((ch) => ch.charCodeAt(0)), 4);
    out.set(data, 8);
    return out; // CRC left zero: neither decoder checks it
  };
  const signature = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  return new Uint8Array(
    Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(rows)), chunk("IEND", new Uint8Array())]),
  );
}

const colourful = (x: number, y: number) => [(x * 37 + y * 11) & 255, (x * x + y * 3) & 255, (x ^ y) * 5 & 255, 200 + ((x + y) % 56)];

test("every row filter decodes to the pixels written, RGBA and RGB, widths whose rows are not whole words", () => {
  for (const channels of [3, 4] as const) {
    for (const width of [1, 5, 64]) {
      for (const filters of [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4, 2, 1]]) {
        const png = handPng(width, 9, channels, colourful, filters);
        const image = decodePng(png);
        const expected = new Uint8Array(UPNG.toRGBA8(UPNG.decode(png.slice().buffer))[0]!);
        assert.deepEqual([image.width, image.height], [width, 9]);
        assert.ok(Buffer.from(image.rgba).equals(Buffer.from(expected)), `channels ${channels}, width ${width}, filters ${filters}`);
        const [r, g, b] = colourful(width - 1, 8);
        assert.deepEqual([...image.rgba.subarray(-4)], [r, g, b, channels === 4 ? colourful(width - 1, 8)[3] : 255]);
      }
    }
  }
});

test("the real captures decode to the same pixels as upng-js's decoder", { skip: corpusSkipReason() }, () => {
  for (const { name, bytes } of corpusPngs()) {
    const ours = decodePng(bytes);
    const theirs = new Uint8Array(UPNG.toRGBA8(UPNG.decode(bytes.slice().buffer))[0]!);
    assert.ok(Buffer.from(ours.rgba).equals(Buffer.from(theirs)), name);
  }
});

test("encode then decode gives the pixels back: opaque images as RGB, translucent ones as RGBA", () => {
  for (const alpha of [false, true]) {
    const width = 37, height = 23;
    const rgba = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i++) rgba.set([i & 255, (i * 7) & 255, (i * 13) & 255, alpha ? i % 256 : 255], i * 4);
    const before = rgba.slice();
    const png = encodePng({ width, height, rgba }, 0);
    assert.deepEqual(rgba, before, "the input is not modified");
    assert.equal(png[25], alpha ? 6 : 2, "colour type");
    assert.deepEqual(decodePng(png).rgba, rgba);
    assert.deepEqual(new Uint8Array(UPNG.toRGBA8(UPNG.decode(png.slice().buffer))[0]!), rgba, "another decoder agrees");
  }
});

test("the one-colour check finds a single differing pixel anywhere, in RGB and RGBA", () => {
  for (const channels of [3, 4] as const) {
    const flat = handPng(40, 30, channels, () => [9, 8, 7, 255], [2]);
    assert.deepEqual(pngOneColour(flat), [9, 8, 7, 255]);
    assert.throws(
      () => checkScreenshotShowsSomething(flat),
      (e: unknown) => e instanceof HarnessError && /rgba 9,8,7,255, 40x30/.test(e.message),
    );
    for (const [ox, oy] of [[0, 0], [39, 29], [17, 0], [0, 29]] as const) {
      const off = handPng(40, 30, channels, (x, y) => (x === ox && y === oy ? [9, 8, 6, 255] : [9, 8, 7, 255]), [4, 1]);
      assert.equal(pngOneColour(off), null, `pixel ${ox},${oy}`);
      assert.deepEqual(checkScreenshotShowsSomething(off), { width: 40, height: 30 });
    }
  }
  const alphaOnly = handPng(8, 8, 4, (x, y) => [1, 1, 1, x === 7 && y === 7 ? 254 : 255], [0]);
  assert.equal(pngOneColour(alphaOnly), null, "alpha counts");
});

test("downscale: the long side becomes 1024, the aspect kept, RGB and RGBA averaged the same", () => {
  for (const channels of [3, 4] as const) {
    const png = handPng(1080, 2400, channels, (x, y) => ((x >> 2) + (y >> 2)) % 2 === 0 ? [0, 0, 0, 255] : [200, 100, 50, 255], [2, 1]);
    const image = downscaleForModel(png);
    assert.deepEqual([image.width, image.height], [461, 1024]);
    const small = decodePng(image.bytes);
    const mean = [0, 1, 2, 3].map((c) => {
      let sum = 0;
      for (let i = c; i < small.rgba.length; i += 4) sum += small.rgba[i]!;
      return Math.round(sum / (small.rgba.length / 4));
    });
    assert.deepEqual(mean, [100, 50, 25, 255], `channels ${channels}: a checkerboard averages to half`);
  }
});

test("downscale to a tiny copy of a large image (footprints of hundreds of pixels) still averages right", () => {
  const png = handPng(3000, 3000, 4, (x, y) => ((x + y) % 2 === 0 ? [250, 250, 250, 255] : [0, 0, 0, 255]), [0]);
  const image = downscaleForModel(png, { maxSide: 100 });
  assert.deepEqual([image.width, image.height], [100, 100]);
  const small = decodePng(image.bytes);
  for (let i = 0; i < small.rgba.length; i += 4) {
    assert.ok(
      Math.abs(small.rgba[i]! - 125) <= 1 && small.rgba[i + 3] === 255,
      `pixel ${i / 4}: ${small.rgba.subarray(i, i + 4).join(",")}`,
    );
  }
});

test("the box filter gives each output pixel the rounded mean of its footprint, exactly (random pixels, uneven footprints)", () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % 256;
  for (const [width, height, maxSide] of [[1080, 2400, 1024], [37, 23, 10], [300, 300, 7], [5, 9, 4]] as const) {
    const rgba = Uint8Array.from({ length: width * height * 4 }, random);
    const small = boxResize({ width, height, rgba }, maxSide);
    const at = (x: number, n: number) => Math.floor((x * n) / (n === width ? small.width : small.height));
    for (let y = 0; y < small.height; y += Math.max(1, small.height >> 4)) {
      for (let x = 0; x < small.width; x++) {
        const [x0, x1] = [at(x, width), Math.max(at(x, width) + 1, at(x + 1, width))];
        const [y0, y1] = [at(y, height), Math.max(at(y, height) + 1, at(y + 1, height))];
        for (let c = 0; c < 4; c++) {
          let sum = 0;
          for (let sy = y0; sy < y1; sy++) for (let sx = x0; sx < x1; sx++) sum += rgba[(sy * width + sx) * 4 + c]!;
          const expected = Math.round(sum / ((x1 - x0) * (y1 - y0)));
          assert.equal(small.rgba[(y * small.width + x) * 4 + c], expected, `${width}x${height}→${maxSide}: (${x},${y}) channel ${c}`);
        }
      }
    }
  }
});
