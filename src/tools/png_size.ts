/**
 * Width and height of a PNG from its IHDR chunk, without decoding pixels. Throws
 * EVIDENCE_WRITE_FAILED when the bytes are not a PNG (the device returned something else).
 */
import { HarnessError } from "../errors.ts";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function pngSize(png: Uint8Array): { width: number; height: number } {
  const isPng = png.length >= 24 && SIGNATURE.every((byte, i) => png[i] === byte) &&
    String.fromCharCode(...png.subarray(12, 16)) === "IHDR";
  if (!isPng) {
    throw new HarnessError("EVIDENCE_WRITE_FAILED", `The screenshot is not a PNG (${png.length} bytes). Check that the device's screencap works, then retry.`);
  }
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
