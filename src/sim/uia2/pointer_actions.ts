/**
 * W3C pointer actions (POST /actions) reduced to the gestures a touch screen sees: a tap at a point
 * (down and up within a small distance) or a swipe from one point to another. Pure: takes the
 * action sequences and a way to find an element's centre (for element-relative moves); key and
 * wheel sources are ignored. Malformed input is `invalid argument`.
 */
import { elementIdOf } from "./element_store.ts";
import { w3cError } from "./w3c_error.ts";

export type Point = { x: number; y: number };
export type Gesture = { kind: "tap"; at: Point } | { kind: "swipe"; from: Point; to: Point };

/** Movement below this many pixels between down and up is a tap, as Android's touch slop makes it. */
export const TOUCH_SLOP_PX = 24;

interface RawAction {
  type?: unknown;
  x?: unknown;
  y?: unknown;
  origin?: unknown;
}

function num(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw w3cError("invalid argument", `'${what}' must be a finite number, got ${JSON.stringify(value)}.`);
  }
  return value;
}

export function pointerGestures(actions: unknown, centreOf: (elementId: string) => Point): Gesture[] {
  if (!Array.isArray(actions)) throw w3cError("invalid argument", "'actions' must be an array of input sources.");
  const gestures: Gesture[] = [];
  for (const source of actions as { type?: unknown; actions?: unknown }[]) {
    if (source?.type !== "pointer") continue;
    if (!Array.isArray(source.actions)) throw w3cError("invalid argument", "A pointer source needs an 'actions' array.");
    let at: Point = { x: 0, y: 0 };
    let down: Point | null = null;
    for (const action of source.actions as RawAction[]) {
      if (action.type === "pointerMove") {
        const dx = num(action.x ?? 0, "x");
        const dy = num(action.y ?? 0, "y");
        const elementId = elementIdOf(action.origin);
        if (action.origin === "pointer") at = { x: at.x + dx, y: at.y + dy };
        else if (elementId !== null && typeof action.origin === "object") {
          const c = centreOf(elementId);
          at = { x: c.x + dx, y: c.y + dy };
        } else at = { x: dx, y: dy };
      } else if (action.type === "pointerDown") down = at;
      else if (action.type === "pointerUp" && down !== null) {
        const moved = Math.hypot(at.x - down.x, at.y - down.y);
        gestures.push(moved < TOUCH_SLOP_PX ? { kind: "tap", at: down } : { kind: "swipe", from: down, to: at });
        down = null;
      }
    }
  }
  return gestures;
}
