/**
 * The hands beyond a tap, on both sides of the simulated server. Device side (what the real Appium
 * UiAutomator2 driver 8.7 proxies): `appium/gestures/{long_click,double_click,swipe,scroll}` with
 * `{origin, offset | area, direction, percent}`, `appium/device/{press_keycode,long_press_keycode,open_notifications}`.
 * Client side (the sim standing in for Appium): the same `mobile:` methods, with Appium's own parameter
 * checks, plus those the driver runs over adb (deepLink, performEditorAction, terminateApp, clearApp),
 * answered by the device as its adb would make them happen.
 */
import type { SessionCommand } from "./command.ts";
import { elementIdOf } from "./element_store.ts";
import type { SnapshotNode } from "./screen_snapshot.ts";
import { w3cError } from "./w3c_error.ts";
import { safeUri } from "../shell/app_intents.ts";
import { EDITOR_ACTIONS, type EditorAction, type NodeAttributes, type Point, type ScrollDirection } from "../sim_device.ts";

/** How long the driver's longClickGesture holds without a `duration` (its documented default). */
const LONG_CLICK_DEFAULT_MS = 500;

type Args = Readonly<Record<string, unknown>>;
const DIRECTIONS: readonly ScrollDirection[] = ["up", "down", "left", "right"];

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** Whether the node's rectangle holds the point. */
export function holds(n: SnapshotNode, x: number, y: number): boolean {
  const r = n.rect;
  return r !== null && x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
}

/** The deepest (last drawn) node whose rectangle holds the point. */
function nodeAtPoint(c: SessionCommand, x: number, y: number): SnapshotNode | undefined {
  return c.screen.read().nodes.findLast((n) => holds(n, x, y));
}

/** A press target: the element (`origin` or `elementId`), else the point `x`, `y` (or the offset); `what` names the gesture in errors. */
function pressTarget(c: SessionCommand, args: Args, what: string): { node: NodeAttributes } | { point: Point } {
  const id = elementIdOf(args["origin"] ?? args["elementId"]);
  if (id !== null) return { node: c.session.elements.resolve(id, c.screen.read()).attrs };
  const offset = (args["offset"] ?? {}) as Args;
  const x = num(args["x"]) ?? num(offset["x"]);
  const y = num(args["y"]) ?? num(offset["y"]);
  if (x === undefined || y === undefined) throw w3cError("invalid argument", `${what} needs an element or both 'x' and 'y' coordinates.`);
  if (nodeAtPoint(c, x, y) === undefined) throw w3cError("invalid argument", `The point (${x}, ${y}) of ${what} is outside the screen.`);
  return { point: { x, y } };
}

function directionOf(value: unknown, what: string): ScrollDirection {
  const d = typeof value === "string" ? value.toLowerCase() : "";
  if (!(DIRECTIONS as readonly string[]).includes(d)) {
    throw w3cError(
      "invalid argument",
      `${what} direction ${JSON.stringify(value)} is not supported. Only the following directions are supported: ${DIRECTIONS.join(", ")}.`,
    );
  }
  return d as ScrollDirection;
}

/** The scrolled container: the element, else the scrollable node at the area's centre (or holding it). */
function scrollTarget(c: SessionCommand, args: Args, what: string): NodeAttributes {
  const id = elementIdOf(args["origin"] ?? args["elementId"]);
  if (id !== null) return c.session.elements.resolve(id, c.screen.read()).attrs;
  const area = (typeof args["area"] === "object" && args["area"] !== null ? args["area"] : args) as Args;
  const [left, top, width, height] = ["left", "top", "width", "height"].map((k) => num(area[k]));
  if (left === undefined || top === undefined || width === undefined || height === undefined) {
    throw w3cError("invalid argument", `${what} needs an element or an area ('left', 'top', 'width', 'height').`);
  }
  const x = left + width / 2;
  const y = top + height / 2;
  const nodes = c.screen.read().nodes;
  const under = nodeAtPoint(c, x, y);
  if (under === undefined) throw w3cError("invalid argument", `The area of ${what} is outside the screen.`);
  const scrollable = nodes.filter((n) => n.attrs["scrollable"] === "true" && holds(n, x, y)).at(-1);
  return (scrollable ?? under).attrs;
}

function percentOf(args: Args, what: string): number {
  const p = num(args["percent"]);
  if (p === undefined || p <= 0) {
    throw w3cError(
      "invalid argument",
      `${what} needs 'percent', a number above 0 (a share of the area), got ${JSON.stringify(args["percent"])}.`,
    );
  }
  return p;
}

/** `scrollGesture`: moves the content `direction` (down shows what is below); true while it can still scroll that way. */
export function scrollGesture(c: SessionCommand, args: Args): boolean {
  const direction = directionOf(args["direction"], "Scroll");
  percentOf(args, "scrollGesture");
  const container = scrollTarget(c, args, "scrollGesture");
  c.device.scroll(direction, container);
  return c.device.canScroll(direction, container);
}

const SWIPE_SHOWS: Record<ScrollDirection, ScrollDirection> = { up: "down", down: "up", left: "right", right: "left" };

/** `swipeGesture`: the finger moves `direction`, so the content scrolls the other way (a swipe up shows what is below). */
export function swipeGesture(c: SessionCommand, args: Args): null {
  const direction = directionOf(args["direction"], "Swipe");
  percentOf(args, "swipeGesture");
  c.device.scroll(SWIPE_SHOWS[direction], scrollTarget(c, args, "swipeGesture"));
  return null;
}

/** The driver's long click: the finger held `duration` ms (500 by default), read by the device as any stroke. */
export function longClickGesture(c: SessionCommand, args: Args): null {
  const duration = num(args["duration"]);
  if (duration !== undefined && duration < 0) {
    throw w3cError("invalid argument", `longClickGesture's 'duration' must be 0 or more milliseconds, got ${duration}.`);
  }
  const heldMs = duration ?? LONG_CLICK_DEFAULT_MS;
  const target = pressTarget(c, args, "longClickGesture");
  if ("node" in target) c.device.longPress(target.node, heldMs);
  else c.device.stroke({ from: target.point, to: target.point, heldMs });
  return null;
}

/** The driver's double click: two taps 100 ms apart, within the double-tap timeout. */
export function doubleClickGesture(c: SessionCommand, args: Args): null {
  const target = pressTarget(c, args, "doubleClickGesture");
  if ("node" in target) c.device.doubleTap(target.node);
  else for (const afterMs of [0, 100]) c.device.stroke({ from: target.point, to: target.point, heldMs: 0, afterMs });
  return null;
}

export function pressKeycode(c: SessionCommand, args: Args): null {
  const keycode = args["keycode"];
  if (typeof keycode !== "number" || !Number.isInteger(keycode) || keycode < 0) {
    throw w3cError(
      "invalid argument",
      `'keycode' must be an Android key code (an integer: 3 HOME, 66 ENTER), got ${JSON.stringify(keycode)}.`,
    );
  }
  c.device.pressKey(keycode);
  return null;
}

export function openNotifications(c: SessionCommand): null {
  c.device.openNotifications();
  return null;
}

/** EditorInfo.IME_ACTION_* codes, as performEditorAction also takes them. */
const EDITOR_CODES: Record<number, EditorAction> = {
  0: "unspecified",
  1: "none",
  2: "go",
  3: "search",
  4: "send",
  5: "next",
  6: "done",
  7: "previous",
};

function editorAction(c: SessionCommand, args: Args): null {
  const raw = args["action"];
  const action = typeof raw === "number" ? EDITOR_CODES[raw] : typeof raw === "string" ? raw.toLowerCase() : undefined;
  if (action === undefined || !(EDITOR_ACTIONS as readonly string[]).includes(action)) {
    throw w3cError(
      "invalid argument",
      `The editor action ${JSON.stringify(raw)} is unknown. Use one of ${EDITOR_ACTIONS.join(", ")} or an IME_ACTION code 0-7.`,
    );
  }
  c.device.editorAction(action as EditorAction);
  return null;
}

function appIdOf(args: Args): string {
  const id = args["appId"];
  if (typeof id !== "string" || id === "") throw w3cError("invalid argument", `'appId' must be a package name, got ${JSON.stringify(id)}.`);
  return id;
}

/** What `mobile: deepLink` does through adb (`am start -W -a android.intent.action.VIEW -d URL [PKG]`), with the driver's failure. */
function deepLink(c: SessionCommand, args: Args): null {
  const url = args["url"];
  if (typeof url !== "string" || url === "") throw w3cError("invalid argument", "URI argument is required");
  const pkg = typeof args["package"] === "string" && args["package"] !== "" ? args["package"] : undefined;
  if (c.device.openUrl(url, pkg) === null) {
    const intent = `Intent { act=android.intent.action.VIEW dat=${safeUri(url)}${pkg === undefined ? "" : ` pkg=${pkg}`} }`;
    throw w3cError(
      "unknown error",
      "An unknown server-side error occurred while processing the command. Original error: Error attempting to start URI. " +
        `Original error: Starting: ${intent}\nError: Activity not started, unable to resolve ${intent.replace(" }", " flg=0x10000000 }")}`,
    );
  }
  return null;
}

/** `mobile: terminateApp`: true when the app was running (it is force-stopped), false when it was not. */
function terminateApp(c: SessionCommand, args: Args): boolean {
  const appId = appIdOf(args);
  if (!c.device.runningPackages().includes(appId)) return false;
  c.device.forceStop(appId);
  return true;
}

function clearApp(c: SessionCommand, args: Args): null {
  const appId = appIdOf(args);
  if (!c.device.clearApp(appId)) {
    throw w3cError(
      "unknown error",
      "An unknown server-side error occurred while processing the command. Original error: " +
        `Error executing adbExec. Original error: 'Command 'adb shell pm clear ${appId}' exited with code 1'; Command output: Failed`,
    );
  }
  return null;
}

interface MobileMethod {
  required: readonly string[];
  optional: readonly string[];
  run(c: SessionCommand, args: Args): unknown;
}

const AREA = ["elementId", "left", "top", "width", "height", "speed"];

/** The new hands' `mobile:` methods with the driver's parameter lists (execute-method-map.js). */
export const HAND_METHODS: Readonly<Record<string, MobileMethod>> = {
  "mobile: longClickGesture": { required: [], optional: ["elementId", "x", "y", "duration"], run: longClickGesture },
  "mobile: doubleClickGesture": { required: [], optional: ["elementId", "x", "y"], run: doubleClickGesture },
  "mobile: scrollGesture": { required: ["direction", "percent"], optional: AREA, run: scrollGesture },
  "mobile: swipeGesture": { required: ["direction", "percent"], optional: AREA, run: swipeGesture },
  "mobile: pressKey": { required: ["keycode"], optional: ["metastate", "flags", "isLongPress", "source"], run: pressKeycode },
  "mobile: openNotifications": { required: [], optional: [], run: openNotifications },
  "mobile: performEditorAction": { required: ["action"], optional: [], run: editorAction },
  "mobile: deepLink": { required: ["url"], optional: ["package", "waitForLaunch"], run: deepLink },
  "mobile: terminateApp": { required: ["appId"], optional: ["timeout"], run: terminateApp },
  "mobile: clearApp": { required: ["appId"], optional: [], run: clearApp },
};

/** Appium's check of an execute method's parameters (BadParametersError's text), then the method. */
export function runHandMethod(c: SessionCommand, method: MobileMethod, args: Args): unknown {
  const missing = method.required.filter((name) => args[name] === undefined);
  if (missing.length > 0) {
    const lines = [
      `The following required parameter${missing.length === 1 ? " is" : "s are"} missing: ${JSON.stringify(missing)}`,
      `Known required parameters are: ${JSON.stringify(method.required)}`,
    ];
    if (method.optional.length > 0) lines.push(`Known optional parameters are: ${JSON.stringify(method.optional)}`);
    throw w3cError("invalid argument", lines.join("\n"));
  }
  return method.run(c, args);
}
