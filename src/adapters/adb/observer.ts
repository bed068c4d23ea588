/**
 * `createAdbObserver`: the DeviceObserver over adb (read-only; never an input or start command).
 * Unbound, each call first selects the device (ANDROID_UDID or the only online one, `adb devices -l`; resolveDevice
 * also a call's `device`: resolve_device.ts);
 * `bind(serial)` gives one that sends every command to that serial without selecting. Reads: tree
 * (capture_tree.ts), screen geometry (`wm size`/`wm density`, swapped for rotation 1/3), keyboard
 * (`dumpsys input_method`, `dumpsys window InputMethod`), foreground package (`dumpsys window
 * displays`, then `windows`, then `dumpsys activity activities`), model/API (getprop), screenshot
 * (`exec-out screencap -p`, whole or EMULATOR_UNAVAILABLE: screencap_output.ts) and packages (`pm list
 * packages`). `captureTree` (after the dump) and `screenContext` (what an act and a held session's tree need besides
 * the XML) ask geometry, keyboard and foreground in one shell (`screen-facts`, shell_sections.ts): one adb process. Every shell
 * read is checked for a cut stream by the client. Throws only HarnessError.
 */
import { HarnessError } from "../../errors.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DeviceObserver, DeviceStatus, OnlineDevices, ScreenGeometry, TreeCapture, WaitOptions } from "../../ports/device.ts";
import type { KeyboardState } from "../../screen/mod.ts";
import type { AdbClient } from "./adb_client.ts";
import { ADB_COMMANDS, SCREEN_FACT_SECTIONS } from "./adb_commands.ts";
import { dumpHierarchy } from "./capture_tree.ts";
import { parseResumedActivity } from "./parse_activities.ts";
import { foregroundPackageOf, parseImeWindow, parseWindowFocus } from "./parse_dumpsys_window.ts";
import { parseGetpropValue } from "./parse_getprop.ts";

/** A property only the built-in simulated device sets (to "1"). */
export const SIMULATED_PROPERTY = "ro.android_mcp_harness.simulated";
import { parseInputShown } from "./parse_input_method.ts";
import { parsePackageList } from "./parse_packages.ts";
import { parseWmDensity, parseWmSize } from "./parse_wm.ts";
import { screencapPng } from "./screencap_output.ts";
import { type ListedDevice, parseAdbDevices } from "./parse_devices.ts";
import { onlineDevices, resolveDevice } from "./resolve_device.ts";
import { splitSections } from "./shell_sections.ts";

export interface AdbObserverOptions {
  adb: AdbClient;
  clock: Clock;
  /** ANDROID_UDID / --device; when absent the only online device is used. */
  requestedUdid?: string;
  /** Set for the built-in simulated device, reported by status(). */
  simulated?: boolean;
  /** The simulated device's hint for a package it does not have (DeviceObserver.missingPackageHint). */
  missingPackageHint?: (packageName: string) => string;
}

interface Call {
  serial: string;
  deadline: number;
  signal?: AbortSignal;
}

export function createAdbObserver(options: AdbObserverOptions): DeviceObserver {
  return observerOf(options, undefined, undefined);
}

/** The online devices of one listing, and the one a call without `device` uses: the server's (when online), else the only one. */
function onlineOf(listing: ListedDevice[], requestedUdid: string | undefined): OnlineDevices {
  const online = onlineDevices(listing);
  const byDefault = requestedUdid !== undefined && requestedUdid !== ""
    ? (online.some((d) => d.udid === requestedUdid) ? requestedUdid : null)
    : (online.length === 1 ? online[0]!.udid : null);
  return { online, default: byDefault };
}

/** `bound`: the serial every call uses without `adb devices`; undefined: select per call. `listed`: what the listing that
 * chose it said (devices() answers it). */
function observerOf(options: AdbObserverOptions, bound: string | undefined, listed: OnlineDevices | undefined): DeviceObserver {
  const { adb, clock } = options;
  let lastUdid = bound ?? options.requestedUdid ?? "";

  const list = async (wait: WaitOptions) => parseAdbDevices(await adb.text(ADB_COMMANDS.devices(), wait));
  const begin = async (wait: WaitOptions, asked?: string): Promise<Call & { listing?: ListedDevice[] }> => {
    const deadline = clock.now() + wait.timeoutMs;
    const timing = waitLeft(deadline, clock, wait.signal);
    const listing = bound === undefined ? await list(timing) : undefined;
    const serial = bound ?? resolveDevice(listing!, { asked, bound: options.requestedUdid }).serial;
    lastUdid = serial;
    return {
      serial,
      deadline,
      ...(wait.signal === undefined ? {} : { signal: wait.signal }),
      ...(listing === undefined ? {} : { listing }),
    };
  };
  const text = (call: Call, command: Parameters<AdbClient["text"]>[0]) =>
    adb.text(command, { serial: call.serial, ...waitLeft(call.deadline, clock, call.signal) });

  const geometryOf = async (call: Call, sizeText: string, densityText: string): Promise<ScreenGeometry> => {
    const size = parseWmSize(sizeText);
    let density = parseWmDensity(densityText)?.effective ?? 0;
    if (density === 0) density = Number(parseGetpropValue(await text(call, ADB_COMMANDS.getprop("ro.sf.lcd_density")))) || 0;
    return { width: size?.effective.width ?? 0, height: size?.effective.height ?? 0, density };
  };
  /** The focused window's package from `dumpsys window displays` (already read), else `windows`, else the resumed activity. */
  const foreground = async (call: Call, displaysText: string): Promise<string> => {
    for (const focus of [displaysText, ADB_COMMANDS.dumpsysWindowWindows()]) {
      const pkg = foregroundPackageOf(parseWindowFocus(typeof focus === "string" ? focus : await text(call, focus)));
      if (pkg !== null) return pkg;
    }
    return parseResumedActivity(await text(call, ADB_COMMANDS.dumpsysActivities()))?.packageName ?? "";
  };

  /**
   * Geometry, keyboard and foreground: the five reads in one adb process (`screen-facts`; a tree and an act's facts ask
   * it once each), the fallbacks only where a device needs them.
   */
  const screenFacts = async (call: Call) => {
    const command = ADB_COMMANDS.screenFacts();
    const [size, density, imm, imeWindow, displays] = splitSections(await text(call, command), SCREEN_FACT_SECTIONS, command.name);
    const [screen, foregroundPackage] = await Promise.all([geometryOf(call, size!, density!), foreground(call, displays!)]);
    return { screen, keyboard: keyboardOf(imm!, imeWindow!), foregroundPackage };
  };

  return {
    adbServer: adb.serverAddress,
    get udid() {
      return lastUdid;
    },
    async resolveDevice(wait) {
      const call = await begin(wait, wait.device);
      return { udid: call.serial, devices: call.listing === undefined ? null : onlineOf(call.listing, options.requestedUdid) };
    },
    async devices(wait) {
      // The server's device is the default, also for an observer bound to one operation's.
      return listed ?? onlineOf(await list(wait), options.requestedUdid);
    },
    bind(udid, devices) {
      return observerOf(options, udid, devices);
    },
    ...(options.missingPackageHint === undefined ? {} : { missingPackageHint: options.missingPackageHint }),
    async status(wait): Promise<DeviceStatus> {
      const call = await begin(wait);
      const [model, api, simulatedProp, { screen, foregroundPackage, keyboard: keys }] = await Promise.all([
        text(call, ADB_COMMANDS.getprop("ro.product.model")).then(parseGetpropValue),
        text(call, ADB_COMMANDS.getprop("ro.build.version.sdk")).then(parseGetpropValue),
        // The built-in simulated device says so itself, also when reached through `sim` by socket.
        text(call, ADB_COMMANDS.getprop(SIMULATED_PROPERTY)).then(parseGetpropValue),
        screenFacts(call),
      ]);
      const status: DeviceStatus = {
        udid: call.serial,
        online: true,
        model,
        api_level: Number.parseInt(api, 10) || 0,
        screen,
        foreground_package: foregroundPackage,
        keyboard_open: keys.open,
      };
      if (options.simulated === true || simulatedProp === "1") status.simulated = true;
      return status;
    },
    async captureTree(wait): Promise<TreeCapture> {
      const call = await begin(wait);
      const xml = await dumpHierarchy(adb, clock, call);
      const { screen, keyboard: keys, foregroundPackage } = await screenFacts(call);
      return { xml, screen: orient(screen, xml), keyboard: keys, foregroundPackage };
    },
    async screenContext(wait) {
      return await screenFacts(await begin(wait));
    },
    async screenshot(wait): Promise<Uint8Array> {
      const call = await begin(wait);
      const result = await adb.run(ADB_COMMANDS.screencap(), { serial: call.serial, ...waitLeft(call.deadline, clock, call.signal) });
      const png = screencapPng(result.stdout, result.exitCode, result.stderr);
      return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
    },
    async listPackages(query, wait): Promise<string[]> {
      const call = await begin(wait);
      const names = parsePackageList(await text(call, ADB_COMMANDS.listPackages(query.includeSystem)));
      const filter = query.filter?.toLowerCase();
      return [...new Set(names)].filter((name) => filter === undefined || name.toLowerCase().includes(filter)).sort();
    },
  };
}

/** The keyboard from `dumpsys input_method` (shown or not) and the IME window's block (its top edge). */
function keyboardOf(imm: string, window: string): KeyboardState {
  const ime = parseImeWindow(window);
  const open = parseInputShown(imm) ?? ime?.visible ?? false;
  return open && ime?.visible === true && ime.top !== undefined ? { open, top: ime.top } : { open };
}

/** `wm size` reports the natural orientation; a dump taken at rotation 1 or 3 is turned a quarter. */
function orient(screen: ScreenGeometry, xml: string): ScreenGeometry {
  const rotation = /<hierarchy[^>]*\brotation="(\d)"/.exec(xml)?.[1];
  return rotation === "1" || rotation === "3" ? { ...screen, width: screen.height, height: screen.width } : screen;
}

function waitLeft(deadline: number, clock: Clock, signal?: AbortSignal): { timeoutMs: number; signal?: AbortSignal } {
  const timeoutMs = deadline - clock.now();
  if (timeoutMs <= 0) {
    throw new HarnessError(
      "OPERATION_TIMEOUT",
      "The device did not answer before the time limit; retry, or raise ANDROID_MCP_ACTION_TIMEOUT.",
    );
  }
  return signal === undefined ? { timeoutMs } : { timeoutMs, signal };
}
