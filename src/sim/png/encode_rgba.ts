/**
 * Encodes RGBA pixels as the PNG a device's `screencap -p` writes: 8-bit RGBA (colour type 6, alpha
 * kept even when opaque), one IDAT, every row Sub-filtered (one cheap pass; on UI screens it lands
 * within a few percent of libpng's adaptive choice), zlib level 6 as Skia's encoder uses.
 */
import { deflateSync } from "node:zlib";

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

export function encodeRgbaPng(rgba: Uint8Array, width: number, height: number): Uint8Array {
  const stride = width * 4;
  const filtered = new Uint8Array((stride + 1) * height);
  // Sub: each byte minus the same channel of the pixel to its left (the first pixel as it is). A pixel's four
  // channels are subtracted at once as one 32-bit word, with no borrow from one byte into the next (the top bit
  // of each byte is set in the minuend and cleared in the subtrahend, then fixed by the xor): the same bytes as
  // byte by byte, in a quarter of the loop.
  const pixels = rgba.byteOffset % 4 === 0
    ? new Uint32Array(rgba.buffer, rgba.byteOffset, width * height)
    : new Uint32Array(rgba.slice().buffer);
  const row = new Uint32Array(width), rowBytes = new Uint8Array(row.buffer);
  for (let y = 0; y < height; y++) {
    const from = y * width;
    row[0] = pixels[from]!;
    for (let x = 1; x < width; x++) {
      const a = pixels[from + x]!, b = pixels[from + x - 1]!;
      row[x] = ((a | 0x80808080) - (b & 0x7f7f7f7f)) ^ ((a ^ ~b) & 0x80808080);
    }
    filtered[y * (stride + 1)] = 1;
    filtered.set(rowBytes, y * (stride + 1) + 1);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8);
  // A plain Uint8Array of its own (not a Buffer, whose slice() is a view): each caller's slice() is a copy.
  const parts = [SIGNATURE, chunk("IHDR", header), chunk("IDAT", deflateSync(filtered, { level: 6 })), chunk("IEND", new Uint8Array())];
  const png = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  parts.reduce((at, part) => (png.set(part, at), at + part.length), 0);
  return png;
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
