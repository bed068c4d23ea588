/**
 * RGBA pixels → PNG bytes with upng-js: `colours` 0 is lossless (palette forbidden, because upng-js
 * truncates tiny palette PNGs), 256 quantizes to a palette. The input pixels are not modified.
 */
import UPNG from "upng-js";
import type { DecodedPng } from "./png_pixels.ts";

type EncodeWithOptions = (b: ArrayBuffer[], w: number, h: number, c: number, d?: number[], forbidPlte?: boolean) => ArrayBuffer;

export function encodePng(image: DecodedPng, colours: 0 | 256): Uint8Array {
  const buffer = image.rgba.slice().buffer;
  const encode = UPNG.encode as unknown as EncodeWithOptions;
  return new Uint8Array(encode([buffer], image.width, image.height, colours, undefined, colours === 0));
}
