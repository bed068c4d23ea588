/**
 * PNGs for the evidence tests: the real corpus screenshots, and small images made with upng-js
 * (palette forbidden: upng-js truncates tiny palette PNGs).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import UPNG from "upng-js";
import { CORPUS_DIR } from "../support/paths.ts";

export function corpusPngs(): { name: string; bytes: Uint8Array }[] {
  return readdirSync(CORPUS_DIR).filter((n) => n.endsWith(".png")).sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(CORPUS_DIR, name))) }));
}

export function makePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number, number]): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rgba.set(pixel(x, y), (y * width + x) * 4);
  }
  const encode = UPNG.encode as unknown as (
    b: ArrayBuffer[],
    w: number,
    h: number,
    c: number,
    d?: number[],
    forbidPlte?: boolean,
  ) => ArrayBuffer;
  return new Uint8Array(encode([rgba.buffer], width, height, 0, undefined, true));
}

export const flatPng = (colour: [number, number, number, number] = [0, 0, 0, 255]) => makePng(64, 48, () => colour);
export const stripedPng = () => makePng(64, 48, (x) => (x < 32 ? [255, 255, 255, 255] : [20, 40, 200, 255]));
