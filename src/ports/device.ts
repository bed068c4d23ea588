/**
 * Port: read-only observation of one Android device (SPEC §4 "Observe"). Implemented over adb
 * (src/adapters/adb/); never opens an Appium session, never sends input or start commands.
 * Every method takes `{timeoutMs, signal}` and throws only HarnessError:
 * EMULATOR_UNAVAILABLE, UI_TREE_UNAVAILABLE, OPERATION_TIMEOUT, INTERNAL_ERROR.
 */
import type { TreeCapture } from "../screen/mod.ts";

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ScreenGeometry {
  width: number;
  height: number;
  density: number;
}

export interface DeviceStatus {
  udid: string;
  online: boolean;
  model: string;
  api_level: number;
  screen: ScreenGeometry;
  foreground_package: string;
  keyboard_open: boolean;
  /** True when the device is the built-in simulated one. */
  simulated?: boolean;
}

/** What one read of the screen gives (the screen model's type: it builds a summary from it). */
export type { TreeCapture } from "../screen/mod.ts";

export interface OnlineDevices {
  online: { udid: string; model: string }[];
  default: string | null;
}

/** The device a call means, and the online devices as the same `adb devices -l` listed them (null: none was asked). */
export interface ResolvedDevice {
  udid: string;
  devices: OnlineDevices | null;
}

export interface DeviceObserver {
  /** The adb server the device is reached through, canonical (e.g. `tcp:127.0.0.1:5037`); with the
   * udid it names the device, e.g. for the device lock. */
  readonly adbServer: string;
  /** The udid this observer is bound to: the bound serial, else ANDROID_UDID, else the last device resolved ("" before). */
  readonly udid: string;
  /** Which device to use: the call's `device` (a serial, or a model or device name, case-insensitive), else
   * ANDROID_UDID (checked online), else the only online device (a bound observer: its serial, without asking adb).
   * Call it before taking the device lock. Throws EMULATOR_UNAVAILABLE naming what adb lists and how to choose
   * (INVALID_ARGUMENT for a name that fits several online devices). */
  resolveDevice(options: WaitOptions & { device?: string | undefined }): Promise<ResolvedDevice>;
  /** The online devices (serial and model) and the one a call without `device` uses (null: none, or several and none bound);
   * a bound observer given the listing its device was resolved from answers that one, without asking adb again. */
  devices(options: WaitOptions): Promise<OnlineDevices>;
  /** An observer of exactly this device for one operation: no device selection, every command goes to
   * `udid` (the one that was locked), so the lock and the work cannot name different devices. A device
   * that went away is EMULATOR_UNAVAILABLE from its first command. */
  bind(udid: string, listed?: OnlineDevices): DeviceObserver;
  status(options: WaitOptions): Promise<DeviceStatus>;
  captureTree(options: WaitOptions): Promise<TreeCapture>;
  /** What a summary needs besides the XML, without dumping it (while a UI session holds the device, the
   * page source comes from the session): screen geometry, keyboard and foreground package. */
  screenContext(options: WaitOptions): Promise<Omit<TreeCapture, "xml">>;
  /** Full-resolution PNG bytes from `screencap -p`. */
  screenshot(options: WaitOptions): Promise<Uint8Array>;
  /** Installed package names containing `filter` (case-insensitive), each once, sorted. */
  listPackages(query: { filter?: string; includeSystem: boolean }, options: WaitOptions): Promise<string[]>;
  /** The simulated device only: a sentence for APP_NOT_FOUND naming where the package is (which scenario). */
  missingPackageHint?(packageName: string): string;
}
