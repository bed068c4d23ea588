/**
 * `device_status`: which device, what it is, and what it shows right now (SPEC §4). Read-only adb;
 * never an Appium session. Errors: EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT.
 */
import type { DeviceObserver, DeviceStatus, WaitOptions } from "../ports/device.ts";
import type { ToolHandler } from "../ports/operation.ts";

/** The device status as answered: `simulated` only when true. */
export type AnsweredStatus = Omit<DeviceStatus, "simulated"> & { simulated?: true };

export async function readDeviceStatus(observer: DeviceObserver, wait: WaitOptions): Promise<AnsweredStatus> {
  const status = await observer.status(wait);
  // `simulated` only when true: a real device's answer has no such key.
  const { simulated, ...rest } = status;
  return simulated === true ? { ...rest, simulated: true } : rest;
}

export const deviceStatusTool: ToolHandler<"device_status"> = {
  name: "device_status",
  async run(_args, ctx, ports) {
    const status = await readDeviceStatus(ports.observer, { timeoutMs: ctx.remainingMs(), signal: ctx.signal });
    return { data: { ...status } };
  },
};
