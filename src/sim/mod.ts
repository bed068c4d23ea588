/**
 * The simulated device's public entry: the one module of the package (src/sim/package.json) that code outside it
 * imports (tests/contract/layering.test.ts holds it; tests/sim/, the package's own tests, may reach inside).
 * `startSimDevice({scenario?, screen?, faults?, latency?, clock?, devices?})` builds a ScenarioDevice (from a scenario, or a
 * still one from a real capture), or `devices` of them (several devices behind one adb server: simDeviceSpec), each with
 * its own screen state and its own simulated UiAutomator2 server, starts them and the fake adb server on loopback
 * ephemeral ports (adb's device-side tcp:6790 tunnels to the UiAutomator2 server while its `am instrument -w` runs, as on a device), and returns how to reach them
 * plus `stop()`; `device` is the running device: its command log (`device.log`) and faults (`device.setFaults`).
 * Scenario and capture errors are HarnessError INVALID_ARGUMENT; nothing listens after `stop()` resolves.
 */
import { HarnessError } from "../../contracts/errors.ts";
import { MAX_SIM_DEVICES } from "../../contracts/scenario_names.ts";
import { startAdbServer } from "./adb/server.ts";
import { type CapturedScreen, captureScenario } from "./scenario/capture_scenario.ts";
import { resolveScenario, type ScenarioSource } from "./scenario/load.ts";
import { ScenarioDevice } from "./scenario_device.ts";
import { answerDelays, latencyProfile, type LatencyProfileName, type SimClock } from "./latency.ts";
import type { SimFaults } from "./sim_device.ts";
import type { AndroidSpec } from "./scenario/types.ts";
import { startUia2Server, type Uia2Server } from "./uia2/server.ts";

/** The port the UiAutomator2 server listens on inside a real device (Appium forwards systemPort to it). */
export const UIA2_DEVICE_PORT = 6790;

export interface SimDeviceOptions {
  /** A built-in scenario name, a Scenario object; default "settings". */
  scenario?: ScenarioSource;
  /**
   * A real capture to show instead of a scenario (`sim --screen`): the dump's XML and optionally the
   * PNG taken with it. The device stands still: acts are answered but change nothing.
   */
  screen?: CapturedScreen;
  /** Fault switches on top of the scenario's own. */
  faults?: SimFaults;
  host?: string;
  /** How long answers take: "none" (default) or "device", a real phone's figures (latency.ts). */
  latency?: LatencyProfileName | (string & Record<never, never>);
  /** The clock the latency waits run on (default: real timers; tests pass a fake one). */
  clock?: SimClock;
  /** How many devices one adb server serves (default 1, at most MAX_SIM_DEVICES): the first as the scenario says, the
   * others as simDeviceSpec makes them (their own serial and model, the same scenario, their own screen state). */
  devices?: number;
}

export { MAX_SIM_DEVICES } from "../../contracts/scenario_names.ts";

export interface RunningSim {
  adbPort: number;
  /** `tcp:127.0.0.1:PORT`, for ADB_SERVER_SOCKET. */
  adbServerSocket: string;
  /** The simulated UiAutomator2 server, usable as an Appium URL by webdriverio. */
  appiumUrl: string;
  /** The first device (the only one unless `devices` asked for more). */
  device: ScenarioDevice;
  /** Every device behind the adb server, in `adb devices` order. */
  devices: ScenarioDevice[];
  stop(): Promise<void>;
}

export async function startSimDevice(options: SimDeviceOptions = {}): Promise<RunningSim> {
  const count = options.devices ?? 1;
  if (!Number.isInteger(count) || count < 1 || count > MAX_SIM_DEVICES) {
    throw new HarnessError(
      "INVALID_ARGUMENT",
      `The simulated device count must be a whole number from 1 to ${MAX_SIM_DEVICES}, not ${count}.`,
    );
  }
  const devices = Array.from({ length: count }, (_, index) => deviceFor(options, index));
  for (const device of devices) if (options.faults !== undefined) device.setFaults(options.faults);
  const host = options.host ?? "127.0.0.1";
  const delays = answerDelays(latencyProfile(options.latency ?? "none"), options.clock);
  const uia2s: Uia2Server[] = [];
  let adb;
  try {
    for (const device of devices) uia2s.push(await startUia2Server(device, { host, port: 0, delays }));
    adb = await startAdbServer(devices, {
      host,
      port: 0,
      devicePortsOf: new Map(devices.map((device, index) => [device, { [UIA2_DEVICE_PORT]: uia2s[index]!.port }])),
      instrumentedPorts: [UIA2_DEVICE_PORT],
      delays,
    });
  } catch (error) {
    await Promise.all(uia2s.map((uia2) => uia2.stop()));
    throw error;
  }
  return {
    adbPort: adb.port,
    adbServerSocket: adb.socketSpec,
    appiumUrl: uia2s[0]!.url,
    device: devices[0]!,
    devices,
    stop: async () => {
      await Promise.all([adb.stop(), ...uia2s.map((uia2) => uia2.stop())]);
    },
  };
}

/**
 * The `index`-th device behind one simulated adb server: the first as its scenario says; each other one the same
 * scenario on its own serial (emulator-5556, emulator-5558, ... as the emulator numbers a second and third) and model
 * (`<model>_2`, `<model>_3`, ...), product and device name unchanged (so a name can fit several, as two emulators of one
 * image do).
 */
export function simDeviceSpec(android: AndroidSpec, index: number): AndroidSpec {
  if (index === 0) return android;
  const port = /^emulator-(\d+)$/.exec(android.serial);
  const serial = port === null ? `${android.serial}-${index + 1}` : `emulator-${Number(port[1]) + 2 * index}`;
  return { ...android, serial, model: `${android.model}_${index + 1}` };
}

function deviceFor(options: SimDeviceOptions, index: number): ScenarioDevice {
  if (options.screen === undefined) {
    const scenario = resolveScenario(options.scenario); // a new object on each call (a built-in one copied)
    return new ScenarioDevice({ ...scenario, android: simDeviceSpec(scenario.android, index) });
  }
  if (options.scenario !== undefined) {
    throw new HarnessError("INVALID_ARGUMENT", "Give either a scenario or a screen capture to the simulated device, not both.");
  }
  const { scenario, screenshots } = captureScenario(options.screen);
  return new ScenarioDevice({ ...scenario, android: simDeviceSpec(scenario.android, index) }, { screenshots });
}

// The two servers alone, for what startSimDevice does not arrange: several devices behind one adb server, a
// UiAutomator2 server without adb, an adb server that goes away.
export { type AdbServer, startAdbServer } from "./adb/server.ts";
export { startUia2Server, type Uia2Server } from "./uia2/server.ts";

// The device: what it holds, what it was sent, what can go wrong on it.
export { ScenarioDevice } from "./scenario_device.ts";
export type { SimFaults } from "./sim_device.ts";
export type { LogEntry } from "./command_log.ts";

// Scenarios: the built-in ones, scenario files, real captures; the data they are written in.
export { BUILTIN_SCENARIOS, DEFAULT_SCENARIO } from "./scenarios/mod.ts";
export { parseScenarioText, resolveScenario, type ScenarioSource } from "./scenario/load.ts";
export { type CapturedScreen, captureScenario } from "./scenario/capture_scenario.ts";
export type { NodeSpec, Scenario } from "./scenario/types.ts";
export { missingPackageHint } from "./package_hint.ts";

// Time: how slowly it answers, and UiAutomator2's idle wait (what a page source or a click waits for).
export { DEVICE_FIGURES, LATENCY_PROFILE_NAMES, latencyProfile, type LatencyProfileName, type SimClock } from "./latency.ts";
export { IDLE_QUIET_MS } from "./uia2/idle.ts";
export { DEFAULT_WAIT_FOR_IDLE_TIMEOUT_MS } from "./uia2/sessions.ts";

// Pictures: the SIMULATED badge every screenshot carries.
export { simulatedBadge } from "./png/screencap.ts";
export { ScreenRecorder } from "./video/screen_recorder.ts";
/** The simulated shell's lexer (quotes, globbing), for tests that check what the device's `sh` makes of a line. */
export { parseCommandLine, type SimpleCommand } from "./shell/command_line.ts";

// Its video writer, for tests of what reads its recordings (an MP4 of H.264 I_PCM frames).
export { type Mp4Video, writeMp4 } from "./video/mp4.ts";
export { idrSlice, pictureParameterSet, type PictureSize, sequenceParameterSet } from "./video/h264_pcm.ts";
