/**
 * Session commands about the whole device: page source (once the UI is idle: idle.ts), screenshot (the device's PNG as base64),
 * back, activate app, keyboard, current package/activity, window size, and the device-side calls the real Appium UiAutomator2 driver
 * makes (pixel_ratio, system_bars, display_density, device info, press_keycode, settings).
 */
import { Buffer } from "node:buffer";
import type { SessionCommand, SessionRoute } from "./command.ts";
import { stringArg } from "./command.ts";
import { openNotifications, pressKeycode } from "./hand_commands.ts";
import { getSettings, updateSettings, waitForIdle } from "./idle.ts";
import { w3cError } from "./w3c_error.ts";

function statusBarHeight(c: SessionCommand): number {
  return Math.round(24 * c.device.density / 160);
}

export function activateApp(c: SessionCommand, args: Readonly<Record<string, unknown>>): null {
  const appId = typeof args["appId"] === "string" ? args["appId"] : stringArg(args, "bundleId");
  if (!c.device.launch(appId)) {
    throw w3cError(
      "unknown error",
      `An unknown server-side error occurred while processing the command. Original error: ` +
        `The application '${appId}' is not installed on the device. Install it or pick an installed package.`,
    );
  }
  return null;
}

/** Closes the soft keyboard the way Android does (BACK); true when one was open. */
export function hideKeyboard(c: SessionCommand): boolean {
  if (!c.device.keyboard().open) return false;
  c.device.back();
  return true;
}

export const DEVICE_ROUTES: SessionRoute[] = [
  { scope: "session", method: "GET", path: "", name: "get session", handle: (c) => c.session.capabilities },
  {
    scope: "session",
    method: "GET",
    path: "/source",
    name: "get page source",
    handle: async (c) => (await waitForIdle(c), c.screen.read().source),
  },
  {
    scope: "session",
    method: "GET",
    path: "/screenshot",
    name: "take screenshot",
    handle: (c) => Buffer.from(c.device.screenshotPng()).toString("base64"),
  },
  { scope: "session", method: "POST", path: "/back", name: "back", handle: (c) => (c.device.back(), null) },
  { scope: "session", method: "POST", path: "/appium/device/activate_app", name: "activate app", handle: (c) => activateApp(c, c.body) },
  { scope: "session", method: "POST", path: "/appium/device/press_keycode", name: "press keycode", handle: (c) => pressKeycode(c, c.body) },
  {
    scope: "session",
    method: "POST",
    path: "/appium/device/long_press_keycode",
    name: "long press keycode",
    handle: (c) => pressKeycode(c, c.body),
  },
  { scope: "session", method: "POST", path: "/appium/device/open_notifications", name: "open notifications", handle: openNotifications },
  { scope: "session", method: "POST", path: "/appium/device/hide_keyboard", name: "hide keyboard", handle: hideKeyboard },
  {
    scope: "session",
    method: "GET",
    path: "/appium/device/is_keyboard_shown",
    name: "is keyboard shown",
    handle: (c) => c.device.keyboard().open,
  },
  {
    scope: "session",
    method: "GET",
    path: "/appium/device/current_package",
    name: "current package",
    handle: (c) => c.device.foregroundPackage(),
  },
  {
    scope: "session",
    method: "GET",
    path: "/appium/device/current_activity",
    name: "current activity",
    handle: (c) => c.device.foregroundActivity(),
  },
  { scope: "session", method: "POST", path: "/timeouts", name: "set timeouts", handle: () => null },
  {
    scope: "session",
    method: "GET",
    path: "/window/rect",
    name: "get window rect",
    handle: (c) => ({ x: 0, y: 0, width: c.device.width, height: c.device.height }),
  },
  {
    scope: "session",
    method: "GET",
    path: "/window/current/size",
    name: "get window size",
    handle: (c) => ({ width: c.device.width, height: c.device.height }),
  },
  { scope: "session", method: "GET", path: "/appium/device/pixel_ratio", name: "pixel ratio", handle: (c) => c.device.density / 160 },
  { scope: "session", method: "GET", path: "/appium/device/display_density", name: "display density", handle: (c) => c.device.density },
  {
    scope: "session",
    method: "GET",
    path: "/appium/device/system_bars",
    name: "system bars",
    handle: (c) => ({ statusBar: statusBarHeight(c) }),
  },
  {
    scope: "session",
    method: "GET",
    path: "/appium/device/info",
    name: "device info",
    handle: (c) => ({
      apiVersion: String(c.device.apiLevel),
      platformVersion: "",
      manufacturer: "Simulated",
      model: c.device.model,
      brand: "sim",
      realDisplaySize: `${c.device.width}x${c.device.height}`,
      displayDensity: c.device.density,
    }),
  },
  { scope: "session", method: "GET", path: "/appium/settings", name: "get settings", handle: getSettings },
  { scope: "session", method: "POST", path: "/appium/settings", name: "update settings", handle: updateSettings },
  { scope: "session", method: "GET", path: "/orientation", name: "get orientation", handle: () => "PORTRAIT" },
];
