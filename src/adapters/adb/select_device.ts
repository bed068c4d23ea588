/**
 * Chooses the device to use from `adb devices -l`: the requested serial (ANDROID_UDID / --device) when
 * it is listed and online, else the only online device. Several online, none, or the chosen one
 * offline / unauthorized / without permissions → EMULATOR_UNAVAILABLE saying what adb lists and
 * what to do next. Pure decision (chooseDevice) plus the adb call (selectDevice).
 */
import { HarnessError } from "../../errors.ts";
import type { AdbClient } from "./adb_client.ts";
import { ADB_COMMANDS } from "./adb_commands.ts";
import { type ListedDevice, parseAdbDevices } from "./parse_devices.ts";

export async function selectDevice(
  adb: AdbClient,
  requested: string | undefined,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<ListedDevice> {
  const text = await adb.text(ADB_COMMANDS.devices(), options);
  return chooseDevice(parseAdbDevices(text), requested);
}

export function chooseDevice(devices: ListedDevice[], requested: string | undefined): ListedDevice {
  if (requested !== undefined && requested !== "") {
    const found = devices.find((d) => d.serial === requested);
    if (found === undefined) {
      throw new HarnessError(
        "EMULATOR_UNAVAILABLE",
        `Cannot find device "${requested}": adb lists ${describe(devices)}. Check ANDROID_UDID (or --device) against 'adb devices'.`,
        { requested, listed: devices.map(summary) },
      );
    }
    if (found.state !== "device") throw notOnline(found);
    return found;
  }
  const online = devices.filter((d) => d.state === "device");
  if (online.length === 1) return online[0]!;
  if (online.length > 1) {
    throw new HarnessError(
      "EMULATOR_UNAVAILABLE",
      `${online.length} devices are online (${online.map((d) => d.serial).join(", ")}); set ANDROID_UDID (or --device) to the one to use.`,
      { listed: devices.map(summary) },
    );
  }
  if (devices.length === 1) throw notOnline(devices[0]!);
  if (devices.length > 1) {
    throw new HarnessError(
      "EMULATOR_UNAVAILABLE",
      `No device is online: adb lists ${describe(devices)}. Reconnect or authorize one, or start an emulator.`,
      { listed: devices.map(summary) },
    );
  }
  throw new HarnessError(
    "EMULATOR_UNAVAILABLE",
    "adb lists no devices: start an emulator or connect a device with USB debugging on (or point ADB_SERVER_SOCKET at the adb server that has it), then retry.",
    { listed: [] },
  );
}

function notOnline(device: ListedDevice): HarnessError {
  const remedy: Record<string, string> = {
    offline: "reconnect it or restart the emulator",
    unauthorized: "accept the USB debugging prompt on the device",
    authorizing: "wait for the USB debugging prompt and accept it",
    "no permissions": "fix the USB permissions (udev rules / plugdev group) and reconnect",
  };
  return new HarnessError(
    "EMULATOR_UNAVAILABLE",
    `Device "${device.serial}" is ${device.state}: ${remedy[device.state] ?? "wait until adb lists it as 'device'"}, then retry.`,
    { udid: device.serial, state: device.state },
  );
}

function describe(devices: ListedDevice[]): string {
  if (devices.length === 0) return "0 devices";
  return `${devices.length} (${devices.map((d) => `${d.serial} ${d.state}`).join(", ")})`;
}

function summary(device: ListedDevice): { udid: string; state: string } {
  return { udid: device.serial, state: device.state };
}
