/**
 * PNG bytes no device should send but a broken or hostile one can: a header claiming a huge image, a
 * zlib stream that inflates far past the image's size, image data cut short in a rare format (upng-js's
 * path), an invalid bit depth or colour type. Each gets EVIDENCE_WRITE_FAILED saying it cannot be
 * decoded, quickly and without allocating the claimed size (never a crash, a hang or "one flat colour").
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { deflateSync } from "node:zlib";
import { HarnessError } from "../../src/errors.ts";
import { checkScreenshotShowsSomething, decodePng, downscaleForModel } from "../../src/png/mod.ts";

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  new DataView(out.buffer).setUint32(0, data.length);
  out.set([...type].map((ch) => ch.charCodeAt(0)), 4);
  out.set(data, 8);
  return out; // CRC left zero: neither decoder checks it
}

function craftedPng(
  width: number,
  height: number,
  depth: number,
  colourType: number,
  idat: Uint8Array,
  extra: Uint8Array[] = [],
): Uint8Array {
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, width);
  new DataView(header.buffer).setUint32(4, height);
  header.set([depth, colourType, 0, 0, 0], 8);
  const signature = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
  return new Uint8Array(Buffer.concat([signature, chunk("IHDR", header), ...extra, chunk("IDAT", idat), chunk("IEND", new Uint8Array())]));
}

function assertUndecodable(png: Uint8Array, what: string): void {
  for (const use of [checkScreenshotShowsSomething, decodePng, (p: Uint8Array) => downscaleForModel(p)]) {
    assert.throws(() => use(png), (error: unknown) => {
      assert.ok(error instanceof HarnessError, `${what}: ${String(error)}`);
      assert.equal(error.code, "EVIDENCE_WRITE_FAILED", what);
      assert.match(error.message, /cannot be decoded|too large/, `${what}: ${error.message}`);
      return true;
    });
  }
}

const grey = Uint8Array.of(0, 0, 0, 255, 255, 255);

test("a header claiming a huge image is refused before anything of that size is allocated", () => {
  const before = process.memoryUsage().rss;
  assertUndecodable(craftedPng(20_000, 20_000, 8, 6, deflateSync(new Uint8Array(1000))), "RGBA 20000x20000");
  assertUndecodable(craftedPng(20_000, 20_000, 8, 3, deflateSync(new Uint8Array(1000)), [chunk("PLTE", grey)]), "palette 20000x20000");
  assertUndecodable(craftedPng(20_000, 20_000, 8, 0, deflateSync(new Uint8Array(1000))), "grey 20000x20000");
  // Three 400-megapixel claims decoded would take gigabytes; refused, the process grows by far less.
  assert.ok(process.memoryUsage().rss - before < 200e6, `grew by ${process.memoryUsage().rss - before} bytes`);
});

test("image data that inflates far past the header's size is refused, not inflated whole", () => {
  // Measured from after the test made its own 300 MB (deflateSync reads every page of it: resident on some kernels).
  const bomb = craftedPng(1, 1, 8, 6, deflateSync(new Uint8Array(300e6)));
  const before = process.memoryUsage().rss;
  assertUndecodable(bomb, "1x1 RGBA with 300 MB of data");
  assert.ok(process.memoryUsage().rss - before < 200e6, `grew by ${process.memoryUsage().rss - before} bytes`);
});

test("rare formats (palette, grey, 16-bit) with their image data cut short are not taken for a flat screen", () => {
  const plte = [chunk("PLTE", grey)];
  assertUndecodable(craftedPng(100, 100, 8, 3, deflateSync(new Uint8Array(500)), plte), "palette, 5 of 100 rows");
  assertUndecodable(craftedPng(100, 100, 8, 0, deflateSync(new Uint8Array(500))), "grey, 5 of 100 rows");
  assertUndecodable(craftedPng(100, 100, 16, 6, deflateSync(new Uint8Array(500))), "16-bit RGBA, 1 of 100 rows");
});

test("a bit depth or colour type the PNG standard does not define is refused as undecodable", () => {
  assertUndecodable(craftedPng(10, 10, 7, 2, deflateSync(new Uint8Array(310))), "depth 7");
  assertUndecodable(craftedPng(10, 10, 8, 5, deflateSync(new Uint8Array(310))), "colour type 5");
  assertUndecodable(craftedPng(10, 10, 4, 2, deflateSync(new Uint8Array(310))), "4-bit RGB");
});
