/**
 * Reads set-of-mark labels back from decoded pixels, independently of where marks.ts meant to put
 * them: searches a region for a solid label in the number's colour whose white digits spell the
 * number in the 3×5 digit font, at any digit size from 2 to 8 px per font pixel.
 */
import { type DecodedPng, DIGIT_HEIGHT, DIGIT_WIDTH, digitRows, MARK_COLOURS, MARK_INK } from "../../src/png/mod.ts";

export interface Region {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface FoundMark {
  left: number;
  top: number;
  width: number;
  height: number;
  digitScale: number;
}

/** Where a label showing `number` starts (its top-left pixel) inside `region`, or null when none does. */
export function findMark(image: DecodedPng, number: number, region: Region): FoundMark | null {
  const colour = MARK_COLOURS[number % MARK_COLOURS.length]!;
  const text = String(number);
  const at = (x: number, y: number) => {
    const i = (y * image.width + x) * 4;
    return [image.rgba[i], image.rgba[i + 1], image.rgba[i + 2]];
  };
  const is = (x: number, y: number, rgb: readonly number[]) => {
    if (x < 0 || y < 0 || x >= image.width || y >= image.height) return false;
    const p = at(x, y);
    return p[0] === rgb[0] && p[1] === rgb[1] && p[2] === rgb[2];
  };
  const y0 = Math.max(0, region.top), y1 = Math.min(image.height, region.bottom);
  const x0 = Math.max(0, region.left), x1 = Math.min(image.width, region.right);
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (!is(x, y, colour)) continue;
      for (const s of [2, 3, 4, 5, 6, 7, 8]) {
        if (labelAt(x, y, s)) {
          return { left: x, top: y, width: text.length * (DIGIT_WIDTH + 1) * s + s, height: DIGIT_HEIGHT * s + 2 * s, digitScale: s };
        }
      }
    }
  }
  return null;

  function labelAt(x: number, y: number, s: number): boolean {
    // Padding of s pixels, then each digit cell; every font pixel's centre is ink or the label colour.
    if (!is(x + s - 1, y + s - 1, colour)) return false;
    return [...text].every((digit, i) =>
      digitRows(digit).every((row, ry) =>
        row.every((ink, rx) => {
          const px = x + s + (i * (DIGIT_WIDTH + 1) + rx) * s + (s >> 1);
          const py = y + s + ry * s + (s >> 1);
          return is(px, py, ink ? MARK_INK : colour);
        })
      )
    );
  }
}
