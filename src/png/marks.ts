/**
 * Set-of-mark drawing: each mark (a number and a box in the full screenshot's pixels) becomes an
 * outline of its box and a solid label carrying the number in white digits, on a copy of an image
 * drawn at `ratio` of the full size. Labels sit inside their box's top-left corner (or another corner
 * when that one is taken), never on top of an earlier label when a free corner exists. Pure.
 */
import { DIGIT_HEIGHT, DIGIT_WIDTH, digitRows } from "./digit_font.ts";
import type { DecodedPng } from "./png_pixels.ts";

export type Rgb = readonly [number, number, number];

/** A number to draw and the box it names, [left, top, width, height] in full-size pixels. */
export interface Mark {
  number: number;
  box: readonly [left: number, top: number, width: number, height: number];
}

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Where one mark is drawn in the image: its outline, its label and the digit size (px per font pixel). */
export interface PlacedMark {
  number: number;
  outline: Rect;
  label: Rect;
  digitScale: number;
  colour: Rgb;
}

/** Label colours, by number modulo their count: saturated, unlike most app backgrounds, white digits readable on each. */
export const MARK_COLOURS: readonly Rgb[] = [[214, 0, 110], [0, 92, 200], [0, 128, 64], [176, 72, 0]];
export const MARK_INK: Rgb = [255, 255, 255];

/** Image pixels per font pixel: digits about 1/40 of the long side tall (25 px at 461×1024), at least 2 px per font pixel. */
export function digitScaleFor(image: { width: number; height: number }): number {
  return Math.max(2, Math.round(Math.max(image.width, image.height) / (DIGIT_HEIGHT * 40)));
}

/** Where each mark goes in an image of `width`×`height` that shows the screen at `ratio` of its size. */
export function placeMarks(marks: readonly Mark[], image: { width: number; height: number; ratio: number }): PlacedMark[] {
  const digitScale = digitScaleFor(image);
  const pad = digitScale;
  const placed: PlacedMark[] = [];
  for (const mark of marks) {
    const [l, t, w, h] = mark.box;
    const outline = clip({
      left: Math.floor(l * image.ratio),
      top: Math.floor(t * image.ratio),
      right: Math.ceil((l + w) * image.ratio),
      bottom: Math.ceil((t + h) * image.ratio),
    }, image);
    if (outline === null) continue;
    const text = String(mark.number);
    const width = text.length * (DIGIT_WIDTH + 1) * digitScale - digitScale + 2 * pad;
    const height = DIGIT_HEIGHT * digitScale + 2 * pad;
    const corners = [
      [outline.left, outline.top],
      [outline.right - width, outline.top],
      [outline.left, outline.bottom - height],
      [outline.right - width, outline.bottom - height],
    ].map(([x, y]) => fit({ left: x!, top: y!, right: x! + width, bottom: y! + height }, image));
    const free = corners.find((c) => !placed.some((p) => overlaps(p.label, c)));
    placed.push({
      number: mark.number,
      outline,
      label: free ?? corners[0]!,
      digitScale,
      colour: MARK_COLOURS[mark.number % MARK_COLOURS.length]!,
    });
  }
  return placed;
}

/** A copy of `image` with every mark drawn: all outlines first, then the labels over them. */
export function drawMarks(image: DecodedPng, marks: readonly Mark[], ratio: number): DecodedPng {
  const out: DecodedPng = { width: image.width, height: image.height, rgba: image.rgba.slice() };
  const placed = placeMarks(marks, { width: image.width, height: image.height, ratio });
  for (const p of placed) {
    const t = Math.max(1, Math.round(p.digitScale / 1.5));
    const { left: l, top: tp, right: r, bottom: b } = p.outline;
    for (
      const edge of [{ left: l, top: tp, right: r, bottom: tp + t }, { left: l, top: b - t, right: r, bottom: b }, {
        left: l,
        top: tp,
        right: l + t,
        bottom: b,
      }, { left: r - t, top: tp, right: r, bottom: b }]
    ) fill(out, edge, p.colour);
  }
  for (const p of placed) {
    fill(out, p.label, p.colour);
    const s = p.digitScale;
    [...String(p.number)].forEach((digit, i) => {
      digitRows(digit).forEach((row, ry) =>
        row.forEach((ink, rx) => {
          if (!ink) return;
          const x = p.label.left + s + (i * (DIGIT_WIDTH + 1) + rx) * s;
          const y = p.label.top + s + ry * s;
          fill(out, { left: x, top: y, right: x + s, bottom: y + s }, MARK_INK);
        })
      );
    });
  }
  return out;
}

function fill(image: DecodedPng, rect: Rect, [r, g, b]: Rgb): void {
  const x0 = Math.max(0, rect.left), x1 = Math.min(image.width, rect.right);
  const y0 = Math.max(0, rect.top), y1 = Math.min(image.height, rect.bottom);
  for (let y = y0; y < y1; y++) {
    for (let x = x0, i = (y * image.width + x0) * 4; x < x1; x++, i += 4) {
      image.rgba[i] = r;
      image.rgba[i + 1] = g;
      image.rgba[i + 2] = b;
      image.rgba[i + 3] = 255;
    }
  }
}

/** The part of a rectangle inside the image, or null when nothing of it is. */
function clip(rect: Rect, image: { width: number; height: number }): Rect | null {
  const out = {
    left: Math.max(0, rect.left),
    top: Math.max(0, rect.top),
    right: Math.min(image.width, rect.right),
    bottom: Math.min(image.height, rect.bottom),
  };
  return out.right > out.left && out.bottom > out.top ? out : null;
}

/** Moves a rectangle (not larger than the image) so that it lies wholly inside the image. */
function fit(rect: Rect, image: { width: number; height: number }): Rect {
  const dx = Math.max(0, -rect.left) - Math.max(0, rect.right - image.width);
  const dy = Math.max(0, -rect.top) - Math.max(0, rect.bottom - image.height);
  return { left: rect.left + dx, top: rect.top + dy, right: rect.right + dx, bottom: rect.bottom + dy };
}

function overlaps(a: Rect, b: Rect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}
