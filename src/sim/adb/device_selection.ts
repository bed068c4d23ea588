/**
 * Which simulated device a request means (`-s SERIAL`, `-t ID`, or the only one), with the real adb
 * server's refusal texts: `device 'X' not found`, `no devices/emulators found`,
 * `more than one device/emulator`, `device offline`, and the four-line `device unauthorized.` text.
 */
import type { ScenarioDevice } from "../scenario_device.ts";

export type Target = { kind: "any" } | { kind: "serial"; serial: string } | { kind: "id"; id: number };

export const UNAUTHORIZED =
  "device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\nTry 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device.";

export type Selection = { device: ScenarioDevice; id: number } | { error: string };

/** `acceptAnyState` = true for wait-for, which waits on an offline device instead of failing. */
export function selectDevice(devices: readonly ScenarioDevice[], target: Target, acceptAnyState = false): Selection {
  let index: number;
  if (target.kind === "serial") {
    index = devices.findIndex((d) => d.serial === target.serial);
    if (index === -1) return { error: `device '${target.serial}' not found` };
  } else if (target.kind === "id") {
    index = target.id - 1;
    if (devices[index] === undefined) return { error: `no device with transport id '${target.id}'` };
  } else {
    if (devices.length === 0) return { error: "no devices/emulators found" };
    if (devices.length > 1) return { error: "more than one device/emulator" };
    index = 0;
  }
  const device = devices[index]!;
  if (!acceptAnyState) {
    const state = device.connectionState();
    if (state === "offline") return { error: "device offline" };
    if (state === "unauthorized") return { error: UNAUTHORIZED };
  }
  return { device, id: index + 1 };
}

/** `host:devices` / `host:devices-l` lines, as the server formats them. */
export function deviceList(devices: readonly ScenarioDevice[], long: boolean): string {
  return devices.map((d, i) => {
    const state = d.connectionState();
    if (!long) return `${d.serial}\t${state}\n`;
    const props = state === "device"
      ? ` product:${d.android.product} model:${d.android.model.replace(/[^\w.-]/g, "_")} device:${d.android.device}`
      : "";
    return `${d.serial.padEnd(22)} ${state}${props} transport_id:${i + 1}\n`;
  }).join("");
}
