/**
 * The simulated device's state as the two fake servers see it. The fake adb server renders shell
 * output from it; the fake UiAutomator2 server reads the hierarchy and sends user actions to it.
 * Implemented by the scenario engine (src/sim/); actions are resolved by scenario transitions.
 */

import type { CommandLog } from "./command_log.ts";

export interface SimFaults {
  /** adb shell/exec commands whose first word is listed never answer (e.g. ["uiautomator"]). */
  hangCommands?: string[];
  /** The device state `adb devices` reports. */
  state?: "device" | "offline" | "unauthorized";
  /** false: the device is still booting (`sys.boot_completed` unset, the boot animation running). Default true. */
  bootCompleted?: boolean;
  /** The device disappears after this many adb service requests (counted again from 0 when state is set back to "device"). */
  offlineAfterRequests?: number;
  /**
   * The device disappears in the middle of the next command's output: after this many bytes of its stdout
   * the connection drops (partial output, no exit status) and the state turns "offline". One-shot.
   */
  offlineAfterOutputBytes?: number;
  /** `uiautomator dump` fails with this error text ("null root node" | "could not get idle state"), `count` times. */
  dumpError?: { kind: "null root node" | "could not get idle state"; count: number };
  /** `screencap -p` returns a one-colour PNG. */
  blankScreencap?: boolean;
  /**
   * A clock in the status bar (com.android.systemui) whose text changes on every read of the screen
   * (dump, page source, screenshot): a screen that never settles, as a live stopwatch or ticker makes it.
   */
  tickingClock?: boolean;
  /** Directories the device's shell user cannot write (mkdir and `>` in them fail: `Permission denied`), e.g. a device
   * without write access to /data/local/tmp. */
  readOnlyDirectories?: string[];
  /** The UiAutomator2 server answers HTTP 500 to every command. */
  uia2Error500?: boolean;
  /** The UiAutomator2 session dies after this many commands. */
  uia2SessionDiesAfter?: number;
}

export type ScrollDirection = "up" | "down" | "left" | "right";

/** IME actions (EditorInfo.IME_ACTION_*) by the names Appium's performEditorAction takes. */
export const EDITOR_ACTIONS = ["normal", "unspecified", "none", "go", "search", "send", "next", "done", "previous"] as const;
export type EditorAction = typeof EDITOR_ACTIONS[number];

/** Attributes of a dump node as the XML carries them (`resource-id`, `text`, `content-desc`, `bounds`, ...). */
export type NodeAttributes = Readonly<Record<string, string>>;

/** A point on the screen in px. */
export interface Point {
  x: number;
  y: number;
}

/**
 * One finger on the screen: down at `from`, up at `to` `heldMs` later (a finger that stays within the touch slop is
 * a tap or a long press, one that moves further a swipe). `afterMs`: the down comes that long after now, on the
 * device's clock (a later stroke of one W3C action sequence).
 */
export interface Stroke {
  from: Point;
  to: Point;
  heldMs: number;
  afterMs?: number;
}

export interface SimDevice {
  readonly serial: string;
  readonly model: string;
  readonly apiLevel: number;
  readonly width: number;
  readonly height: number;
  readonly density: number;
  readonly faults: SimFaults;
  /** The current screen as a uiautomator dump (`<hierarchy rotation="0"><node …>`). */
  hierarchyXml(): string;
  /**
   * Milliseconds (device clock) until the UI has been quiet for `quietMs` (no frame of an animation: a timed
   * screen that gives way sooner than `quietMs`; a late result is a still screen; the tickingClock fault never
   * rests), capped at `timeoutMs`: what
   * UiAutomation.waitForIdle(quietMs, timeoutMs) would wait now. 0 when it is quiet already.
   */
  msUntilIdle(quietMs: number, timeoutMs: number): number;
  foregroundPackage(): string;
  foregroundActivity(): string;
  keyboard(): { open: boolean; top?: number };
  installedPackages(): { name: string; system: boolean }[];
  /** PNG of the current screen, drawn from node bounds (one colour when the fault is on). */
  screenshotPng(): Uint8Array;

  /** An element click: a press at the centre of the node, delivered like `tapAt`. */
  tap(node: NodeAttributes): void;
  /** Replaces the text of an input node and re-renders the hierarchy. */
  setText(node: NodeAttributes, text: string): void;
  back(): void;
  /** Scrolls a container (a node, or one inside it; null: the screen's main list) so content that way comes into view. */
  scroll(direction: ScrollDirection, container?: NodeAttributes | null): void;
  /** Whether another scroll that way would show another part of the screen (UiAutomator2's "can still scroll"). */
  canScroll(direction: ScrollDirection, container?: NodeAttributes | null): boolean;
  /** A finger held at the centre of the node (`heldMs`, default past the long-press timeout): read as any stroke. */
  longPress(node: NodeAttributes, heldMs?: number): void;
  /** Two quick taps at the centre of the node (a double-tap handler, else two taps). */
  doubleTap(node: NodeAttributes): void;
  /** One finger's stroke, read as a phone reads it: a tap, a long press or a swipe (scenario/gestures.ts). */
  stroke(stroke: Stroke): void;
  /** The IME's editor action on the focused input (search, go, send, done, next, …). */
  editorAction(action: EditorAction): void;
  /** A key event by Android key code (HOME 3, BACK 4, ENTER 66, DEL 67, APP_SWITCH 187; others change nothing). */
  pressKey(keycode: number): void;
  /** Pulls the notification shade down. */
  openNotifications(): void;
  /** A VIEW intent for the URL (optionally only that package); the component that took it, or null when nothing handles it. */
  openUrl(url: string, packageName?: string): { component: string } | null;
  /** `am force-stop`: the package's task goes. */
  forceStop(packageName: string): void;
  /** `pm clear`: stops the app and forgets its data; false when it is not installed. */
  clearApp(packageName: string): boolean;
  /** Packages with a running process (`dumpsys activity processes`). */
  runningPackages(): string[];
  /** Brings a package to the foreground; false when it is not installed. */
  launch(packageName: string): boolean;
  /**
   * A quick tap at this point (`input tap`, clickGesture): the view that takes the touch there (touch_point.ts:
   * ViewGroup.dispatchTouchEvent's order) clicks when it is clickable and enabled; otherwise nothing happens.
   */
  tapAt(x: number, y: number): void;

  /**
   * Every adb command and UiAutomator2 action the device received, in order (for promise tests). The last
   * 10,000 are kept; `length` counts all ever received, so `log.slice(log.length)` later reads what came since.
   */
  readonly log: CommandLog;

  /** The on-device UiAutomator2 server quit (its session was really deleted): ends its `am instrument -w`. */
  uia2ServerQuit(): void;
  /** Calls `listener` each time the UiAutomator2 server quits; returns the unsubscribe. */
  onUia2ServerQuit(listener: () => void): () => void;
  /** Whether the UiAutomator2 server's instrumentation has started and runs (the latency profile prices a session by it). */
  readonly uia2Instrumented: boolean;
  setUia2Instrumented(running: boolean): void;
}
