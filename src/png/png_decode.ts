/**
 * PNG bytes → unfiltered pixel rows, at native speed for what screencap writes (8-bit RGB or RGBA,
 * not interlaced): the IDAT stream is inflated by the runtime's zlib (node:zlib, also in Deno and Bun;
 * remembered per byte array, so a check and a downscale of one capture inflate once) and each row is
 * unfiltered into one reused row buffer, so a caller that stops early (the one-colour check) or folds
 * rows away (the downscale) never builds the full image. Any other PNG (palette, grey, 16-bit,
 * interlaced, transparency chunk) is decoded by upng-js. Before either decodes, the header must be a
 * format the PNG standard defines, at most MAX_PIXELS, and the image data must inflate to exactly the
 * size the header implies (never more is inflated). Throws a plain Error on damaged input; the callers
 * (png_pixels.ts) turn it into EVIDENCE_WRITE_FAILED.
 */
import { inflateSync } from "node:zlib";
import UPNG from "upng-js";

/** One row's pixels: `channels` bytes per pixel, RGBA (4) or RGB (3, opaque). Valid only during the visit. */
export type RowVisitor = (row: Uint8Array, y: number) => boolean | void;

export interface PngRows {
  width: number;
  height: number;
  channels: 3 | 4;
  /** Calls `visit` for rows 0, 1, … until the last or until it returns false. */
  scan(visit: RowVisitor): void;
}

interface Header {
  width: number;
  height: number;
  depth: number;
  colourType: number;
  interlace: number;
}

const inflatedByBytes = new WeakMap<Uint8Array, Uint8Array>();

/** The largest image decoded (an 8K screen, 7680×4320): a header claiming more is refused before any allocation. */
export const MAX_PIXELS = 7680 * 4320;

/** Bit depths the PNG standard allows per colour type, and the samples per pixel of each type. */
const DEPTHS: Record<number, readonly number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const SAMPLES: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7's seven passes: first column, first row, column step, row step. */
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]] as const;

function checkHeader({ width, height, depth, colourType, interlace }: Header): void {
  if (!(DEPTHS[colourType]?.includes(depth) ?? false) || interlace > 1) throw new Error("not a PNG pixel format");
  if (width === 0 || height === 0 || width * height > MAX_PIXELS) throw new Error(`image size ${width}x${height} refused`);
}

/** Bytes of the inflated image data: every row (of every Adam7 pass) is one filter byte and its packed samples. */
function dataLength({ width, height, depth, colourType, interlace }: Header): number {
  const bits = SAMPLES[colourType]! * depth;
  const rows = (w: number, h: number) => (w > 0 && h > 0 ? (Math.ceil((w * bits) / 8) + 1) * h : 0);
  if (interlace === 0) return rows(width, height);
  return ADAM7.reduce((sum, [x0, y0, dx, dy]) => sum + rows(Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)), 0);
}

/** The rows of a PNG whose signature and IHDR were already checked. */
export function pngRows(png: Uint8Array): PngRows {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const header: Header = {
    width: view.getUint32(16),
    height: view.getUint32(20),
    depth: png[24]!,
    colourType: png[25]!,
    interlace: png[28]!,
  };
  const known = inflatedByBytes.get(png);
  if (known !== undefined) return nativeRows(known, header);
  checkHeader(header);
  const idat: Uint8Array[] = [];
  let native = header.depth === 8 && (header.colourType === 6 || header.colourType === 2) && header.interlace === 0;
  let ended = false;
  for (let offset = 8; offset + 8 <= png.length;) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(png[offset + 4]!, png[offset + 5]!, png[offset + 6]!, png[offset + 7]!);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (data.length !== length) throw new Error(`chunk ${type} cut short`);
    if (type === "IDAT") idat.push(data);
    else if (type === "tRNS") native = false;
    else if (type === "IEND") {
      ended = true;
      break;
    }
    offset += 12 + length;
  }
  if (!ended) throw new Error("no IEND chunk");
  // One output chunk of the image's exact size (zlib's default 16 KiB chunks cost a concatenation and garbage),
  // and never more than that size: a stream that inflates past it throws instead of filling memory.
  const expected = dataLength(header);
  const inflated = inflateSync(idat.length === 1 ? idat[0]! : concat(idat), {
    chunkSize: Math.max(64 * 1024, expected),
    maxOutputLength: expected,
  });
  if (inflated.length !== expected) throw new Error("image data cut short");
  if (!native) return upngRows(png);
  // A plain Uint8Array view: hot loops that see both Buffer and Uint8Array run several times slower in V8.
  const raw = new Uint8Array(inflated.buffer, inflated.byteOffset, inflated.byteLength);
  const rows = nativeRows(raw, header);
  inflatedByBytes.set(png, raw);
  return rows;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function nativeRows(raw: Uint8Array, { width, height, colourType }: Header): PngRows {
  const channels = colourType === 6 ? 4 : 3;
  const stride = width * channels;
  if (raw.length < (stride + 1) * height) throw new Error("image data cut short");
  for (let y = 0; y < height; y++) if (raw[y * (stride + 1)]! > 4) throw new Error(`unknown row filter ${raw[y * (stride + 1)]}`);
  return {
    width,
    height,
    channels,
    scan(visit) {
      // Row buffers with their 4-byte views made once (the rows are swapped, never reallocated).
      const buffer = () => {
        const bytes = new Uint8Array(stride);
        return { bytes, words: new Uint32Array(bytes.buffer, 0, stride >> 2) };
      };
      let previous = buffer();
      let current = buffer();
      const filtered = buffer();
      for (let y = 0; y < height; y++) {
        const from = y * (stride + 1);
        filtered.bytes.set(raw.subarray(from + 1, from + 1 + stride));
        unfilterRow(raw[from]!, filtered, current, previous, channels);
        if (visit(current.bytes, y) === false) return;
        [previous, current] = [current, previous];
      }
    },
  };
}

/** Byte-wise a + b (mod 256 in each byte) of two 4-byte words, with no carry between bytes. */
function addBytes(a: number, b: number): number {
  return ((a & 0x7f7f7f7f) + (b & 0x7f7f7f7f)) ^ ((a ^ b) & 0x80808080);
}

interface RowBuffer {
  bytes: Uint8Array;
  /** The same memory, four bytes at a time (the whole words of the row). */
  words: Uint32Array;
}

/** Undoes one row's PNG filter: `filtered` (an aligned copy of the row's bytes) → `target`, `above` the row above. */
function unfilterRow(type: number, filtered: RowBuffer, target: RowBuffer, above: RowBuffer, bpp: number): void {
  const raw = filtered.bytes, out = target.bytes, up = above.bytes;
  const stride = raw.length;
  const words = filtered.words.length;
  if (type === 0) {
    out.set(raw);
  } else if (type === 2) {
    // Up, the filter most rows of a UI capture use: four bytes at a time.
    const r32 = filtered.words, o32 = target.words, u32 = above.words;
    for (let i = 0; i < words; i++) o32[i] = addBytes(r32[i]!, u32[i]!);
    for (let i = words * 4; i < stride; i++) out[i] = (raw[i]! + up[i]!) & 255;
  } else if (type === 1 && bpp === 4) {
    const r32 = filtered.words, o32 = target.words;
    o32[0] = r32[0]!;
    for (let i = 1; i < words; i++) o32[i] = addBytes(r32[i]!, o32[i - 1]!);
  } else if (type === 1) {
    for (let i = 0; i < bpp; i++) out[i] = raw[i]!;
    for (let i = bpp; i < stride; i++) out[i] = (raw[i]! + out[i - bpp]!) & 255;
  } else if (type === 3) {
    for (let i = 0; i < bpp; i++) out[i] = (raw[i]! + (up[i]! >> 1)) & 255;
    for (let i = bpp; i < stride; i++) out[i] = (raw[i]! + ((out[i - bpp]! + up[i]!) >> 1)) & 255;
  } else {
    for (let i = 0; i < bpp; i++) out[i] = (raw[i]! + up[i]!) & 255;
    for (let i = bpp; i < stride; i++) out[i] = (raw[i]! + paeth(out[i - bpp]!, up[i]!, up[i - bpp]!)) & 255;
  }
}

export function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function upngRows(png: Uint8Array): PngRows {
  const image = UPNG.decode(png.slice().buffer);
  const rgba = new Uint8Array(UPNG.toRGBA8(image)[0]!);
  const { width, height } = image;
  if (width <= 0 || height <= 0 || rgba.length !== width * height * 4) throw new Error("empty frame");
  return {
    width,
    height,
    channels: 4,
    scan(visit) {
      for (let y = 0; y < height; y++) if (visit(rgba.subarray(y * width * 4, (y + 1) * width * 4), y) === false) return;
    },
  };
}
