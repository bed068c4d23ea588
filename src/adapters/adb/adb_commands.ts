/**
 * The closed list of adb commands the harness can run (SPEC §7: no arbitrary shell). Each entry
 * builds an argument array from validated, typed values; nothing else in the code base can reach
 * adb. Device commands are prefixed with `-s <serial>` by the client. All are read-only.
 */
import { checkPackageName, checkPropertyKey } from "./adb_arguments.ts";
import { sectionArgs } from "./shell_sections.ts";

export interface AdbCommand {
  /** Name used in logs, errors and tests. */
  name: string;
  /** Arguments after `adb [-s serial]`. */
  args: string[];
  /** Whether the command addresses one device (`-s serial` is added). */
  device: boolean;
  /** Binary output (PNG): stdout must not be decoded as text. */
  binary?: boolean;
}

const host = (name: string, args: string[]): AdbCommand => ({ name, args, device: false });
const shell = (name: string, args: string[]): AdbCommand => ({ name, args: ["shell", ...args], device: true });
const execOut = (name: string, args: string[], binary = false): AdbCommand =>
  binary ? { name, args: ["exec-out", ...args], device: true, binary } : { name, args: ["exec-out", ...args], device: true };

const SCREEN_FACT_COMMANDS = [["wm", "size"], ["wm", "density"], ["dumpsys", "input_method"], ["dumpsys", "window", "InputMethod"], [
  "dumpsys",
  "window",
  "displays",
]] as const;
export const SCREEN_FACT_SECTIONS = SCREEN_FACT_COMMANDS.length;

export const ADB_COMMANDS = {
  version: () => host("version", ["version"]),
  devices: () => host("devices", ["devices", "-l"]),
  getprop: (key: string) => shell("getprop", ["getprop", checkPropertyKey(key)]),
  getpropAll: () => shell("getprop-all", ["getprop"]),
  wmSize: () => shell("wm-size", ["wm", "size"]),
  wmDensity: () => shell("wm-density", ["wm", "density"]),
  /** Focus lines (`mCurrentFocus`, `mFocusedApp`) on API 29+. */
  dumpsysWindowDisplays: () => shell("dumpsys-window-displays", ["dumpsys", "window", "displays"]),
  /** Focus lines on API ≤ 28, and every window block. */
  dumpsysWindowWindows: () => shell("dumpsys-window-windows", ["dumpsys", "window", "windows"]),
  /** Only the input-method window's block. */
  dumpsysWindowInputMethod: () => shell("dumpsys-window-ime", ["dumpsys", "window", "InputMethod"]),
  dumpsysInputMethod: () => shell("dumpsys-input-method", ["dumpsys", "input_method"]),
  /** What a summary needs besides the XML in one shell (shell_sections.ts): `wm size`, `wm density`, `dumpsys
   * input_method`, `dumpsys window InputMethod`, `dumpsys window displays`, in SCREEN_FACT_SECTIONS order. */
  screenFacts: () => shell("screen-facts", sectionArgs(SCREEN_FACT_COMMANDS)),
  dumpsysActivities: () => shell("dumpsys-activities", ["dumpsys", "activity", "activities"]),
  listPackages: (includeSystem: boolean) =>
    shell("pm-list-packages", includeSystem ? ["pm", "list", "packages"] : ["pm", "list", "packages", "-3"]),
  resolveActivity: (packageName: string) =>
    shell("resolve-activity", ["cmd", "package", "resolve-activity", "--brief", checkPackageName(packageName)]),
  /** Hierarchy straight to stdout: no file on the device, so never a stale screen. */
  uiautomatorDump: () => execOut("uiautomator-dump", ["uiautomator", "dump", "/dev/tty"]),
  uiautomatorDumpCompressed: () => execOut("uiautomator-dump-compressed", ["uiautomator", "dump", "--compressed", "/dev/tty"]),
  screencap: () => execOut("screencap", ["screencap", "-p"], true),
} as const satisfies Record<string, (...args: never[]) => AdbCommand>;

export type AdbCommandName = keyof typeof ADB_COMMANDS;
