/**
 * The RGBA canvas the simulated screenshots are drawn on: crisp rectangles and bitmap text (the
 * SIMULATED badge, keyboard keys), and anti-aliased shapes and text with the soft edges of a real
 * screen (coverage computed exactly per pixel, so edges carry many grey levels as on a device).
 */
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows } from "./glyphs.ts";

export type Rgb = readonly [number, number, number];

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export class Canvas {
  readonly pixels: Uint8Array;

  constructor(readonly width: number, readonly height: number, fill: Rgb | Uint8Array) {
    if (fill instanceof Uint8Array) {
      this.pixels = fill.byteOffset % 4 === 0 ? fill : fill.slice(); // word-aligned, for fill()
      return;
    }
    this.pixels = new Uint8Array(width * height * 4);
    this.fill({ left: 0, top: 0, right: width, bottom: height }, fill);
  }

  fill(rect: Rect, [r, g, b]: Rgb): void {
    const x0 = Math.max(0, Math.round(rect.left)), x1 = Math.min(this.width, Math.round(rect.right));
    const y0 = Math.max(0, Math.round(rect.top)), y1 = Math.min(this.height, Math.round(rect.bottom));
    if (x1 <= x0 || y1 <= y0) return;
    // One 32-bit word per pixel, filled natively: a full-width rectangle (the background) in one call, else row by row
    // (a screen-sized fill pixel by pixel was most of a simulated screenshot's drawing time).
    const word = this.#words(), colour = rgbaWord(r, g, b);
    if (x0 === 0 && x1 === this.width) word.fill(colour, y0 * this.width, y1 * this.width);
    else for (let y = y0; y < y1; y++) word.fill(colour, y * this.width + x0, y * this.width + x1);
  }

  #wordView: Uint32Array | null = null;

  /** The pixels as one 32-bit word each (RGBA in memory order). */
  #words(): Uint32Array {
    return this.#wordView ??= new Uint32Array(this.pixels.buffer, this.pixels.byteOffset, this.width * this.height);
  }

  outline(rect: Rect, colour: Rgb, thickness: number): void {
    const { left: l, top: t, right: r, bottom: b } = rect;
    this.fill({ left: l, top: t, right: r, bottom: t + thickness }, colour);
    this.fill({ left: l, top: b - thickness, right: r, bottom: b }, colour);
    this.fill({ left: l, top: t, right: l + thickness, bottom: b }, colour);
    this.fill({ left: r - thickness, top: t, right: r, bottom: b }, colour);
  }

  /** Mixes `colour` into one pixel with weight `alpha` (0–1); outside the canvas or `clip`: nothing. */
  blend(x: number, y: number, [r, g, b]: Rgb, alpha: number, clip?: Rect): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || alpha <= 0) return;
    if (clip !== undefined && (x < clip.left || x >= clip.right || y < clip.top || y >= clip.bottom)) return;
    const a = Math.min(1, alpha);
    const i = (y * this.width + x) * 4;
    this.pixels[i] = Math.round(this.pixels[i]! + (r - this.pixels[i]!) * a);
    this.pixels[i + 1] = Math.round(this.pixels[i + 1]! + (g - this.pixels[i + 1]!) * a);
    this.pixels[i + 2] = Math.round(this.pixels[i + 2]! + (b - this.pixels[i + 2]!) * a);
  }

  /** One line of crisp bitmap text at (x, y), square pixels of `scale`, clipped to `clip`. */
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

  /**
   * One line of anti-aliased text whose capitals are `size` px tall, left edge `x`, top `y` (fractional
   * allowed); lower-case letters are drawn smaller on the same baseline, as real text looks. Each glyph of
   * the bitmap font is drawn as round strokes joining its ink pixels, so edges are curved and soft like
   * a real font's. Stops at the clip's right edge; returns the width drawn.
   */
  smoothText(value: string, x: number, y: number, size: number, colour: Rgb, clip: Rect): number {
    const cell = size / GLYPH_HEIGHT;
    let cx = x;
    for (const char of value) {
      const c = isLowerCase(char) ? cell * 0.75 : cell;
      if (cx + GLYPH_WIDTH * c > clip.right) break;
      if (char.trim() !== "") this.#strokeGlyph(char, cx, y + GLYPH_HEIGHT * (cell - c), c, colour, clip);
      cx += glyphAdvance(char, cell);
    }
    return cx - x;
  }

  #strokeGlyph(char: string, left: number, top: number, cell: number, colour: Rgb, clip: Rect): void {
    // Sub-pixel positions are kept to a quarter pixel, so a repeated letter reuses its coverage mask.
    const fx = Math.round((left - Math.floor(left)) * 4) / 4, fy = Math.round((top - Math.floor(top)) * 4) / 4;
    const mask = glyphMask(char, cell, fx, fy);
    const x0 = Math.floor(left), y0 = Math.floor(top);
    for (let y = 0; y < mask.height; y++) {
      for (let x = 0; x < mask.width; x++) {
        const alpha = mask.alpha[y * mask.width + x]!;
        if (alpha > 0) this.blend(x0 + x, y0 + y, colour, alpha, clip);
      }
    }
  }

  /** A disc with an anti-aliased edge (coverage from the distance to the centre). */
  disc(cx: number, cy: number, radius: number, colour: Rgb, clip?: Rect): void {
    const x0 = Math.floor(cx - radius - 1), x1 = Math.ceil(cx + radius + 1);
    const y0 = Math.floor(cy - radius - 1), y1 = Math.ceil(cy + radius + 1);
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
        this.blend(x, y, colour, radius + 0.5 - d, clip);
      }
    }
  }

  /** A straight stroke of `width` px with round ends and anti-aliased edges (an icon's line). */
  line(x0: number, y0: number, x1: number, y1: number, width: number, colour: Rgb, clip?: Rect): void {
    const r = width / 2;
    for (let y = Math.floor(Math.min(y0, y1) - r - 1); y < Math.ceil(Math.max(y0, y1) + r + 1); y++) {
      for (let x = Math.floor(Math.min(x0, x1) - r - 1); x < Math.ceil(Math.max(x0, x1) + r + 1); x++) {
        this.blend(x, y, colour, r + 0.5 - distanceToSegment(x + 0.5, y + 0.5, [x0, y0, x1, y1]), clip);
      }
    }
  }

  /** A rectangle with rounded corners of `radius` and anti-aliased corners. */
  roundRect(rect: Rect, radius: number, colour: Rgb, clip?: Rect): void {
    const r = Math.max(0, Math.min(radius, (rect.right - rect.left) / 2, (rect.bottom - rect.top) / 2));
    for (let y = Math.floor(rect.top); y < Math.ceil(rect.bottom); y++) {
      for (let x = Math.floor(rect.left); x < Math.ceil(rect.right); x++) {
        const px = x + 0.5, py = y + 0.5;
        const dx = Math.max(rect.left + r - px, 0, px - (rect.right - r));
        const dy = Math.max(rect.top + r - py, 0, py - (rect.bottom - r));
        const inside = dx === 0 && dy === 0 ? 1 : r + 0.5 - Math.hypot(dx, dy);
        this.blend(x, y, colour, inside, clip);
      }
    }
  }
}

/** One opaque pixel as the 32-bit word whose bytes in memory are r, g, b, 255 (on either byte order). */
function rgbaWord(r: number, g: number, b: number): number {
  littleEndian ??= new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
  const [c0, c1, c2] = [r & 255, g & 255, b & 255];
  return (littleEndian ? (255 << 24) | (c2 << 16) | (c1 << 8) | c0 : (c0 << 24) | (c1 << 16) | (c2 << 8) | 255) >>> 0;
}

let littleEndian: boolean | null = null;

/** A stroke between two ink-pixel centres of a glyph (a dot when both ends are the same), in cells. */
type Stroke = readonly [x0: number, y0: number, x1: number, y1: number];

const strokeCache = new Map<string, Stroke[]>();

/** The strokes of a glyph: every ink pixel joined to its ink neighbours (diagonals only where no corner joins them). */
function strokesOf(char: string): Stroke[] {
  const known = strokeCache.get(char);
  if (known !== undefined) return known;
  const rows = glyphRows(char);
  const ink = (x: number, y: number) => rows[y]?.[x] === true;
  const strokes: Stroke[] = [];
  for (let y = 0; y < GLYPH_HEIGHT; y++) {
    for (let x = 0; x < GLYPH_WIDTH; x++) {
      if (!ink(x, y)) continue;
      const from = [x + 0.5, y + 0.5] as const;
      strokes.push([...from, ...from]);
      if (ink(x + 1, y)) strokes.push([...from, x + 1.5, y + 0.5]);
      if (ink(x, y + 1)) strokes.push([...from, x + 0.5, y + 1.5]);
      if (ink(x + 1, y + 1) && !ink(x + 1, y) && !ink(x, y + 1)) strokes.push([...from, x + 1.5, y + 1.5]);
      if (ink(x - 1, y + 1) && !ink(x - 1, y) && !ink(x, y + 1)) strokes.push([...from, x - 0.5, y + 1.5]);
    }
  }
  strokeCache.set(char, strokes);
  return strokes;
}

interface GlyphMask {
  width: number;
  height: number;
  /** Coverage 0–1 per pixel, row-major. */
  alpha: Float32Array;
}

const maskCache = new Map<string, GlyphMask>();

/**
 * The coverage of a glyph drawn with `cell`-sized font pixels whose box starts `fx`, `fy` (0–1) into its
 * first pixel: round strokes of radius 0.42 cell, soft edges from the distance to the nearest stroke.
 */
function glyphMask(char: string, cell: number, fx: number, fy: number): GlyphMask {
  const key = `${char}|${cell.toFixed(3)}|${fx}|${fy}`;
  const known = maskCache.get(key);
  if (known !== undefined) return known;
  const strokes = strokesOf(char);
  const radius = Math.max(0.6, cell * 0.42);
  const width = Math.ceil(fx + GLYPH_WIDTH * cell), height = Math.ceil(fy + GLYPH_HEIGHT * cell);
  const alpha = new Float32Array(width * height);
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      // Pixel centre in glyph cells (ink cell centres sit at .5).
      const gx = (px + 0.5 - fx) / cell, gy = (py + 0.5 - fy) / cell;
      let d = Infinity;
      for (const s of strokes) d = Math.min(d, distanceToSegment(gx, gy, s));
      alpha[py * width + px] = Math.max(0, Math.min(1, radius + 0.5 - d * cell));
    }
  }
  const mask = { width, height, alpha };
  if (maskCache.size > 4096) maskCache.clear();
  maskCache.set(key, mask);
  return mask;
}

function distanceToSegment(px: number, py: number, [x0, y0, x1, y1]: Stroke): number {
  const dx = x1 - x0, dy = y1 - y0;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / length2));
  return Math.hypot(px - (x0 + t * dx), py - (y0 + t * dy));
}

function isLowerCase(char: string): boolean {
  return char !== char.toUpperCase();
}

/** How far the pen moves after a character of a line whose capitals are `cell` × 5 px tall. */
export function glyphAdvance(char: string, cell: number): number {
  return (GLYPH_WIDTH + 1) * (isLowerCase(char) ? cell * 0.75 : cell) * 0.95;
}
