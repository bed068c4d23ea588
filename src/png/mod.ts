/**
 * Pure PNG work (node:zlib for inflate/deflate), shared by the screenshot tool and the evidence store: decode, size from the header,
 * the one-colour check, the model-sized copy (box filter, byte budget) and set-of-mark drawing.
 * No ports, no I/O; errors are HarnessError EVIDENCE_WRITE_FAILED for bytes that are not a usable PNG.
 */
export { checkScreenshotShowsSomething, type DecodedPng, decodePng, isOneColour, pngOneColour, pngSize, readRows } from "./png_pixels.ts";
export type { PngRows } from "./png_decode.ts";
export {
  boxResize,
  boxResizeRows,
  downscaleForModel,
  MODEL_MAX_BYTES,
  MODEL_MAX_SIDE,
  type ModelImage,
  type ModelImageOptions,
} from "./downscale.ts";
export { drawMarks, type Mark, MARK_COLOURS, MARK_INK, type PlacedMark, placeMarks } from "./marks.ts";
export { DIGIT_HEIGHT, DIGIT_WIDTH, digitRows } from "./digit_font.ts";
export { encodePng } from "./encode_png.ts";
export {
  compareFingerprints,
  FINGERPRINT_CELLS,
  FINGERPRINT_DEFAULT_MIN_MATCH,
  FINGERPRINT_DEFAULT_TOLERANCE,
  FINGERPRINT_STATUS_BAR_SHARE,
  type FingerprintMatch,
  isFingerprint,
  screenFingerprint,
} from "./fingerprint.ts";
