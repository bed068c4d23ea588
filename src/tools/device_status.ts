/**
 * `device_status`: which device, what it is, and what it shows right now (SPEC §4), and which devices are online and
 * which one a call without `device` uses (issue 26). Read-only adb;
 * never an Appium session. Errors: EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT.
 */
import type { DeviceObserver, DeviceStatus, OnlineDevices, WaitOptions } from "../ports/device.ts";
import type { ToolHandler } from "../ports/operation.ts";

/** The device status as answered: `simulated` only when true; the online devices and the default one beside it. */
export type AnsweredStatus = Omit<DeviceStatus, "simulated"> & {
  simulated?: true;
  devices: OnlineDevices["online"];
  default_device: string | null;
};

export async function readDeviceStatus(observer: DeviceObserver, wait: WaitOptions): Promise<AnsweredStatus> {
  const [status, devices] = await Promise.all([observer.status(wait), observer.devices(wait)]);
  // `simulated` only when true: a real device's answer has no such key.
  const { simulated, ...rest } = status;
  const listed = { devices: devices.online, default_device: devices.default };
  return simulated === true ? { ...rest, simulated: true, ...listed } : { ...rest, ...listed };
}

export const deviceStatusTool: ToolHandler<"device_status"> = {
  name: "device_status",
  async run(_args, ctx, ports) {
    const status = await readDeviceStatus(ports.observer, { timeoutMs: ctx.remainingMs(), signal: ctx.signal });
    return { data: { ...status } };
  },
};
