/**
 * Draws the current screen as a real PNG from node bounds, with the texture of a real screen: a light
 * background, rounded buttons and inputs, switches, round icons, anti-aliased text (glyph shapes of the
 * sim's bitmap font, capitals and smaller lower case on one baseline), the soft keyboard when open and
 * the gesture bar. A panel drawn over the views before it (a bottom sheet over the page) is opaque, as its
 * background makes it on a phone: what lies under it is not drawn through it. The keyboard is Gboard's
 * QWERTY layout with its action key (search, done, next, go, send: the focused field's editor action) drawn
 * as an icon, as Gboard draws it. Different screens give different images; only the `blankScreencap` fault gives a
 * one-colour image. Every other image (also a given real screenshot, `stampSimulatedBadge`) carries a
 * crisp "SIMULATED" badge in the status-bar band at the top, so no screenshot can pass for a real
 * device's. Encoded as a device's screencap writes it (8-bit RGBA, encode_rgba.ts); decoded with upng-js.
 */
import UPNG from "upng-js";
import { allNodes, boundsOf, isInput, type Rect, type SimNode } from "../scenario/sim_node.ts";
import type { PaintRect } from "../scenario/types.ts";
import { Canvas, glyphAdvance, type Rgb } from "./canvas.ts";
import { encodeRgbaPng } from "./encode_rgba.ts";
import { GLYPH_HEIGHT, GLYPH_WIDTH } from "./glyphs.ts";

const BACKGROUND: Rgb = [246, 246, 250];
const INK: Rgb = [32, 33, 36];
const HINT: Rgb = [128, 134, 139];
const KEYBOARD: Rgb = [214, 218, 224];
const KEY: Rgb = [252, 252, 253];
const BADGE: Rgb = [197, 34, 31];
const BADGE_INK: Rgb = [255, 255, 255];
const WHITE: Rgb = [255, 255, 255];

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
  /** The editor action the focused field's keyboard shows on its action key (default: done). */
  imeAction?: ImeKey;
  blank: boolean;
  /** Rectangles painted over the nodes (a canvas the tree does not show), in order. */
  paint?: readonly PaintRect[];
}

/** The icons Gboard draws on its action key, by editor action; `enter` for a multi-line field or none named. */
export type ImeKey = "search" | "done" | "next" | "previous" | "go" | "send" | "enter";

const ACCENT: Rgb = [11, 87, 208];
const SURFACE: Rgb = [255, 255, 255];

type Look = "button" | "input" | "switch" | "check" | "tile" | "row" | "icon" | "picture" | "list" | "selected" | "plain";

function lookOf(node: SimNode): Look {
  const a = node.attrs;
  const cls = a["class"] ?? "";
  if (isInput(node)) return "input";
  if (a["checkable"] === "true") return /Switch|Toggle/.test(cls) ? "switch" : "check";
  if (a["clickable"] === "true" && /Button/.test(cls) && !/Image/.test(cls)) return "button";
  if (/Image/.test(cls) && !a["text"]) return isLarge(node) ? "picture" : "icon";
  if (a["clickable"] === "true" && isTile(node)) return "tile";
  // A clickable surface that holds targets of its own (a modal sheet, a drawer) keeps its own colour: only a row is tinted.
  if (a["clickable"] === "true") return allNodes(node.children).some((n) => n.attrs["clickable"] === "true") ? "plain" : "row";
  if (a["scrollable"] === "true") return "list";
  if (a["selected"] === "true") return "selected";
  return "plain";
}

/** The lines a node shows (at most three), and whether they are a hint (drawn grey). */
function label(node: SimNode): { lines: string[]; hint: boolean } {
  const a = node.attrs;
  const hint = node.showsHint === true || (!a["text"] && isInput(node) && !!a["hint"]);
  const shown = a["text"] || (hint ? a["hint"] ?? "" : "") || (/Image/.test(a["class"] ?? "") ? "" : a["content-desc"]) || "";
  return { lines: shown.split("\n").filter((l) => l.trim() !== "").slice(0, 3), hint };
}

/** An image too large to be an icon (a photo, a chat wallpaper): over 240 px on both sides at 420 dpi. */
function isLarge(node: SimNode): boolean {
  const r = boundsOf(node);
  return r !== null && Math.min(r.right - r.left, r.bottom - r.top) > 240;
}

/** A launcher icon: a clickable, squarish cell named by its own text (`text` = `content-desc`, as Pixel Launcher dumps it). */
function isTile(node: SimNode): boolean {
  const r = boundsOf(node);
  if (r === null || !node.attrs["text"] || node.attrs["text"] !== node.attrs["content-desc"]) return false;
  const w = r.right - r.left, h = r.bottom - r.top;
  return w / h > 0.6 && w / h < 1.6 && h >= 150;
}

/** What an icon stands for: its description, else the first text of the row it sits in, else its id. */
function iconName(node: SimNode): string {
  if (node.attrs["content-desc"]) return node.attrs["content-desc"];
  const row = node.parent === null ? [] : allNodes(node.parent.children);
  return row.map((n) => n.attrs["text"] ?? "").find((t) => t !== "") ?? node.attrs["resource-id"] ?? "";
}

/** A stable, app-like colour for an icon, from its name. */
function iconColour(name: string): Rgb {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  const palette: Rgb[] = [[26, 115, 232], [52, 168, 83], [234, 67, 53], [251, 188, 4], [161, 66, 244], [0, 137, 123], [255, 112, 67], [
    96,
    125,
    139,
  ]];
  return palette[h % palette.length]!;
}

export function drawScreenPng(roots: readonly SimNode[], options: DrawOptions): Uint8Array {
  const { width, height } = options;
  const canvas = new Canvas(width, height, options.blank ? [0, 0, 0] : BACKGROUND);
  if (!options.blank) {
    const unit = Math.max(1, width / 1080);
    const wallpaper = roots.some((r) => /launcher/i.test(r.attrs["package"] ?? ""));
    if (wallpaper) drawWallpaper(canvas);
    for (const root of roots) {
      const frame = boundsOf(root);
      // A window that touches neither side edge is a dialog: the screen behind it is dimmed, as Android does.
      if (frame !== null && frame.left > 0 && frame.right < width) dim(canvas, 0.45);
      for (const node of allNodes([root])) {
        const rect = boundsOf(node);
        if (rect === null || rect.right <= rect.left || rect.bottom <= rect.top) continue;
        if (isPanelOver(node, rect)) drawPanel(canvas, rect, unit);
        drawNode(canvas, node, rect, unit, wallpaper ? WHITE : INK);
      }
    }
    for (const { rect: [left, top, right, bottom], rgb } of options.paint ?? []) canvas.fill({ left, top, right, bottom }, rgb);
    if (options.keyboardTop !== undefined) drawKeyboard(canvas, options.keyboardTop, unit, options.imeAction ?? "done");
    else if (height > width) drawGestureBar(canvas, unit);
  }
  return finish(canvas, !options.blank);
}

/** A real screenshot with the SIMULATED badge over its status bar (what `--screenshot` shows). */
export function stampSimulatedBadge(png: Uint8Array): Uint8Array {
  const image = UPNG.decode(png.slice().buffer);
  const rgba = new Uint8Array(UPNG.toRGBA8(image)[0]!);
  return finish(new Canvas(image.width, image.height, rgba), true);
}

function finish(canvas: Canvas, badged: boolean): Uint8Array {
  if (badged) {
    const badge = simulatedBadge(canvas.width, canvas.height);
    canvas.fill(badge.band, badge.paper);
    canvas.text(SIMULATED_LABEL, badge.x, badge.y, badge.scale, badge.ink, badge.band);
  }
  return encodeRgbaPng(canvas.pixels, canvas.width, canvas.height);
}

function drawNode(canvas: Canvas, node: SimNode, rect: Rect, unit: number, plainInk: Rgb): void {
  const look = lookOf(node);
  const h = rect.bottom - rect.top, w = rect.right - rect.left;
  const corner = Math.min(h / 2, 24 * unit);
  let ink: Rgb = look === "plain" ? plainInk : INK;
  switch (look) {
    case "button":
      canvas.roundRect(rect, Math.min(h / 2, w / 2), [26, 115, 232]);
      ink = WHITE;
      break;
    case "input":
      canvas.roundRect(rect, corner, [26, 115, 232]);
      canvas.roundRect(
        { left: rect.left + 3 * unit, top: rect.top + 3 * unit, right: rect.right - 3 * unit, bottom: rect.bottom - 3 * unit },
        corner - 3 * unit,
        WHITE,
      );
      break;
    case "switch": {
      const on = node.attrs["checked"] === "true";
      const trackH = Math.min(h * 0.6, 56 * unit), trackW = Math.min(w, trackH * 1.9);
      const cx = (rect.left + rect.right) / 2, cy = (rect.top + rect.bottom) / 2;
      const track = { left: cx - trackW / 2, top: cy - trackH / 2, right: cx + trackW / 2, bottom: cy + trackH / 2 };
      canvas.roundRect(track, trackH / 2, on ? [52, 168, 83] : [189, 193, 198]);
      canvas.disc(on ? track.right - trackH / 2 : track.left + trackH / 2, cy, trackH * 0.38, WHITE);
      return;
    }
    case "check": {
      const on = node.attrs["checked"] === "true";
      if (w < 3 * h) {
        canvas.roundRect(rect, 6 * unit, on ? [52, 168, 83] : [189, 193, 198]);
        break;
      }
      // A list's check row (a CheckedTextView): its text, and the box at its end, as Material draws them.
      const side = Math.min(h * 0.4, 54 * unit), right = rect.right - 48 * unit, cy = (rect.top + rect.bottom) / 2;
      const box = { left: right - side, top: cy - side / 2, right, bottom: cy + side / 2 };
      canvas.roundRect(box, 4 * unit, on ? ACCENT : [73, 69, 79]);
      if (!on) {
        canvas.roundRect(
          { left: box.left + 5 * unit, top: box.top + 5 * unit, right: box.right - 5 * unit, bottom: box.bottom - 5 * unit },
          2 * unit,
          SURFACE,
        );
      }
      canvas.fill({ left: rect.left, top: rect.bottom - Math.max(1, unit * 2), right: rect.right, bottom: rect.bottom }, [230, 230, 235]);
      break;
    }
    case "icon":
      drawIcon(
        canvas,
        iconName(node),
        (rect.left + rect.right) / 2,
        (rect.top + rect.bottom) / 2,
        Math.max(2, Math.min(w, h) * 0.42),
        rect,
      );
      return;
    case "picture": {
      // A photo-like fill: a soft diagonal blend of two tones of the image's colour.
      const base = iconColour(iconName(node));
      const light = base.map((c) => c + (255 - c) * 0.8) as unknown as Rgb;
      for (let y = Math.max(0, rect.top); y < Math.min(canvas.height, rect.bottom); y++) {
        for (let x = Math.max(0, rect.left); x < Math.min(canvas.width, rect.right); x++) {
          canvas.blend(x, y, light, 0.25 + 0.5 * ((x - rect.left) / w + (y - rect.top) / h) / 2);
        }
      }
      return;
    }
    case "tile": {
      const text = node.attrs["text"] ?? "";
      const r = Math.min(w * 0.3, h * 0.25);
      drawIcon(canvas, text, (rect.left + rect.right) / 2, rect.top + h * 0.38, r, rect);
      const size = Math.min(26 * unit, h * 0.1);
      canvas.smoothText(
        text,
        (rect.left + rect.right) / 2 - Math.min(w, textWidth(text, size)) / 2,
        rect.top + h * 0.72,
        size,
        WHITE,
        rect,
      );
      return;
    }
    case "row":
      canvas.fill(rect, [232, 240, 254]);
      canvas.fill({ left: rect.left, top: rect.bottom - Math.max(1, unit * 2), right: rect.right, bottom: rect.bottom }, [210, 222, 246]);
      break;
    case "list":
      canvas.outline(rect, [218, 220, 224], Math.max(1, Math.round(2 * unit)));
      break;
    case "selected":
      canvas.roundRect(rect, corner, [210, 227, 252]);
      break;
    case "plain":
      break;
  }
  const { lines, hint } = label(node);
  if (lines.length === 0) return;
  const size = Math.max(6, Math.min((h * 0.5) / (1 + (lines.length - 1) * 1.6), 34 * unit));
  const top = rect.top + (h - size * (1 + (lines.length - 1) * 1.6)) / 2;
  lines.forEach((line, i) => {
    const pad = look === "button" ? Math.max(0, (w - textWidth(line, size)) / 2) : Math.min(24 * unit, w * 0.05);
    canvas.smoothText(line, rect.left + pad, top + i * size * 1.6, size, hint ? HINT : ink, rect);
  });
}

/** The width `smoothText` gives a line at `size` (capitals' height), without drawing it. */
function textWidth(text: string, size: number): number {
  return [...text].reduce((sum, c) => sum + glyphAdvance(c, size / GLYPH_HEIGHT), 0);
}

/** An app icon: a disc in the app's colour, a lighter rim, and the first letter of its name in white. */
function drawIcon(canvas: Canvas, name: string, cx: number, cy: number, r: number, clip: Rect): void {
  const colour = iconColour(name);
  canvas.disc(cx, cy, r, colour.map((c) => Math.round(c + (255 - c) * 0.35)) as unknown as Rgb, clip);
  canvas.disc(cx, cy, r * 0.86, colour, clip);
  const letter = [...name.trim()][0]?.toUpperCase() ?? "";
  if (letter === "") return;
  const size = r * 0.9;
  canvas.smoothText(letter, cx - textWidth(letter, size) / 2 + size * 0.05, cy - size / 2, size, WHITE, clip);
}

/** The last wallpaper drawn, by size: every launcher screen of that size starts from a copy of it. */
let lastWallpaper: { width: number; height: number; pixels: Uint8Array } | null = null;

/** A launcher's wallpaper: a soft diagonal gradient with a large glow, like the Pixel's default ones. */
function drawWallpaper(canvas: Canvas): void {
  const { width: w, height: h, pixels } = canvas;
  if (lastWallpaper?.width === w && lastWallpaper.height === h) {
    pixels.set(lastWallpaper.pixels);
    return;
  }
  const top: Rgb = [36, 59, 110], bottom: Rgb = [168, 96, 140], glow: Rgb = [255, 214, 170];
  const gx = w * 0.72, gy = h * 0.3, gr = w * 0.55;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const t = Math.min(1, Math.max(0, (y / h) * 0.8 + (x / w) * 0.2));
      const g = Math.max(0, 1 - Math.hypot(x - gx, y - gy) / gr) ** 2 * 0.55;
      const i = (y * w + x) * 4;
      for (let c = 0; c < 3; c++) {
        const base = top[c]! + (bottom[c]! - top[c]!) * t;
        pixels[i + c] = Math.round(base + (glow[c]! - base) * g);
      }
    }
  }
  lastWallpaper = { width: w, height: h, pixels: pixels.slice() };
}

/**
 * A bottom sheet drawn over the views before it: a container named as one (Material's `design_bottom_sheet`, an app's
 * `bottom_sheet…` id, a `…BottomSheet…` class), clickable or not (a modal one takes the touches on its surface), with
 * children, that overlaps an earlier sibling. Its background covers what the earlier siblings drew there, as on a phone. Only a sheet:
 * a dump does not say which other views have a background (a launcher's hotseat over its workspace has none).
 */
function isPanelOver(node: SimNode, rect: Rect): boolean {
  const parent = node.parent;
  if (parent === null || node.children.length === 0) return false;
  if (!BOTTOM_SHEET.test(node.attrs["resource-id"] ?? "") && !/BottomSheet/.test(node.attrs["class"] ?? "")) return false;
  const before = parent.children.slice(0, parent.children.indexOf(node));
  return before.some((sibling) => {
    const b = boundsOf(sibling);
    return b !== null && Math.min(b.right, rect.right) > Math.max(b.left, rect.left) &&
      Math.min(b.bottom, rect.bottom) > Math.max(b.top, rect.top);
  });
}

const BOTTOM_SHEET = /(^|[:/_])bottom_?sheet/i;

/** An opaque raised surface: a soft shadow above it, rounded top corners, and a drag handle when it rises from the bottom edge (a sheet). */
function drawPanel(canvas: Canvas, rect: Rect, unit: number): void {
  const shadow = 16 * unit;
  for (let i = 0; i < shadow; i++) {
    const y = Math.round(rect.top) - 1 - i;
    for (let x = Math.max(0, Math.round(rect.left)); x < Math.min(canvas.width, Math.round(rect.right)); x++) {
      canvas.blend(x, y, [0, 0, 0], 0.16 * (1 - i / shadow) ** 2);
    }
  }
  const sheet = rect.bottom >= canvas.height;
  const corner = 28 * unit * (sheet ? 1 : 0.6);
  canvas.fill({ ...rect, top: rect.top + corner }, SURFACE);
  canvas.roundRect({ ...rect, bottom: Math.min(rect.bottom, rect.top + corner * 2) }, corner, SURFACE);
  if (!sheet) return;
  const cx = (rect.left + rect.right) / 2, handle = { w: 32 * 2.625 * unit / 2, h: 4 * 2.625 * unit / 2 };
  canvas.roundRect(
    { left: cx - handle.w, top: rect.top + 12 * unit, right: cx + handle.w, bottom: rect.top + 12 * unit + handle.h * 2 },
    handle.h,
    [121, 116, 126],
  );
}

/** Darkens the whole canvas towards black by `amount` (a dialog's scrim). */
function dim(canvas: Canvas, amount: number): void {
  const p = canvas.pixels;
  for (let i = 0; i < p.length; i += 4) {
    p[i] = Math.round(p[i]! * (1 - amount));
    p[i + 1] = Math.round(p[i + 1]! * (1 - amount));
    p[i + 2] = Math.round(p[i + 2]! * (1 - amount));
  }
}

function drawGestureBar(canvas: Canvas, unit: number): void {
  const w = 216 * unit, h = 10 * unit;
  const cx = canvas.width / 2, y = canvas.height - 30 * unit;
  canvas.roundRect({ left: cx - w / 2, top: y - h / 2, right: cx + w / 2, bottom: y + h / 2 }, h / 2, [60, 64, 67]);
}

/** Where each key of the keyboard lies: Gboard's QWERTY rows on a grid ten letter keys wide, the action key last. */
export function keyboardKeys(width: number, height: number, top: number): { label: string; rect: Rect }[] {
  const unit = Math.max(1, width / 1080);
  const rowHeight = Math.floor((height - top) / 5);
  const keyWidth = width / 10;
  const row = (r: number, keys: [label: string, span: number][], indent = 0) => {
    let x = indent * keyWidth;
    return keys.map(([label, span]) => {
      const rect = {
        left: x + 6 * unit,
        top: top + r * rowHeight + 12 * unit,
        right: x + span * keyWidth - 6 * unit,
        bottom: top + (r + 1) * rowHeight - 6 * unit,
      };
      x += span * keyWidth;
      return { label, rect };
    });
  };
  const letters = (keys: string): [string, number][] => [...keys].map((k) => [k, 1]);
  return [
    ...row(0, letters("QWERTYUIOP")),
    ...row(1, letters("ASDFGHJKL"), 0.5),
    ...row(2, [["shift", 1.5], ...letters("ZXCVBNM"), ["delete", 1.5]]),
    ...row(3, [["?123", 1.5], [",", 1], ["space", 5], [".", 1], ["action", 1.5]]),
  ];
}

const SPECIAL_KEY: Rgb = [191, 197, 208];

function drawKeyboard(canvas: Canvas, top: number, unit: number, action: ImeKey): void {
  canvas.fill({ left: 0, top, right: canvas.width, bottom: canvas.height }, KEYBOARD);
  const rowHeight = Math.floor((canvas.height - top) / 5);
  const size = Math.min(rowHeight * 0.4, 34 * unit);
  for (const { label, rect } of keyboardKeys(canvas.width, canvas.height, top)) {
    const cx = (rect.left + rect.right) / 2, cy = (rect.top + rect.bottom) / 2;
    if (label === "action") {
      canvas.roundRect(rect, (rect.bottom - rect.top) / 2, ACCENT);
      drawActionIcon(canvas, action, cx, cy, Math.min(size * 1.5, (rect.bottom - rect.top) * 0.55), unit);
      continue;
    }
    const special = label.length > 1 && label !== "space";
    canvas.roundRect(rect, 10 * unit, special ? SPECIAL_KEY : KEY);
    if (label === "shift") drawArrow(canvas, cx, cy + size * 0.4, cx, cy - size * 0.6, size * 0.5, 4 * unit, INK);
    else if (label === "delete") {
      drawArrow(canvas, cx + size * 0.6, cy, cx - size * 0.6, cy, size * 0.5, 4 * unit, INK);
    } else if (label !== "space") {
      const glyphs = size * (special ? 0.7 : 1);
      canvas.smoothText(label, cx - textWidth(label, glyphs) / 2, cy - glyphs / 2, glyphs, INK, rect);
    }
  }
}

/** A stroke from (x0, y0) to (x1, y1) with an arrowhead of `head` px at its end. */
function drawArrow(canvas: Canvas, x0: number, y0: number, x1: number, y1: number, head: number, stroke: number, colour: Rgb): void {
  canvas.line(x0, y0, x1, y1, stroke, colour);
  const angle = Math.atan2(y1 - y0, x1 - x0);
  for (const turn of [Math.PI * 0.75, -Math.PI * 0.75]) {
    canvas.line(x1, y1, x1 + head * Math.cos(angle + turn), y1 + head * Math.sin(angle + turn), stroke, colour);
  }
}

/**
 * Gboard's icon for the editor action, white on the accent key, `size` px across: a magnifier (search), a check mark
 * (done), an arrow to a bar (next; from it, previous), an arrow (go), a paper plane (send), the return arrow (enter).
 */
function drawActionIcon(canvas: Canvas, action: ImeKey, cx: number, cy: number, size: number, unit: number): void {
  const s = size / 2, w = 4 * unit;
  switch (action) {
    case "search":
      canvas.disc(cx - s * 0.25, cy - s * 0.25, s * 0.6, WHITE);
      canvas.disc(cx - s * 0.25, cy - s * 0.25, s * 0.6 - w, ACCENT);
      canvas.line(cx + s * 0.2, cy + s * 0.2, cx + s * 0.8, cy + s * 0.8, w * 1.2, WHITE);
      return;
    case "done":
      canvas.line(cx - s * 0.8, cy, cx - s * 0.25, cy + s * 0.55, w, WHITE);
      canvas.line(cx - s * 0.25, cy + s * 0.55, cx + s * 0.85, cy - s * 0.55, w, WHITE);
      return;
    case "next":
      drawArrow(canvas, cx - s * 0.9, cy, cx + s * 0.5, cy, s * 0.55, w, WHITE);
      canvas.line(cx + s * 0.85, cy - s * 0.6, cx + s * 0.85, cy + s * 0.6, w, WHITE);
      return;
    case "previous":
      drawArrow(canvas, cx + s * 0.9, cy, cx - s * 0.5, cy, s * 0.55, w, WHITE);
      canvas.line(cx - s * 0.85, cy - s * 0.6, cx - s * 0.85, cy + s * 0.6, w, WHITE);
      return;
    case "go":
      drawArrow(canvas, cx - s * 0.9, cy, cx + s * 0.9, cy, s * 0.6, w, WHITE);
      return;
    case "send":
      canvas.line(cx - s * 0.8, cy - s * 0.8, cx + s * 0.9, cy, w, WHITE);
      canvas.line(cx + s * 0.9, cy, cx - s * 0.8, cy + s * 0.8, w, WHITE);
      canvas.line(cx - s * 0.8, cy - s * 0.8, cx - s * 0.45, cy, w, WHITE);
      canvas.line(cx - s * 0.45, cy, cx - s * 0.8, cy + s * 0.8, w, WHITE);
      canvas.line(cx - s * 0.45, cy, cx + s * 0.3, cy, w, WHITE);
      return;
    case "enter":
      canvas.line(cx + s * 0.7, cy - s * 0.7, cx + s * 0.7, cy + s * 0.2, w, WHITE);
      drawArrow(canvas, cx + s * 0.7, cy + s * 0.2, cx - s * 0.8, cy + s * 0.2, s * 0.5, w, WHITE);
      return;
  }
}
