/**
 * The closed list of adb commands the harness can run (SPEC §7: no arbitrary shell). Each entry
 * builds an argument array from validated, typed values; nothing else in the code base can reach
 * adb. Device commands are prefixed with `-s <serial>` by the client. All are read-only but `startView` (a deep
 * link, opened for the UI session: issue 25). `adb shell` joins its arguments with spaces into one line the
 * device's sh reads (adb does not quote them, as ssh does not), so every word of a `shell` command goes through
 * `shellWord` (quoted unless it holds only characters sh reads literally); `exec-out` quotes each argument itself.
 */
import { HarnessError } from "../../errors.ts";
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
/** Characters a POSIX sh (and Android's mksh) reads literally in an unquoted word: no globbing, expansion or operator. */
const LITERAL_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * One word for a device shell line, read back by sh as exactly `word`: as it is when every character is literal,
 * else in single quotes (each `'` as `'\''`), so `? [ ] * $ ; & | \` ' "`, spaces and newlines reach the command
 * unexpanded. A NUL cannot be passed at all: refused (INVALID_ARGUMENT).
 */
export function shellWord(word: string): string {
  if (word.includes("\0")) throw new HarnessError("INVALID_ARGUMENT", "A NUL character cannot be passed to the device's shell; remove it.");
  return LITERAL_WORD.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

const shell = (name: string, args: string[]): AdbCommand => ({ name, args: ["shell", ...args.map(shellWord)], device: true });
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
  screenFacts: () => ({
    name: "screen-facts",
    args: ["shell", ...sectionArgs(SCREEN_FACT_COMMANDS.map((words) => words.map(shellWord)))],
    device: true,
  }),
  dumpsysActivities: () => shell("dumpsys-activities", ["dumpsys", "activity", "activities"]),
  listPackages: (includeSystem: boolean) =>
    shell("pm-list-packages", includeSystem ? ["pm", "list", "packages"] : ["pm", "list", "packages", "-3"]),
  resolveActivity: (packageName: string) =>
    shell("resolve-activity", ["cmd", "package", "resolve-activity", "--brief", checkPackageName(packageName)]),
  /** Hierarchy straight to stdout: no file on the device, so never a stale screen. */
  uiautomatorDump: () => execOut("uiautomator-dump", ["uiautomator", "dump", "/dev/tty"]),
  uiautomatorDumpCompressed: () => execOut("uiautomator-dump-compressed", ["uiautomator", "dump", "--compressed", "/dev/tty"]),
  screencap: () => execOut("screencap", ["screencap", "-p"], true),
  /** Opens a deep link (`am start -W -a VIEW -d URL [PKG]`, what the UiAutomator2 driver's `mobile: deepLink` runs, but
   * with the URL quoted: the driver escapes only `&`, so a `?` or `[` in it reached sh as a glob). */
  startView: (url: string, packageName?: string) =>
    shell("am-start-view", [
      "am",
      "start",
      "-W",
      "-a",
      "android.intent.action.VIEW",
      "-d",
      url,
      ...(packageName === undefined ? [] : [checkPackageName(packageName)]),
    ]),
} as const satisfies Record<string, (...args: never[]) => AdbCommand>;

export type AdbCommandName = keyof typeof ADB_COMMANDS;
