/**
 * Which device a tool call means (issue 26, seed 003's rules), over what `adb devices -l` lists. The call's `device`
 * argument: a serial (exact), else a model as `-l` prints it (case-insensitive; a space matches the `_` adb prints for it)
 * among the online devices, else a device or product name so. Omitted: the server's bound device (ANDROID_UDID / --device,
 * chooseDevice's rules), else the only online one. Several online and none bound, a name no device has or one that fits
 * several: a HarnessError listing the online devices and saying how to choose. Pure.
 */
import { HarnessError } from "../../errors.ts";
import type { ListedDevice } from "./parse_devices.ts";
import { chooseDevice } from "./select_device.ts";

/** An online device as a caller chooses it: its serial and the model adb prints (empty when `-l` gives none). */
export interface OnlineDevice {
  udid: string;
  model: string;
}

/** The device a call names (`asked`) or, without one, the bound device (`bound`), else the only online device. */
export function resolveDevice(devices: ListedDevice[], choice: { asked?: string | undefined; bound?: string | undefined }): ListedDevice {
  const { asked, bound } = choice;
  const online = devices.filter((d) => d.state === "device");
  if (asked === undefined) {
    if ((bound === undefined || bound === "") && online.length > 1) {
      throw new HarnessError(
        "EMULATOR_UNAVAILABLE",
        `${online.length} devices are online (${listed(online)}) and this server has none bound: pass "device" ` +
          "(a serial, or a model) to choose one; device_status lists them.",
        { online: online.map(onlineDevice) },
      );
    }
    return chooseDevice(devices, bound);
  }
  const bySerial = devices.find((d) => d.serial === asked);
  if (bySerial !== undefined) return chooseDevice([bySerial], asked); // offline or unauthorized: said as such
  const wanted = nameKey(asked);
  const by = (keys: string[]) => online.filter((d) => keys.some((key) => nameKey(d.properties[key] ?? "") === wanted));
  const byModel = by(["model"]);
  const named = byModel.length > 0 ? byModel : by(["device", "product"]);
  if (named.length === 1) return named[0]!;
  if (named.length > 1) {
    throw new HarnessError(
      "INVALID_ARGUMENT",
      `"${asked}" fits ${named.length} online devices (${listed(named)}): pass the serial of the one you mean as "device".`,
      { device: asked, matches: named.map(onlineDevice) },
    );
  }
  throw new HarnessError(
    "EMULATOR_UNAVAILABLE",
    `No device "${asked}": ${online.length === 0 ? "no device is online" : `online are ${listed(online)}`}. ` +
      'Pass one of these serials or models as "device" (device_status lists them), or connect that device and retry.',
    { device: asked, online: online.map(onlineDevice) },
  );
}

/** The online devices, each with its serial and model, in adb's order. */
export function onlineDevices(devices: ListedDevice[]): OnlineDevice[] {
  return devices.filter((d) => d.state === "device").map(onlineDevice);
}

function onlineDevice(device: ListedDevice): OnlineDevice {
  return { udid: device.serial, model: device.properties["model"] ?? "" };
}

/** A name as `adb devices -l` prints it (every character but letters, digits, `.`, `-` and `_` made `_`), lower case. */
function nameKey(name: string): string {
  return name.replace(/[^\w.-]/g, "_").toLowerCase();
}

function listed(devices: ListedDevice[]): string {
  return devices.map((d) => d.properties["model"] === undefined ? d.serial : `${d.serial} ${d.properties["model"]}`).join(", ");
}
