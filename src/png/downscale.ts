/**
 * `downscaleForModel`: the screenshot an MCP client shows the model. Long side ≤ 1024 px (box
 * filter), re-encoded as PNG; when the lossless PNG is over the byte budget (clients with a 1 MB
 * limit count base64, so the default budget is 700 000 bytes), it is quantized to 256 colours, then
 * shrunk further. With `marks`, each size is drawn with the numbered marks (set-of-mark) before it is
 * encoded. Without marks, the input is returned unchanged when it already fits. Throws only
 * EVIDENCE_WRITE_FAILED for undecodable input.
 */
import { encodePng } from "./encode_png.ts";
import { drawMarks, type Mark } from "./marks.ts";
import type { PngRows } from "./png_decode.ts";
import { type DecodedPng, readRows } from "./png_pixels.ts";

export interface ModelImage {
  bytes: Uint8Array;
  mimeType: "image/png";
  width: number;
  height: number;
  /** True when pixels were resized, marked or re-encoded (false: the original bytes). */
  transformed: boolean;
}

export interface ModelImageOptions {
  /** Longest side in pixels (default MODEL_MAX_SIDE). */
  maxSide?: number;
  /** Largest PNG in bytes (default MODEL_MAX_BYTES). */
  maxBytes?: number;
  /** Numbered boxes (full-size pixels) to draw on the image; none by default. */
  marks?: readonly Mark[];
}

export const MODEL_MAX_SIDE = 1024;
export const MODEL_MAX_BYTES = 700_000;

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

export function downscaleForModel(png: Uint8Array, options: ModelImageOptions = {}): ModelImage {
  const { maxSide = MODEL_MAX_SIDE, maxBytes = MODEL_MAX_BYTES, marks } = options;
  const rows = readRows(png);
  const longSide = Math.max(rows.width, rows.height);
  if (marks === undefined && longSide <= maxSide && png.length <= maxBytes) {
    rows.scan(() => true); // the bytes handed on must be a whole PNG, as for a resized one
    return { bytes: png, mimeType: "image/png", width: rows.width, height: rows.height, transformed: false };
  }
  let side = Math.min(maxSide, longSide);
  for (;;) {
    let small = boxResizeRows(rows, side);
    if (marks !== undefined) small = drawMarks(small, marks, small.width / rows.width);
    const lossless = encodePng(small, 0);
    if (lossless.length <= maxBytes) return result(lossless, small);
    const quantized = encodePng(small, 256);
    if (quantized.length <= maxBytes || side <= 128) return result(quantized, small);
    side = Math.floor(side * 0.75);
  }
}

function result(bytes: Uint8Array, image: DecodedPng): ModelImage {
  return { bytes, mimeType: "image/png", width: image.width, height: image.height, transformed: true };
}

/** Box filter on decoded pixels (see boxResizeRows). */
export function boxResize(image: DecodedPng, maxSide: number): DecodedPng {
  const { width, height, rgba } = image;
  return boxResizeRows({
    width,
    height,
    channels: 4,
    scan: (visit) => {
      for (let y = 0; y < height; y++) if (visit(rgba.subarray(y * width * 4, (y + 1) * width * 4), y) === false) return;
    },
  }, maxSide);
}

/**
 * Box filter: each output pixel averages the source pixels its footprint covers. One pass over the
 * source rows as they are decoded (the full-size image is never built): each row is added once into
 * the column sums of its output row, which is written out when its last source row has been added.
 */
export function boxResizeRows(rows: PngRows, maxSide: number): DecodedPng {
  const scale = Math.min(1, maxSide / Math.max(rows.width, rows.height));
  const width = Math.max(1, Math.round(rows.width * scale));
  const height = Math.max(1, Math.round(rows.height * scale));
  const n = rows.channels;
  const out = new Uint8Array(width * height * 4);
  const columnOf = new Uint32Array(rows.width);
  const columnStart = new Uint32Array(width + 1);
  const columnCount = new Uint32Array(width);
  for (let x = 0; x < width; x++) {
    const x0 = Math.floor((x * rows.width) / width);
    const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * rows.width) / width));
    for (let sx = x0; sx < x1; sx++) columnOf[sx] = x * 4;
    columnStart[x] = x0;
    columnStart[x + 1] = x1;
    columnCount[x] = x1 - x0;
  }
  const rowBounds = (y: number) => {
    const y0 = Math.floor((y * rows.height) / height);
    return [y0, Math.max(y0 + 1, Math.floor(((y + 1) * rows.height) / height))] as const;
  };
  const sums = new Uint32Array(width * 4);
  const lanes = new Uint32Array(width * 2);
  // A 16-bit lane holds the sum of 257 bytes: footprints larger than that (a tiny copy of a huge image) add bytes.
  const footprint = Math.max(...columnCount) * Math.ceil(rows.height / height + 1);
  const wordRows = n === 4 && LITTLE_ENDIAN && footprint <= 257;
  let y = 0;
  let [y0, y1] = rowBounds(0);
  rows.scan((row, sy) => {
    if (sy < y0) return true; // source rows no output row covers (none for a shrink; kept for safety)
    if (wordRows && row.byteOffset % 4 === 0) foldWords(new Uint32Array(row.buffer, row.byteOffset, rows.width), columnStart, lanes);
    else foldBytes(row, n, columnOf, sums);
    if (sy + 1 < y1) return true;
    emitRow(lanes, sums, columnCount, y1 - y0, out, y * width * 4);
    y++;
    if (y === height) return false;
    [y0, y1] = rowBounds(y);
    return true;
  });
  return { width, height, rgba: out };
}

/** Adds one RGBA row, read as words, to its output row's lanes: a word's R and B (and its G and A) in two 16-bit
 * lanes, two channels per add (the caller keeps footprints within the 257 pixels a lane can sum). */
function foldWords(words: Uint32Array, columnStart: Uint32Array, lanes: Uint32Array): void {
  const width = columnStart.length - 1;
  for (let x = 0; x < width; x++) {
    let rb = 0, ga = 0;
    for (let sx = columnStart[x]!, end = columnStart[x + 1]!; sx < end; sx++) {
      const w = words[sx]!;
      rb += w & 0x00ff00ff;
      ga += (w >>> 8) & 0x00ff00ff;
    }
    lanes[2 * x] += rb;
    lanes[2 * x + 1] += ga;
  }
}

/** Adds one row of `n` bytes per pixel (RGB: alpha 255) to its output row's sums, a channel at a time. */
function foldBytes(row: Uint8Array, n: number, columnOf: Uint32Array, sums: Uint32Array): void {
  for (let sx = 0, i = 0; sx < columnOf.length; sx++, i += n) {
    const s = columnOf[sx]!;
    sums[s] += row[i]!;
    sums[s + 1] += row[i + 1]!;
    sums[s + 2] += row[i + 2]!;
    sums[s + 3] += n === 4 ? row[i + 3]! : 255;
  }
}

/** Writes one output row (the averages of its sums and lanes) at `offset`, then clears both for the next. */
function emitRow(
  lanes: Uint32Array,
  sums: Uint32Array,
  columnCount: Uint32Array,
  rowsCovered: number,
  out: Uint8Array,
  offset: number,
): void {
  const width = columnCount.length;
  for (let x = 0, o = offset, s = 0; x < width; x++, o += 4, s += 4) {
    const rb = lanes[2 * x]!, ga = lanes[2 * x + 1]!;
    const count = rowsCovered * columnCount[x]!;
    out[o] = Math.round((sums[s]! + (rb & 0xffff)) / count);
    out[o + 1] = Math.round((sums[s + 1]! + (ga & 0xffff)) / count);
    out[o + 2] = Math.round((sums[s + 2]! + (rb >>> 16)) / count);
    out[o + 3] = Math.round((sums[s + 3]! + (ga >>> 16)) / count);
  }
  lanes.fill(0);
  sums.fill(0);
}
