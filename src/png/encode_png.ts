/**
 * RGBA pixels → PNG bytes. `colours` 0 is lossless and native: RGB when every pixel is opaque, else
 * RGBA, rows unfiltered (filter None: on box-filtered screenshots it deflates 10–25 % smaller than
 * libpng's per-row choice, measured on the real captures, and costs no pass), deflated by the runtime's
 * zlib at level 3 (on the model copies of the real captures and the simulated screen: a third of level 6's
 * time for 10–20 % more bytes, far under the byte budget). 256 quantizes to a palette with upng-js (the
 * rare path, for images over the byte budget). The input pixels are not modified.
 */
import { deflateSync } from "node:zlib";
import UPNG from "upng-js";
import { crc32 } from "./crc32.ts";
import type { DecodedPng } from "./png_pixels.ts";

type EncodeWithOptions = (b: ArrayBuffer[], w: number, h: number, c: number, d?: number[], forbidPlte?: boolean) => ArrayBuffer;

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function encodePng(image: DecodedPng, colours: 0 | 256): Uint8Array {
  if (colours === 256) {
    const encode = UPNG.encode as unknown as EncodeWithOptions;
    return new Uint8Array(encode([image.rgba.slice().buffer], image.width, image.height, 256));
  }
  const { width, height, rgba } = image;
  const opaque = isOpaque(rgba);
  const stride = width * (opaque ? 3 : 4);
  const rows = new Uint8Array((stride + 1) * height); // each row: filter byte 0 (None), then its pixels
  for (let y = 0; y < height; y++) packRow(rgba, y * width * 4, width, opaque, rows, y * (stride + 1) + 1);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, opaque ? 2 : 6, 0, 0, 0], 8);
  const idat = deflateSync(rows, { level: 3 });
  return join([Uint8Array.from(SIGNATURE), chunk("IHDR", header), chunk("IDAT", idat), chunk("IEND", new Uint8Array())]);
}

function isOpaque(rgba: Uint8Array): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}

function packRow(rgba: Uint8Array, from: number, width: number, opaque: boolean, out: Uint8Array, at: number): void {
  if (!opaque) {
    out.set(rgba.subarray(from, from + width * 4), at);
    return;
  }
  for (let x = 0, i = from, o = at; x < width; x++, i += 4, o += 3) {
    out[o] = rgba[i]!;
    out[o + 1] = rgba[i + 1]!;
    out[o + 2] = rgba[i + 2]!;
  }
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

function join(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
