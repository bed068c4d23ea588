/**
 * PNG reading for the evidence path: size from the header alone (pngSize), RGBA pixels (decodePng), and
 * whether every pixel is the same colour (a headless emulator's broken graphics stack returns a valid
 * one-colour PNG), checked on the decoded rows and stopped at the first pixel that differs (no full image
 * is built). Rows come from png_decode.ts (the runtime's zlib; upng-js for rare formats). Throws
 * EVIDENCE_WRITE_FAILED for bytes that are not a decodable PNG. Screenshot byte arrays are never
 * modified after capture.
 */
import { HarnessError } from "../errors.ts";
import { type PngRows, pngRows } from "./png_decode.ts";

export interface DecodedPng {
  width: number;
  height: number;
  /** RGBA, 8 bits per channel, row-major. */
  rgba: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from the IHDR chunk, without decoding pixels; EVIDENCE_WRITE_FAILED when not a PNG. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  checkPngHeader(png);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Signature, then an IHDR chunk first (the header every PNG starts with: 8 + 25 bytes). */
function checkPngHeader(png: Uint8Array): void {
  const isPng = png.length >= 33 && SIGNATURE.every((byte, i) => png[i] === byte) &&
    String.fromCharCode(...png.subarray(12, 16)) === "IHDR";
  if (!isPng) {
    throw new HarnessError(
      "EVIDENCE_WRITE_FAILED",
      `The screenshot is not a PNG (${png.length} bytes${
        png.length > 0 ? `, starting ${describeStart(png)}` : ""
      }); retry, and check that screencap works on the device.`,
    );
  }
}

/** The rows of a PNG, every row visited once (a visitor's throw is not a decoding fault and passes through). */
export function readRows(png: Uint8Array): PngRows {
  checkPngHeader(png);
  let rows: PngRows;
  try {
    rows = pngRows(png);
    if (rows.width <= 0 || rows.height <= 0) throw new Error("empty frame");
  } catch {
    throw undecodable(png);
  }
  return rows;
}

function undecodable(png: Uint8Array): HarnessError {
  // zlib's or upng-js's own text ("Cannot read properties of undefined …") says nothing to a user: not repeated.
  return new HarnessError(
    "EVIDENCE_WRITE_FAILED",
    `The screenshot PNG cannot be decoded (${png.length} bytes): it is damaged or incomplete; retry the call.`,
  );
}

export function decodePng(png: Uint8Array): DecodedPng {
  const rows = readRows(png);
  const { width, height } = rows;
  const rgba = new Uint8Array(width * height * 4);
  rows.scan((row, y) => {
    if (rows.channels === 4) {
      rgba.set(row, y * width * 4);
      return;
    }
    for (let x = 0, i = 0, o = y * width * 4; x < width; x++, i += 3, o += 4) {
      rgba[o] = row[i]!;
      rgba[o + 1] = row[i + 1]!;
      rgba[o + 2] = row[i + 2]!;
      rgba[o + 3] = 255;
    }
  });
  return { width, height, rgba };
}

/** True when every pixel has exactly the same RGBA value. */
export function isOneColour(image: DecodedPng): boolean {
  const words = new Uint32Array(image.rgba.buffer, image.rgba.byteOffset, image.rgba.length / 4);
  const first = words[0];
  for (let i = 1; i < words.length; i++) if (words[i] !== first) return false;
  return true;
}

/** The colour of every pixel when the PNG is one colour (RGBA), else null; stops at the first pixel that differs. */
export function pngOneColour(png: Uint8Array): [number, number, number, number] | null {
  const rows = readRows(png);
  const n = rows.channels;
  let first: [number, number, number, number] | null = null;
  let same = true;
  rows.scan((row) => {
    first ??= [row[0]!, row[1]!, row[2]!, n === 4 ? row[3]! : 255];
    const [r, g, b, a] = first;
    for (let i = 0; i < row.length; i += n) {
      if (row[i] !== r || row[i + 1] !== g || row[i + 2] !== b || (n === 4 && row[i + 3] !== a)) {
        same = false;
        return false;
      }
    }
    return true;
  });
  return same ? first : null;
}

/** Refuses a one-colour image (EVIDENCE_WRITE_FAILED saying what to do); returns its size. */
export function checkScreenshotShowsSomething(png: Uint8Array): { width: number; height: number } {
  const colour = pngOneColour(png);
  const { width, height } = pngSize(png);
  if (colour !== null) {
    const [r, g, b, a] = colour;
    throw new HarnessError(
      "EVIDENCE_WRITE_FAILED",
      `The screenshot is one flat colour (rgba ${r},${g},${b},${a}, ${width}x${height}): the screen is off, secure, or the emulator's graphics are broken. Wake the device or restart the emulator with working graphics, then retry.`,
      { width, height },
    );
  }
  return { width, height };
}

function describeStart(png: Uint8Array): string {
  const head = Buffer.from(png.subarray(0, 24)).toString("latin1").replace(/[^\x20-\x7e]/g, ".");
  return JSON.stringify(head);
}
