/**
 * W3C pointer actions (POST /actions) as the strokes a touch screen sees: each pointer's down … up, where it went
 * and how long the finger stayed, so the device reads a tap, a long press (a pause between down and up) or a swipe
 * as a phone does (scenario/gestures.ts). Times follow the W3C tick model: the i-th action of every source runs in
 * tick i, which lasts as long as its longest `pause` or `pointerMove` duration; a stroke's down comes at the start
 * of its tick (`afterMs` from the start of the sequence). Pure: takes the action sequences and a way to find an
 * element's centre (element-relative moves); key and wheel sources only count their pauses. Malformed input is
 * `invalid argument`.
 */
import type { Point, Stroke } from "../sim_device.ts";
import { elementIdOf } from "./element_store.ts";
import { w3cError } from "./w3c_error.ts";

export type { Point };

interface RawAction {
  type?: unknown;
  x?: unknown;
  y?: unknown;
  origin?: unknown;
  duration?: unknown;
}

function num(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw w3cError("invalid argument", `'${what}' must be a finite number, got ${JSON.stringify(value)}.`);
  }
  return value;
}

/** How long an action keeps its tick: a pause's or a move's `duration` (ms, 0 and up); the others take none. */
function durationOf(action: RawAction): number {
  if ((action.type !== "pause" && action.type !== "pointerMove") || action.duration === undefined) return 0;
  const ms = num(action.duration, "duration");
  if (ms < 0) throw w3cError("invalid argument", `'duration' must be 0 or more milliseconds, got ${ms}.`);
  return ms;
}

export function pointerStrokes(actions: unknown, centreOf: (elementId: string) => Point): Stroke[] {
  if (!Array.isArray(actions)) throw w3cError("invalid argument", "'actions' must be an array of input sources.");
  const sources = actions as { type?: unknown; actions?: unknown }[];
  for (const source of sources) {
    if (source?.type === "pointer" && !Array.isArray(source.actions)) {
      throw w3cError("invalid argument", "A pointer source needs an 'actions' array.");
    }
  }
  const lists = sources.map((source) => (Array.isArray(source?.actions) ? source.actions as RawAction[] : []));
  const ticks = Math.max(0, ...lists.map((list) => list.length));
  const startOf: number[] = [0];
  for (let i = 0; i < ticks; i++) startOf.push(startOf[i]! + Math.max(0, ...lists.map((list) => durationOf(list[i] ?? {}))));
  const strokes: Stroke[] = [];
  sources.forEach((source, s) => {
    if (source?.type !== "pointer") return;
    let at: Point = { x: 0, y: 0 };
    let down: { at: Point; tick: number } | null = null;
    lists[s]!.forEach((action, tick) => {
      if (action.type === "pointerMove") {
        const dx = num(action.x ?? 0, "x");
        const dy = num(action.y ?? 0, "y");
        const elementId = elementIdOf(action.origin);
        if (action.origin === "pointer") at = { x: at.x + dx, y: at.y + dy };
        else if (elementId !== null && typeof action.origin === "object") {
          const c = centreOf(elementId);
          at = { x: c.x + dx, y: c.y + dy };
        } else at = { x: dx, y: dy };
      } else if (action.type === "pointerDown") down = { at, tick };
      else if (action.type === "pointerUp" && down !== null) {
        const downAt = startOf[down.tick]!;
        strokes.push({ from: down.at, to: at, heldMs: startOf[tick]! - downAt, afterMs: downAt });
        down = null;
      }
    });
  });
  return strokes.sort((a, b) => a.afterMs! - b.afterMs!);
}
