/**
 * The screen fingerprint (issue 26, after waydroid-mcp's): a screenshot reduced to a coarse grid of mean
 * brightness, for screens no selector can confirm (a game, a canvas: an empty accessibility tree). The grid is
 * 8 cells along the long side and 5 along the short one (40 cells; a portrait phone 5 wide and 8 high), over the
 * image below the status bar: the top `topPx` rows are left out, by default the top 1/16 of the height (a status
 * bar is 24 to 52 dp: 2.6 % to 6 % of a phone's height; its clock and icons change on their own). A cell's value
 * is the mean Rec. 601 luma (0.299 R + 0.587 G + 0.114 B) of its pixels, rounded to 0–255, alpha ignored
 * (screencap is opaque); written as 80 lowercase hex digits, row by row from the top left. Two fingerprints
 * match when enough cells (`minMatch`, default 0.85, as a share of the 40) differ by at most `tolerance` (default
 * 14): animation and anti-aliasing change pixels, not a screen's coarse brightness. Pure: PNG bytes in
 * (any format png_decode.ts reads: RGB/RGBA 8-bit natively, palette, grey and 16-bit through upng-js), a string
 * out; EVIDENCE_WRITE_FAILED for bytes that are not a decodable PNG (png_pixels.ts).
 */
import { readRows } from "./png_pixels.ts";

export const FINGERPRINT_LONG_SIDE_CELLS = 8;
export const FINGERPRINT_SHORT_SIDE_CELLS = 5;
export const FINGERPRINT_CELLS = FINGERPRINT_LONG_SIDE_CELLS * FINGERPRINT_SHORT_SIDE_CELLS;
/** The share of the height left out at the top when the status bar's height is not known. */
export const FINGERPRINT_STATUS_BAR_SHARE = 1 / 16;
export const FINGERPRINT_DEFAULT_TOLERANCE = 14;
export const FINGERPRINT_DEFAULT_MIN_MATCH = 0.85;

const HEX = /^[0-9a-f]+$/;

export interface FingerprintOptions {
  /** Rows left out at the top (the status bar's height in px); default the top 1/16 of the height. */
  topPx?: number;
}

/** The fingerprint of a PNG screenshot: 80 lowercase hex digits (40 cells, one byte each). */
export function screenFingerprint(png: Uint8Array, options: FingerprintOptions = {}): string {
  const rows = readRows(png);
  const { width, height, channels } = rows;
  const landscape = width > height;
  const columns = landscape ? FINGERPRINT_LONG_SIDE_CELLS : FINGERPRINT_SHORT_SIDE_CELLS;
  const gridRows = landscape ? FINGERPRINT_SHORT_SIDE_CELLS : FINGERPRINT_LONG_SIDE_CELLS;
  // The strip left out never takes a grid row's last pixel row (an image too small keeps every row).
  const wanted = Math.max(0, Math.round(options.topPx ?? height * FINGERPRINT_STATUS_BAR_SHARE));
  const top = height - wanted >= gridRows ? wanted : 0;
  const columnOf = new Uint8Array(width);
  for (let x = 0; x < width; x++) columnOf[x] = Math.min(columns - 1, Math.floor((x * columns) / width));
  const sums = new Float64Array(FINGERPRINT_CELLS);
  const counts = new Float64Array(FINGERPRINT_CELLS);
  const rowSums = new Float64Array(columns);
  const rowCounts = new Uint32Array(columns);
  rows.scan((row, y) => {
    if (y < top) return true;
    const base = Math.floor(((y - top) * gridRows) / (height - top)) * columns;
    rowSums.fill(0);
    rowCounts.fill(0);
    for (let x = 0, i = 0; x < width; x++, i += channels) {
      const c = columnOf[x]!;
      rowSums[c] += 299 * row[i]! + 587 * row[i + 1]! + 114 * row[i + 2]!;
      rowCounts[c]++;
    }
    for (let c = 0; c < columns; c++) {
      sums[base + c] += rowSums[c]!;
      counts[base + c] += rowCounts[c]!;
    }
    return true;
  });
  let out = "";
  for (let cell = 0; cell < FINGERPRINT_CELLS; cell++) {
    const mean = counts[cell]! === 0 ? 0 : Math.round(sums[cell]! / 1000 / counts[cell]!);
    out += mean.toString(16).padStart(2, "0");
  }
  return out;
}

/** Whether a string is a fingerprint as screenFingerprint writes it. */
export function isFingerprint(value: string): boolean {
  return value.length === FINGERPRINT_CELLS * 2 && HEX.test(value);
}

export interface FingerprintCompareOptions {
  /** The largest brightness difference (0–255) at which a cell still matches; default 14. */
  tolerance?: number;
  /** The share of cells (0–1) that must match; default 0.85. */
  minMatch?: number;
}

export interface FingerprintMatch {
  /** Whether at least `minMatch` of the cells matched. */
  met: boolean;
  matched: number;
  cells: number;
  tolerance: number;
  minMatch: number;
}

/**
 * Compares two fingerprints cell by cell: a cell whose brightness differs by exactly `tolerance` matches, one more
 * does not; a share of matching cells exactly at `minMatch` passes. Throws a plain Error for a string that is not a
 * fingerprint (callers check their input with isFingerprint or the flow file's schema first).
 */
export function compareFingerprints(expected: string, actual: string, options: FingerprintCompareOptions = {}): FingerprintMatch {
  const tolerance = options.tolerance ?? FINGERPRINT_DEFAULT_TOLERANCE;
  const minMatch = options.minMatch ?? FINGERPRINT_DEFAULT_MIN_MATCH;
  if (!isFingerprint(expected) || !isFingerprint(actual)) throw new Error("not a screen fingerprint (80 lowercase hex digits)");
  let matched = 0;
  for (let i = 0; i < expected.length; i += 2) {
    const a = parseInt(expected.slice(i, i + 2), 16), b = parseInt(actual.slice(i, i + 2), 16);
    if (Math.abs(a - b) <= tolerance) matched++;
  }
  // matched / cells is correctly rounded, so 34 / 40 equals the literal 0.85: the threshold itself passes.
  return { met: matched / FINGERPRINT_CELLS >= minMatch, matched, cells: FINGERPRINT_CELLS, tolerance, minMatch };
}
