/**
 * Draws the current screen as a real PNG from node bounds: a light background, filled and outlined
 * rectangles whose colours follow the node's type (button, input, toggle, list, container), labels in
 * a tiny bitmap font, and the soft keyboard when it is open. Different screens give different images;
 * only the `blankScreencap` fault gives a one-colour image. Every other image carries a "SIMULATED" badge
 * in the status-bar band at the top, so no screenshot can pass for a real device's. Encoded with upng-js.
 */
import UPNG from "upng-js";
import { allNodes, boundsOf, isInput, type Rect, type SimNode } from "../scenario/sim_node.ts";
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows } from "./glyphs.ts";

type Rgb = readonly [number, number, number];

const BACKGROUND: Rgb = [246, 246, 250];
const INK: Rgb = [32, 33, 36];
const HINT: Rgb = [128, 134, 139];
const KEYBOARD: Rgb = [214, 218, 224];
const KEY: Rgb = [252, 252, 253];
const BADGE: Rgb = [197, 34, 31];
const BADGE_INK: Rgb = [255, 255, 255];

export const SIMULATED_LABEL = "SIMULATED";

/** Where the "SIMULATED" badge sits: a band across the top (the status bar), text centred in it. */
export function simulatedBadge(width: number, height: number): { band: Rect; x: number; y: number; scale: number; ink: Rgb; paper: Rgb } {
  const bandHeight = Math.max(12, Math.round(height * 0.04));
  const scale = Math.max(1, Math.floor((bandHeight * 0.7) / GLYPH_HEIGHT));
  const textWidth = SIMULATED_LABEL.length * (GLYPH_WIDTH + 1) * scale - scale;
  return {
    band: { left: 0, top: 0, right: width, bottom: bandHeight },
    x: Math.max(0, Math.floor((width - textWidth) / 2)),
    y: Math.floor((bandHeight - GLYPH_HEIGHT * scale) / 2),
    scale,
    ink: BADGE_INK,
    paper: BADGE,
  };
}

export interface DrawOptions {
  width: number;
  height: number;
  keyboardTop?: number;
  blank: boolean;
}

class Canvas {
  readonly pixels: Uint8Array;
  constructor(readonly width: number, readonly height: number, fill: Rgb) {
    this.pixels = new Uint8Array(width * height * 4);
    const [r, g, b] = fill;
    for (let i = 0; i < this.pixels.length; i += 4) {
      this.pixels[i] = r;
      this.pixels[i + 1] = g;
      this.pixels[i + 2] = b;
      this.pixels[i + 3] = 255;
    }
  }

  fill(rect: Rect, [r, g, b]: Rgb): void {
    const x0 = Math.max(0, rect.left), x1 = Math.min(this.width, rect.right);
    const y0 = Math.max(0, rect.top), y1 = Math.min(this.height, rect.bottom);
    for (let y = y0; y < y1; y++) {
      let i = (y * this.width + x0) * 4;
      for (let x = x0; x < x1; x++, i += 4) {
        this.pixels[i] = r;
        this.pixels[i + 1] = g;
        this.pixels[i + 2] = b;
      }
    }
  }

  outline(rect: Rect, colour: Rgb, thickness: number): void {
    const { left: l, top: t, right: r, bottom: b } = rect;
    this.fill({ left: l, top: t, right: r, bottom: t + thickness }, colour);
    this.fill({ left: l, top: b - thickness, right: r, bottom: b }, colour);
    this.fill({ left: l, top: t, right: l + thickness, bottom: b }, colour);
    this.fill({ left: r - thickness, top: t, right: r, bottom: b }, colour);
  }

  /** Writes one line of text at (x, y) with square pixels of `scale`, clipped to `clip`. */
  text(value: string, x: number, y: number, scale: number, colour: Rgb, clip: Rect): void {
    let cx = x;
    for (const char of value) {
      if (cx + GLYPH_WIDTH * scale > clip.right) break;
      glyphRows(char).forEach((row, ry) =>
        row.forEach((ink, rx) => {
          if (!ink) return;
          const px = cx + rx * scale, py = y + ry * scale;
          if (py + scale > clip.bottom) return;
          this.fill({ left: px, top: py, right: px + scale, bottom: py + scale }, colour);
        })
      );
      cx += (GLYPH_WIDTH + 1) * scale;
    }
  }
}

function colourOf(node: SimNode): { fill?: Rgb; line?: Rgb } {
  const a = node.attrs;
  if (isInput(node)) return { fill: [255, 255, 255], line: [26, 115, 232] };
  if (a["checkable"] === "true") return { fill: a["checked"] === "true" ? [52, 168, 83] : [189, 193, 198] };
  if (a["clickable"] === "true") return { fill: /Button/.test(a["class"] ?? "") ? [26, 115, 232] : [232, 240, 254], line: [174, 203, 250] };
  if (a["scrollable"] === "true") return { line: [218, 220, 224] };
  if (a["selected"] === "true") return { fill: [210, 227, 252] };
  return {};
}

/** The first line of what a node shows, and whether it is a hint (drawn grey). */
function label(node: SimNode): { text: string; hint: boolean } {
  const a = node.attrs;
  const hint = node.showsHint === true || (!a["text"] && isInput(node) && !!a["hint"]);
  const text = a["text"] || (hint ? a["hint"] ?? "" : "") || a["content-desc"] || "";
  return { text: text.split("\n")[0] ?? "", hint };
}

export function drawScreenPng(roots: readonly SimNode[], options: DrawOptions): Uint8Array {
  const { width, height } = options;
  const canvas = new Canvas(width, height, options.blank ? [0, 0, 0] : BACKGROUND);
  if (!options.blank) {
    const scale = Math.max(2, Math.round(width / 180));
    for (const node of allNodes(roots)) {
      const rect = boundsOf(node);
      if (rect === null || rect.right <= rect.left || rect.bottom <= rect.top) continue;
      const { fill, line } = colourOf(node);
      if (fill !== undefined) canvas.fill(rect, fill);
      if (line !== undefined) canvas.outline(rect, line, Math.max(2, scale >> 1));
      const { text, hint } = label(node);
      if (text !== "") {
        const onBlue = fill !== undefined && fill[2] > 200 && fill[0] < 60;
        const textHeight = GLYPH_HEIGHT * scale;
        const y = rect.top + Math.max(0, Math.floor((rect.bottom - rect.top - textHeight) / 2));
        canvas.text(text, rect.left + 2 * scale, y, scale, onBlue ? [255, 255, 255] : hint ? HINT : INK, rect);
      }
    }
    if (options.keyboardTop !== undefined) drawKeyboard(canvas, options.keyboardTop, scale);
    const badge = simulatedBadge(width, height);
    canvas.fill(badge.band, badge.paper);
    canvas.text(SIMULATED_LABEL, badge.x, badge.y, badge.scale, badge.ink, badge.band);
  }
  const rgba = canvas.pixels;
  return new Uint8Array(UPNG.encode([rgba.buffer as ArrayBuffer], width, height, 0));
}

function drawKeyboard(canvas: Canvas, top: number, scale: number): void {
  const area = { left: 0, top, right: canvas.width, bottom: canvas.height };
  canvas.fill(area, KEYBOARD);
  const rows = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"];
  const rowHeight = Math.floor((canvas.height - top) / 5);
  const keyWidth = Math.floor(canvas.width / 10);
  rows.forEach((keys, r) => {
    const offset = Math.floor(((10 - keys.length) * keyWidth) / 2);
    [...keys].forEach((k, i) => {
      const key = {
        left: offset + i * keyWidth + 6,
        top: top + r * rowHeight + 12,
        right: offset + (i + 1) * keyWidth - 6,
        bottom: top + (r + 1) * rowHeight - 6,
      };
      canvas.fill(key, KEY);
      canvas.text(k, key.left + Math.floor(keyWidth / 2) - 2 * scale, key.top + Math.floor((key.bottom - key.top) / 2) - 2 * scale, scale, INK, key);
    });
  });
  const space = { left: Math.floor(canvas.width * 0.25), top: top + 3 * rowHeight + 12, right: Math.floor(canvas.width * 0.75), bottom: top + 4 * rowHeight - 6 };
  canvas.fill(space, KEY);
}
