/**
 * PNG decoding with upng-js: size from the header alone (pngSize), RGBA pixels, and whether every pixel is
 * the same colour (a headless emulator's broken graphics stack returns a valid one-colour PNG).
 * Throws EVIDENCE_WRITE_FAILED for bytes that are not a decodable PNG. The last decodes are remembered
 * per byte array (WeakMap, so nothing is kept alive): the evidence check and the model-sized copy of
 * one screenshot decode it once. Screenshot byte arrays are never modified after capture.
 */
import UPNG from "upng-js";
import { HarnessError } from "../errors.ts";

export interface DecodedPng {
  width: number;
  height: number;
  /** RGBA, 8 bits per channel, row-major. */
  rgba: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const decodedByBytes = new WeakMap<Uint8Array, DecodedPng>();

export function decodePng(png: Uint8Array): DecodedPng {
  const known = decodedByBytes.get(png);
  if (known !== undefined) return known;
  const image = decodeUncached(png);
  decodedByBytes.set(png, image);
  return image;
}

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
    throw new HarnessError("EVIDENCE_WRITE_FAILED",
      `The screenshot is not a PNG (${png.length} bytes${png.length > 0 ? `, starting ${describeStart(png)}` : ""}); retry, and check that screencap works on the device.`);
  }
}

function decodeUncached(png: Uint8Array): DecodedPng {
  checkPngHeader(png);
  try {
    const copy = png.slice().buffer;
    const image = UPNG.decode(copy);
    const rgba = new Uint8Array(UPNG.toRGBA8(image)[0]!);
    if (image.width <= 0 || image.height <= 0 || rgba.length !== image.width * image.height * 4) throw new Error("empty frame");
    return { width: image.width, height: image.height, rgba };
  } catch {
    // upng-js's own text ("Cannot read properties of undefined …") says nothing to a user: not repeated.
    throw new HarnessError("EVIDENCE_WRITE_FAILED",
      `The screenshot PNG cannot be decoded (${png.length} bytes): it is damaged or incomplete; retry the call.`);
  }
}

/** True when every pixel has exactly the same RGBA value. */
export function isOneColour(image: DecodedPng): boolean {
  const words = new Uint32Array(image.rgba.buffer, image.rgba.byteOffset, image.rgba.length / 4);
  const first = words[0];
  for (let i = 1; i < words.length; i++) if (words[i] !== first) return false;
  return true;
}

/** Decodes and refuses a one-colour image; returns the decoded image for further use. */
export function checkScreenshotShowsSomething(png: Uint8Array): DecodedPng {
  const image = decodePng(png);
  if (isOneColour(image)) {
    const [r, g, b, a] = image.rgba;
    throw new HarnessError("EVIDENCE_WRITE_FAILED",
      `The screenshot is one flat colour (rgba ${r},${g},${b},${a}, ${image.width}x${image.height}): the screen is off, secure, or the emulator's graphics are broken. Wake the device or restart the emulator with working graphics, then retry.`,
      { width: image.width, height: image.height });
  }
  return image;
}

function describeStart(png: Uint8Array): string {
  const head = Buffer.from(png.subarray(0, 24)).toString("latin1").replace(/[^\x20-\x7e]/g, ".");
  return JSON.stringify(head);
}
