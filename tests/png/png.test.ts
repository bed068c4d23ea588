import assert from "node:assert/strict";
import { test } from "node:test";
import { checkScreenshotShowsSomething, decodePng, downscaleForModel, MODEL_MAX_BYTES, pngSize } from "../../src/png/mod.ts";
import { HarnessError } from "../../src/errors.ts";
import { corpusSkipReason } from "../support/paths.ts";
import { corpusPngs, flatPng, makePng, stripedPng } from "./png_samples.ts";

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof HarnessError);
    return error.code;
  }
  return "no error";
}

test("one-colour screenshots are refused, any two colours pass", () => {
  assert.equal(codeOf(() => checkScreenshotShowsSomething(flatPng())), "EVIDENCE_WRITE_FAILED");
  assert.equal(codeOf(() => checkScreenshotShowsSomething(flatPng([255, 255, 255, 255]))), "EVIDENCE_WRITE_FAILED");
  assert.throws(() => checkScreenshotShowsSomething(flatPng()), /one flat colour \(rgba 0,0,0,255, 64x48\)/);
  const onePixelOff = makePng(64, 48, (x, y) => (x === 63 && y === 47 ? [1, 0, 0, 255] : [0, 0, 0, 255]));
  assert.deepEqual({ ...checkScreenshotShowsSomething(onePixelOff), rgba: null }, { width: 64, height: 48, rgba: null });
});

test("bytes that are not a PNG, or a cut-off PNG, are EVIDENCE_WRITE_FAILED, with no runtime internals (R9)", () => {
  assert.equal(codeOf(() => decodePng(new Uint8Array())), "EVIDENCE_WRITE_FAILED");
  assert.equal(codeOf(() => decodePng(new TextEncoder().encode("error: device offline\n".repeat(3)))), "EVIDENCE_WRITE_FAILED");
  const good = stripedPng();
  assert.equal(codeOf(() => decodePng(good.subarray(0, 40))), "EVIDENCE_WRITE_FAILED");
  // R9: no JavaScript internals in the message (upng-js throws "Cannot read properties of undefined" on cut data).
  for (const end of [40, 60, good.length - 12]) {
    assert.throws(
      () => decodePng(good.subarray(0, end)),
      (error: unknown) =>
        error instanceof HarnessError && /^The screenshot PNG cannot be decoded \(\d+ bytes\)/.test(error.message) &&
        !/undefined|properties|TypeError|RangeError/.test(error.message),
    );
  }
});

test("pngSize reads the header alone and refuses what decodePng refuses, with the same words", () => {
  const good = stripedPng();
  const decoded = decodePng(good);
  assert.deepEqual(pngSize(good), { width: decoded.width, height: decoded.height });
  assert.deepEqual(pngSize(good.subarray(0, 40)), { width: decoded.width, height: decoded.height }, "no pixels needed");
  for (const bad of [new Uint8Array(), new TextEncoder().encode("error: device offline\n".repeat(3)), good.subarray(0, 20)]) {
    const message = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as HarnessError).message;
      }
      return "no error";
    };
    assert.match(message(() => pngSize(bad)), /^The screenshot is not a PNG/);
    assert.equal(message(() => pngSize(bad)), message(() => decodePng(bad)));
  }
});

test("the real corpus screenshots decode, show something, and downscale to ≤1024 px and ≤700 kB", { skip: corpusSkipReason() }, () => {
  const seen: string[] = [];
  for (const { name, bytes } of corpusPngs()) {
    const full = checkScreenshotShowsSomething(bytes);
    const image = downscaleForModel(bytes);
    assert.ok(Math.max(image.width, image.height) <= 1024, `${name}: ${image.width}x${image.height}`);
    assert.ok(image.bytes.length <= MODEL_MAX_BYTES, `${name}: ${image.bytes.length} bytes`);
    assert.ok(Math.ceil(image.bytes.length / 3) * 4 < 1_000_000, `${name}: base64 under 1 MB`);
    assert.equal(image.mimeType, "image/png");
    const again = decodePng(image.bytes);
    assert.deepEqual([again.width, again.height], [image.width, image.height]);
    // Aspect ratio kept within one pixel.
    assert.ok(Math.abs(image.width / image.height - full.width / full.height) < 0.01, name);
    seen.push(`${full.width}x${full.height}->${image.width}x${image.height}`);
  }
  assert.deepEqual(seen.sort(), ["1080x2400->461x1024", "1080x2400->461x1024", "1080x2400->461x1024", "1920x1080->1024x576"]);
});

test("a small screenshot is passed through unchanged", () => {
  const png = stripedPng();
  const image = downscaleForModel(png);
  assert.equal(image.bytes, png);
  assert.equal(image.transformed, false);
});

test("box filter: a 2:1 reduction averages neighbouring pixels", () => {
  const png = makePng(2048, 4, (x) => (x % 2 === 0 ? [0, 0, 0, 255] : [200, 100, 50, 255]));
  const image = downscaleForModel(png);
  assert.deepEqual([image.width, image.height], [1024, 2]);
  assert.deepEqual([...decodePng(image.bytes).rgba.subarray(0, 4)], [100, 50, 25, 255]);
});

test("an incompressible image still fits the byte budget (quantized, then smaller)", () => {
  let seed = 0x9e3779b9;
  const noise = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 24) & 0xff;
  };
  const png = makePng(1100, 1100, () => [noise(), noise(), noise(), 255]);
  assert.ok(png.length > MODEL_MAX_BYTES);
  const image = downscaleForModel(png);
  assert.ok(image.bytes.length <= MODEL_MAX_BYTES, `${image.bytes.length}`);
  assert.ok(Math.max(image.width, image.height) <= 1024);
  decodePng(image.bytes);
});
