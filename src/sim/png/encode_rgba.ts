/**
 * Encodes RGBA pixels as the PNG a device's `screencap -p` writes: 8-bit RGBA (colour type 6, alpha
 * kept even when opaque), one IDAT, every row Sub-filtered (one cheap pass; on UI screens it lands
 * within a few percent of libpng's adaptive choice), zlib level 6 as Skia's encoder uses.
 */
import { Buffer } from "node:buffer";
import { deflateSync } from "node:zlib";

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

export function encodeRgbaPng(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const stride = width * 4;
  const filtered = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const from = y * stride, to = y * (stride + 1);
    filtered[to] = 1; // Sub: each byte minus the same channel of the pixel to its left (the first pixel as it is)
    filtered.set(rgba.subarray(from, from + Math.min(4, stride)), to + 1);
    for (let i = 4; i < stride; i++) filtered[to + 1 + i] = (rgba[from + i]! - rgba[from + i - 4]!) & 255;
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(filtered, { level: 6 })),
    chunk("IEND", new Uint8Array()),
  ]);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

let crcTable: Uint32Array | null = null;

function crc32(bytes: Uint8Array): number {
  if (crcTable === null) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 255]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
