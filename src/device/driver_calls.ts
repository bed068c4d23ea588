/**
 * Every call of the UiDriver port, classed once: a read of the screen or the device, or a gesture that changes it
 * (the compiler asks for every call the port gains). `aroundDriver` builds a driver whose calls go, each time, to
 * the driver `current()` names then (a warm driver started again is used from its next call), through `around`.
 */
import type { UiDriver } from "../ports/ui_driver.ts";

export type DriverCallKind = "read" | "gesture";
export type DriverCallName = Exclude<keyof UiDriver, "appiumSessionId" | "idleTimeoutMs">;

export const DRIVER_CALLS: Readonly<Record<DriverCallName, DriverCallKind>> = {
  source: "read",
  findElements: "read",
  isKeyboardShown: "read",
  currentPackage: "read",
  delete: "read",
  click: "gesture",
  replaceText: "gesture",
  appendText: "gesture",
  scroll: "gesture",
  longPress: "gesture",
  doubleTap: "gesture",
  editorAction: "gesture",
  pressKey: "gesture",
  openNotifications: "gesture",
  deepLink: "gesture",
  terminateApp: "gesture",
  clearApp: "gesture",
  back: "gesture",
  activateApp: "gesture",
  hideKeyboard: "gesture",
};

type AnyCall = (...args: unknown[]) => Promise<unknown>;

/** How one call runs: `run` sends it to a driver (the current one, or another after a restart). */
export type AroundCall = (name: DriverCallName, kind: DriverCallKind, run: (driver: UiDriver) => Promise<unknown>) => Promise<unknown>;

export function aroundDriver(current: () => UiDriver, around: AroundCall): UiDriver {
  const wrapped: Record<string, unknown> = {};
  Object.defineProperty(wrapped, "appiumSessionId", { get: () => current().appiumSessionId, enumerable: true });
  Object.defineProperty(wrapped, "idleTimeoutMs", { get: () => current().idleTimeoutMs, enumerable: true });
  for (const [name, kind] of Object.entries(DRIVER_CALLS) as [DriverCallName, DriverCallKind][]) {
    wrapped[name] = (...args: unknown[]) =>
      around(name, kind, (driver) => (driver as unknown as Record<DriverCallName, AnyCall>)[name].apply(driver, args));
  }
  return wrapped as unknown as UiDriver;
}
