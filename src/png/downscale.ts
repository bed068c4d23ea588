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
import { type DecodedPng, decodePng } from "./png_pixels.ts";

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

export function downscaleForModel(png: Uint8Array, options: ModelImageOptions = {}): ModelImage {
  const { maxSide = MODEL_MAX_SIDE, maxBytes = MODEL_MAX_BYTES, marks } = options;
  const image = decodePng(png);
  const longSide = Math.max(image.width, image.height);
  if (marks === undefined && longSide <= maxSide && png.length <= maxBytes) {
    return { bytes: png, mimeType: "image/png", width: image.width, height: image.height, transformed: false };
  }
  let side = Math.min(maxSide, longSide);
  for (;;) {
    let small = boxResize(image, side);
    if (marks !== undefined) small = drawMarks(small, marks, small.width / image.width);
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

/** Box filter: each output pixel averages the source pixels its footprint covers. */
export function boxResize(image: DecodedPng, maxSide: number): DecodedPng {
  const scale = Math.min(1, maxSide / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  if (width === image.width && height === image.height) return image;
  const out = new Uint8Array(width * height * 4);
  const src = image.rgba;
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * image.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * image.height) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * image.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * image.width) / width));
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = y0; sy < y1; sy++) {
        let i = (sy * image.width + x0) * 4;
        for (let sx = x0; sx < x1; sx++, i += 4) {
          r += src[i]!;
          g += src[i + 1]!;
          b += src[i + 2]!;
          a += src[i + 3]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * width + x) * 4;
      out[o] = Math.round(r / n);
      out[o + 1] = Math.round(g / n);
      out[o + 2] = Math.round(b / n);
      out[o + 3] = Math.round(a / n);
    }
  }
  return { width, height, rgba: out };
}
