/**
 * The device lock while a flow owns its device: the flow takes the real cross-process lock once, and
 * every operation of the flow passes the gate (runOperation) with this lock, which lends the held lease
 * for that one device (its release does nothing) and refuses any other device with EMULATOR_BUSY.
 */
import { HarnessError } from "../errors.ts";
import type { DeviceAddress, DeviceLease, DeviceLock } from "../ports/evidence.ts";

export function heldDeviceLock(held: DeviceAddress): DeviceLock {
  const lent: DeviceLease = { release: async () => {} };
  return {
    async acquire(device) {
      if (device.adbServer === held.adbServer && device.udid === held.udid) return lent;
      throw new HarnessError(
        "EMULATOR_BUSY",
        `This flow holds device ${held.udid} and cannot act on ${device.udid}; run one flow per device (--device can be repeated).`,
        { udid: device.udid, held: held.udid },
      );
    },
  };
}
