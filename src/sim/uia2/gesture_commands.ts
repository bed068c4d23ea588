/**
 * Session commands that touch the screen by position or gesture: W3C actions (each finger's stroke goes to the
 * device, which reads a tap, a long press or a swipe as a phone does), `mobile:` methods through
 * execute/sync (click here, the other hands in hand_commands.ts), and the driver's device-side
 * `appium/gestures/{click,scroll,swipe,long_click,double_click}`. A scroll answers what real UiAutomator2
 * answers: whether the object can STILL scroll that way afterwards (false once the end is reached).
 */
import type { SessionCommand, SessionRoute } from "./command.ts";
import { activateApp, hideKeyboard } from "./device_commands.ts";
import { doubleClickGesture, HAND_METHODS, longClickGesture, runHandMethod, scrollGesture, swipeGesture } from "./hand_commands.ts";
import { elementIdOf } from "./element_store.ts";
import { type Point, pointerStrokes } from "./pointer_actions.ts";
import type { SnapshotNode } from "./screen_snapshot.ts";
import { w3cError } from "./w3c_error.ts";

function centre(node: SnapshotNode): Point {
  const r = node.rect ?? { x: 0, y: 0, width: 0, height: 0 };
  return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
}

/** A quick tap at a point: the device's own touch dispatch. */
function tapAt(c: SessionCommand, at: Point): void {
  c.device.tapAt(Math.round(at.x), Math.round(at.y));
}

/** Each finger's stroke goes to the device, which reads a tap, a long press (held past the timeout) or a swipe. */
function performActions(c: SessionCommand): null {
  const strokes = pointerStrokes(c.body["actions"], (id) => centre(c.session.elements.resolve(id, c.screen.read())));
  for (const stroke of strokes) c.device.stroke(stroke);
  return null;
}

function clickGesture(c: SessionCommand, args: Record<string, unknown>): null {
  const origin = elementIdOf(args["elementId"] ?? args["origin"]);
  const offset = (args["offset"] ?? {}) as { x?: unknown; y?: unknown };
  if (origin !== null) {
    const node = c.session.elements.resolve(origin, c.screen.read());
    if (typeof offset.x !== "number" && typeof args["x"] !== "number") {
      c.device.tap(node.attrs);
      return null;
    }
  }
  const x = typeof args["x"] === "number" ? args["x"] : offset.x;
  const y = typeof args["y"] === "number" ? args["y"] : offset.y;
  if (typeof x !== "number" || typeof y !== "number") {
    throw w3cError("invalid argument", "clickGesture needs an element or both 'x' and 'y'.");
  }
  tapAt(c, { x, y });
  return null;
}

const EXECUTE_METHODS = [
  "mobile: clickGesture",
  "mobile: activateApp",
  "mobile: hideKeyboard",
  "mobile: isKeyboardShown",
  "mobile: getCurrentPackage",
  "mobile: getCurrentActivity",
  ...Object.keys(HAND_METHODS),
];

function execute(c: SessionCommand): unknown {
  const script = typeof c.body["script"] === "string" ? c.body["script"].trim() : "";
  const args = Array.isArray(c.body["args"]) ? (c.body["args"][0] ?? {}) as Record<string, unknown> : {};
  const hand = HAND_METHODS[script];
  if (hand !== undefined) return runHandMethod(c, hand, args);
  switch (script) {
    case "mobile: clickGesture":
      return clickGesture(c, args);
    case "mobile: activateApp":
      return activateApp(c, args);
    case "mobile: hideKeyboard":
      return hideKeyboard(c);
    case "mobile: isKeyboardShown":
      return c.device.keyboard().open;
    case "mobile: getCurrentPackage":
      return c.device.foregroundPackage();
    case "mobile: getCurrentActivity":
      return c.device.foregroundActivity();
    default:
      throw w3cError(
        "unknown method",
        `Unsupported execute method '${script}'. The simulated server supports: ${EXECUTE_METHODS.join(", ")}.`,
      );
  }
}

export const GESTURE_ROUTES: SessionRoute[] = [
  { scope: "session", method: "POST", path: "/actions", name: "perform actions", handle: performActions },
  { scope: "session", method: "DELETE", path: "/actions", name: "release actions", handle: () => null },
  { scope: "session", method: "POST", path: "/execute/sync", name: "execute script", handle: execute },
  { scope: "session", method: "POST", path: "/appium/gestures/scroll", name: "scroll gesture", handle: (c) => scrollGesture(c, c.body) },
  { scope: "session", method: "POST", path: "/appium/gestures/swipe", name: "swipe gesture", handle: (c) => swipeGesture(c, c.body) },
  {
    scope: "session",
    method: "POST",
    path: "/appium/gestures/long_click",
    name: "long click gesture",
    handle: (c) => longClickGesture(c, c.body),
  },
  {
    scope: "session",
    method: "POST",
    path: "/appium/gestures/double_click",
    name: "double click gesture",
    handle: (c) => doubleClickGesture(c, c.body),
  },
  {
    scope: "session",
    method: "POST",
    path: "/appium/gestures/click",
    name: "click gesture",
    handle: (c) => clickGesture(c, c.body as Record<string, unknown>),
  },
];
