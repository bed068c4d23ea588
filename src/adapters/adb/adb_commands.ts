/**
 * The closed list of adb commands the harness can run (SPEC §7: no arbitrary shell). Each entry
 * builds an argument array from validated, typed values; nothing else in the code base can reach
 * adb. Device commands are prefixed with `-s <serial>` by the client. The observe commands are read-only; `startView`
 * (a deep link, opened for the UI session: issue 25) and the direct backend's (the UiAutomator2 server's install,
 * forward and instrumentation, and what the Appium driver does with adb: keys, force-stop, clear, launch) change the
 * device, each with its own entry. `adb shell` joins its arguments with spaces into one line the
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
/**
 * A screen recording's bit rate: 4 Mbit/s (Android's default before 20), ample for a UI and at most ~90 MB in a 180 s
 * segment, so every segment fits the video evidence's limit (256 MiB).
 */
export const RECORDING_BIT_RATE = 4_000_000;

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
  /** The installed version of one package (`versionCode=`, `versionName=` lines; nothing when not installed). */
  dumpsysPackage: (packageName: string) => shell("dumpsys-package", ["dumpsys", "package", checkPackageName(packageName)]),
  /** `package:NAME` lines of the installed packages whose name contains the filter. */
  listPackagesMatching: (filter: string) => shell("pm-list-packages-matching", ["pm", "list", "packages", checkPackageName(filter)]),
  /** Streams a local APK to the device's package manager (`-r`: replace an installed one, keeping its data). */
  install: (apkPath: string) => ({ name: "install", args: ["install", "-r", checkApkPath(apkPath)], device: true }),
  uninstall: (packageName: string) => ({ name: "uninstall", args: ["uninstall", checkPackageName(packageName)], device: true }),
  /** A free local port forwarded to the device's TCP port; adb prints the port it chose. */
  forwardFreePort: (devicePort: number) => ({ name: "forward", args: ["forward", "tcp:0", `tcp:${checkPort(devicePort)}`], device: true }),
  forwardRemove: (localPort: number) => ({
    name: "forward-remove",
    args: ["forward", "--remove", `tcp:${checkPort(localPort)}`],
    device: true,
  }),
  /** Blocks while the instrumentation runs (`-w`): the UiAutomator2 server lives as long as this command. */
  instrument: (target: InstrumentationTarget) =>
    shell("am-instrument", ["am", "instrument", "-w", "-e", "disableAnalytics", "true", `${target.testPackage}/${target.runner}`]),
  forceStop: (packageName: string) => shell("am-force-stop", ["am", "force-stop", checkPackageName(packageName)]),
  /** `Success`, or `Failed` for a package that is not installed. */
  clearPackage: (packageName: string) => shell("pm-clear", ["pm", "clear", checkPackageName(packageName)]),
  /** Process ids of a running package (exit 1 and nothing when it is not running). */
  pidof: (packageName: string) => shell("pidof", ["pidof", checkPackageName(packageName)]),
  /** The launcher's way to start an app: one LAUNCHER intent to the package. */
  launchPackage: (packageName: string) =>
    shell("monkey-launch", ["monkey", "-p", checkPackageName(packageName), "-c", "android.intent.category.LAUNCHER", "1"]),
  /**
   * Records the screen to a file of the device until the time limit or a hang-up (screen_recordings.ts), at
   * RECORDING_BIT_RATE: the device's default (20 Mbit/s) writes ~450 MB in a 180 s segment, past the video evidence's limit.
   */
  screenrecord: (seconds: number, devicePath: string) =>
    execOut("screenrecord", [
      "screenrecord",
      "--time-limit",
      String(checkSeconds(seconds)),
      "--bit-rate",
      String(RECORDING_BIT_RATE),
      checkRecordingPath(devicePath),
    ]),
  /** The running `screenrecord` processes' ids (exit 1 and nothing when none runs). */
  pidofScreenrecord: () => shell("pidof-screenrecord", ["pidof", "screenrecord"]),
  /** A recording's bytes, raw. */
  readRecording: (devicePath: string) => execOut("read-recording", ["cat", checkRecordingPath(devicePath)], true),
  removeRecording: (devicePath: string) => shell("remove-recording", ["rm", "-f", checkRecordingPath(devicePath)]),
  keyevent: (keycode: number) => shell("input-keyevent", ["input", "keyevent", String(checkKeycode(keycode))]),
} as const satisfies Record<string, (...args: never[]) => AdbCommand>;

export type AdbCommandName = keyof typeof ADB_COMMANDS;

/** The test package and runner `am instrument` starts (fixed: the harness starts only the UiAutomator2 server). */
export interface InstrumentationTarget {
  testPackage: "io.appium.uiautomator2.server.test";
  runner: "androidx.test.runner.AndroidJUnitRunner";
}

function checkApkPath(path: string): string {
  if (!/^(\/|[A-Za-z]:[\\/])/.test(path) || !/\.apk$/.test(path) || /[\0\r\n]/.test(path)) {
    throw new HarnessError("INTERNAL_ERROR", `The APK to install must be an absolute path to a .apk file, got "${path}".`);
  }
  return path;
}

/** Where the harness has the device write its recordings: `/data/local/tmp/amh-rec-<digits and dashes>.mp4`. */
export const RECORDING_PATH = /^\/data\/local\/tmp\/amh-rec-[0-9a-z-]+\.mp4$/;

function checkRecordingPath(path: string): string {
  if (!RECORDING_PATH.test(path)) {
    throw new HarnessError("INTERNAL_ERROR", `A recording's path on the device must match ${RECORDING_PATH}, got "${path}".`);
  }
  return path;
}

function checkSeconds(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 180) {
    throw new HarnessError("INVALID_ARGUMENT", `${seconds} is not 1 to 180 seconds.`);
  }
  return seconds;
}

function checkPort(port: number): number {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new HarnessError("INVALID_ARGUMENT", `${port} is not a TCP port.`);
  return port;
}

function checkKeycode(code: number): number {
  if (!Number.isInteger(code) || code < 0 || code > 400) throw new HarnessError("INVALID_ARGUMENT", `${code} is not an Android key code.`);
  return code;
}
