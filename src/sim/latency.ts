/**
 * The simulated device's clock: a latency profile says how long a real phone takes to answer each adb command
 * and UiAutomator2 request, so a bench or a timing check sees a device's waits instead of the simulator's few
 * milliseconds. "none" (the default) adds nothing; "device" uses the public figures in docs/simulated-device.md
 * (section "Latency profile"), each with its source. The waits run on an injected clock (tests pass a fake one).
 * `latencyProfile(name)` throws INVALID_ARGUMENT for a name that is not a profile.
 */
import { HarnessError } from "../errors.ts";

export const LATENCY_PROFILE_NAMES = ["none", "device"] as const;
export type LatencyProfileName = (typeof LATENCY_PROFILE_NAMES)[number];

export interface LatencyProfile {
  name: LatencyProfileName;
  /** Milliseconds a shell or exec command takes on the device, from its command line and the bytes it printed. */
  adbCommand(command: string, outputBytes: number): number;
  /** Milliseconds a UiAutomator2 request takes, from its route name (routes.ts) and the bytes of its answer. */
  uia2Request(route: string, answerBytes: number): number;
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
  newSession: 20_000,
} as const;

const NONE: LatencyProfile = { name: "none", adbCommand: () => 0, uia2Request: () => 0 };

const DEVICE: LatencyProfile = {
  name: "device",
  adbCommand(given, outputBytes) {
    const f = DEVICE_FIGURES;
    const command = given.replaceAll("'", ""); // exec: quotes every argument after the first (`uiautomator 'dump' '/dev/tty'`)
    const kb = outputBytes / 1024;
    if (/\buiautomator\s+dump\b/.test(command)) return f.adbShell + f.uiautomatorDumpBase + Math.round(kb * f.uiautomatorDumpPerKb);
    if (/\bscreencap\b/.test(command)) return f.adbShell + f.screencap;
    if (/\binput\s/.test(command)) return f.adbShell + f.input;
    if (/\bdumpsys\b/.test(command)) return f.dumpsys;
    if (/^\s*wm\s/.test(command)) return f.wm;
    return f.adbShell;
  },
  uia2Request(route, answerBytes) {
    const f = DEVICE_FIGURES;
    if (route === "new session") return f.newSession;
    if (route === "get page source") return f.uia2Transport + f.pageSourceBase + Math.round((answerBytes / 1024) * f.pageSourcePerKb);
    if (route === "take screenshot") return f.uia2Transport + f.screencap;
    return f.uia2Transport;
  },
};

export function latencyProfile(name: string): LatencyProfile {
  if (name === "none") return NONE;
  if (name === "device") return DEVICE;
  throw new HarnessError("INVALID_ARGUMENT",
    `Unknown latency profile "${name}": use one of ${LATENCY_PROFILE_NAMES.join(", ")} ("device" delays answers as a real phone does).`);
}

/** What the simulator waits on: the sim's clock (a fake one in tests). */
export interface SimClock {
  sleep(ms: number): Promise<void>;
}

/** The waits the adb and UiAutomator2 servers take before they answer. */
export interface AnswerDelays {
  adb(command: string, outputBytes: number): Promise<void>;
  uia2(route: string, answerBytes: number): Promise<void>;
}

export const NO_DELAYS: AnswerDelays = { adb: async () => {}, uia2: async () => {} };

export function answerDelays(profile: LatencyProfile, clock: SimClock = timerClock()): AnswerDelays {
  if (profile.name === "none") return NO_DELAYS;
  const wait = (ms: number) => (ms > 0 ? clock.sleep(ms) : Promise.resolve());
  return {
    adb: (command, bytes) => wait(profile.adbCommand(command, bytes)),
    uia2: (route, bytes) => wait(profile.uia2Request(route, bytes)),
  };
}

function timerClock(): SimClock {
  return { sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
}
