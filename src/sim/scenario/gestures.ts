/**
 * How a phone reads one finger's stroke, whoever sends it (`input tap` / `input swipe`, W3C pointer actions,
 * UiAutomator2's gestures): ViewConfiguration's figures and GestureDetector's double-tap rule. A finger that moves
 * more than the touch slop (8 dp) scrolls; one held still past the long-press timeout is a long press; anything
 * else is a tap. Two taps are a double tap when the second down comes 40 to 300 ms after the first up
 * (DOUBLE_TAP_MIN_TIME, DOUBLE_TAP_TIMEOUT) and within 100 dp of it (DOUBLE_TAP_SLOP). The long-press timeout is
 * ViewConfiguration.DEFAULT_LONG_PRESS_TIMEOUT: 400 ms on Android 12 and later, 500 ms before. Pure.
 */
import type { Stroke } from "../sim_device.ts";

export const DOUBLE_TAP_TIMEOUT_MS = 300;
export const DOUBLE_TAP_MIN_TIME_MS = 40;
const TOUCH_SLOP_DP = 8;
const DOUBLE_TAP_SLOP_DP = 100;

/** What `input swipe` holds when no duration is given (InputShellCommand.sendSwipe). */
export const INPUT_SWIPE_DEFAULT_MS = 300;

export interface TouchConfig {
  /** The Android API level (the long-press timeout). */
  api: number;
  /** Dots per inch as `wm density` prints it (160 = 1 px per dp). */
  density: number;
}

/** ViewConfiguration.getLongPressTimeout() with the default setting. */
export function longPressTimeoutMs(api: number): number {
  return api >= 31 ? 400 : 500;
}

/** A length in dp as ViewConfiguration scales it: `(int) (density * dp + 0.5f)`. */
function scaled(dp: number, dpi: number): number {
  return Math.floor((dpi / 160) * dp + 0.5);
}

export type StrokeKind = "tap" | "long_press" | "swipe";

export function strokeKind(stroke: Stroke, config: TouchConfig): StrokeKind {
  const moved = Math.hypot(stroke.to.x - stroke.from.x, stroke.to.y - stroke.from.y);
  if (moved > scaled(TOUCH_SLOP_DP, config.density)) return "swipe";
  return stroke.heldMs >= longPressTimeoutMs(config.api) ? "long_press" : "tap";
}

/** A tap's place and when its finger lifted (device clock, ms). */
export interface TapRecord {
  x: number;
  y: number;
  upAt: number;
}

/** GestureDetector.isConsideredDoubleTap: the second down 40–300 ms after the first up, within the double-tap slop. */
export function isDoubleTap(first: TapRecord, second: { x: number; y: number; downAt: number }, config: TouchConfig): boolean {
  const gap = second.downAt - first.upAt;
  if (gap < DOUBLE_TAP_MIN_TIME_MS || gap > DOUBLE_TAP_TIMEOUT_MS) return false;
  const slop = scaled(DOUBLE_TAP_SLOP_DP, config.density);
  const dx = second.x - first.x, dy = second.y - first.y;
  return dx * dx + dy * dy < slop * slop;
}
