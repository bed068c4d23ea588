/**
 * The simulated device's clock: a latency profile says how long a real phone takes to answer each adb command
 * and UiAutomator2 request, so a bench or a timing check sees a device's waits instead of the simulator's few
 * milliseconds. "none" (the default) adds nothing; "device" uses the public figures in docs/simulated-device.md
 * (section "Latency profile"), each with its source. The waits run on an injected clock (tests pass a fake one).
 * A UiAutomator2 page source or click first waits for an idle UI (uia2/idle.ts, on the device's own clock, with
 * any profile); the profile's time (the dump) comes after that wait. `latencyProfile(name)` throws
 * INVALID_ARGUMENT for a name that is not a profile.
 */
import { HarnessError } from "../../contracts/errors.ts";

export const LATENCY_PROFILE_NAMES = ["none", "device"] as const;
export type LatencyProfileName = (typeof LATENCY_PROFILE_NAMES)[number];

export interface LatencyProfile {
  name: LatencyProfileName;
  /** Milliseconds a shell or exec command takes on the device, from its command line and the bytes it printed. */
  adbCommand(command: string, outputBytes: number): number;
  /** Milliseconds a UiAutomator2 request takes, from its route name (routes.ts; `execute script <script>` for a script)
   * and the bytes of its answer. */
  uia2Request(route: string, answerBytes: number): number;
  /** Milliseconds a streamed APK install takes: its bytes over adb, then the package manager's verify and dexopt. */
  apkInstall(bytes: number): number;
  /** Milliseconds from `am instrument -w` until the UiAutomator2 server it starts answers on its port. */
  instrumentationStart(): number;
}

/** The "device" profile's figures (ms); docs/simulated-device.md gives the source of each. */
export const DEVICE_FIGURES = {
  adbShell: 28,
  wm: 46,
  dumpsys: 71,
  screencap: 660,
  input: 1160,
  uiautomatorDumpBase: 1500,
  uiautomatorDumpPerKb: 8,
  uia2Transport: 2,
  pageSourceBase: 50,
  pageSourcePerKb: 3,
  /** POST /session on a UiAutomator2 server already running (its instrumentation started): the server's own work. */
  newSession: 300,
  /** POST /session with no instrumentation running: the sim stands in for Appium and the driver (`--appium-url` at the
   * sim's UiAutomator2 URL), so it charges Appium's whole session start (install checks, instrumentation, session). */
  appiumSessionStart: 20_000,
  /** adb's streamed install over USB 2.0, bytes per millisecond (25 MB/s). */
  apkBytesPerMs: 25_000,
  /** The package manager's work per install beyond the bytes (session commit, signature verify, dexopt). */
  apkInstallBase: 1_500,
  /** `am instrument -w` until the UiAutomator2 server answers `/status`. */
  instrumentationStart: 3_000,
  clickQuiet: 500,
} as const;

/** `mobile:` commands the Appium driver answers by running `adb shell dumpsys …` itself (appium-adb's
 * isSoftKeyboardPresent: `dumpsys input_method`; getFocusedPackageAndActivity: `dumpsys window`). */
const ADB_BACKED_SCRIPTS = new Set(["execute script mobile: isKeyboardShown", "execute script mobile: getCurrentPackage"]);

/** The route name the UiAutomator2 server prices a POST /session under when no instrumentation runs (uia2/server.ts). */
export const APPIUM_NEW_SESSION = "new session without instrumentation";

const NONE: LatencyProfile = {
  name: "none",
  adbCommand: () => 0,
  uia2Request: () => 0,
  apkInstall: () => 0,
  instrumentationStart: () => 0,
};

const DEVICE: LatencyProfile = {
  name: "device",
  adbCommand(given, outputBytes) {
    // One round trip for the line, plus each `;`-joined command's own time on the device (an `echo` adds none).
    const parts = given.replaceAll("'", "").split(";"); // exec: quotes every argument after the first (`uiautomator 'dump' '/dev/tty'`)
    return DEVICE_FIGURES.adbShell + parts.reduce((sum, part) => sum + deviceWork(part.trim(), outputBytes), 0);
  },
  uia2Request(route, answerBytes) {
    const f = DEVICE_FIGURES;
    if (route === "new session") return f.uia2Transport + f.newSession;
    if (route === APPIUM_NEW_SESSION) return f.appiumSessionStart;
    if (route === "get page source") return f.uia2Transport + f.pageSourceBase + Math.round((answerBytes / 1024) * f.pageSourcePerKb);
    if (route === "take screenshot") return f.uia2Transport + f.screencap;
    // The click's own accessibility events restart the quiet period UiAutomator2 waits for after a click.
    if (route === "click") return f.uia2Transport + f.clickQuiet;
    if (ADB_BACKED_SCRIPTS.has(route)) return f.uia2Transport + f.dumpsys;
    return f.uia2Transport;
  },
  apkInstall: (bytes) => DEVICE_FIGURES.apkInstallBase + Math.round(bytes / DEVICE_FIGURES.apkBytesPerMs),
  instrumentationStart: () => DEVICE_FIGURES.instrumentationStart,
};

/** A single command's time on the device beyond the adb round trip (DEVICE_FIGURES). */
function deviceWork(command: string, outputBytes: number): number {
  const f = DEVICE_FIGURES;
  const kb = outputBytes / 1024;
  if (/\buiautomator\s+dump\b/.test(command)) return f.uiautomatorDumpBase + Math.round(kb * f.uiautomatorDumpPerKb);
  if (/\bscreencap\b/.test(command)) return f.screencap;
  if (/\binput\s/.test(command)) return f.input;
  if (/^dumpsys\b/.test(command)) return f.dumpsys - f.adbShell;
  if (/^wm\s/.test(command)) return f.wm - f.adbShell;
  return 0;
}

export function latencyProfile(name: string): LatencyProfile {
  if (name === "none") return NONE;
  if (name === "device") return DEVICE;
  throw new HarnessError(
    "INVALID_ARGUMENT",
    `Unknown latency profile "${name}": use one of ${LATENCY_PROFILE_NAMES.join(", ")} ("device" delays answers as a real phone does).`,
  );
}

/** What the simulator waits on: the sim's clock (a fake one in tests). */
export interface SimClock {
  sleep(ms: number): Promise<void>;
}

/** The waits the adb and UiAutomator2 servers take before they answer. */
export interface AnswerDelays {
  adb(command: string, outputBytes: number): Promise<void>;
  uia2(route: string, answerBytes: number): Promise<void>;
  /** After a streamed install's bytes arrived, before its "Success". */
  install(bytes: number): Promise<void>;
  /** After `am instrument -w` arrived, before its server answers on its port. */
  instrumentation(): Promise<void>;
}

export const NO_DELAYS: AnswerDelays = {
  adb: async () => {},
  uia2: async () => {},
  install: async () => {},
  instrumentation: async () => {},
};

export function answerDelays(profile: LatencyProfile, clock: SimClock = timerClock()): AnswerDelays {
  if (profile.name === "none") return NO_DELAYS;
  const wait = (ms: number) => (ms > 0 ? clock.sleep(ms) : Promise.resolve());
  return {
    adb: (command, bytes) => wait(profile.adbCommand(command, bytes)),
    uia2: (route, bytes) => wait(profile.uia2Request(route, bytes)),
    install: (bytes) => wait(profile.apkInstall(bytes)),
    instrumentation: () => wait(profile.instrumentationStart()),
  };
}

function timerClock(): SimClock {
  return { sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
}
