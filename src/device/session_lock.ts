/**
 * The device lock runOperation takes, aware of the warm drivers and the UI sessions this server holds. While an
 * explicit session (a lease on the warm driver) holds the device, operations pass one at a time (EMULATOR_BUSY
 * naming the operation using it); a call whose declared device access is `observe`, or an act naming that session,
 * passes; any other act, or a second ui_session_open, gets EMULATOR_BUSY naming the session and its expiry. While
 * only the warm driver holds it, every call passes, one at a time (it keeps the file lock). Otherwise the
 * cross-process file lock decides, and the lease it gives can be kept by a warm driver the operation starts
 * (`leaseToKeep`).
 */
import { HarnessError } from "../errors.ts";
import type { DeviceAddress, DeviceLease, DeviceLock } from "../ports/evidence.ts";
import type { SessionRegistry } from "./session_registry.ts";
import type { WarmDriver, WarmDrivers } from "./warm_drivers.ts";

/** A file lease an operation holds, which a warm driver it starts may keep. */
export interface KeepableLease {
  address: DeviceAddress;
  lease: DeviceLease;
  warmedBy?: WarmDriver;
}

export interface SessionAwareLock {
  lock: DeviceLock;
  /** The file lease behind a lease this lock gave for a free device (null otherwise), so a warm driver keeps it. */
  leaseToKeep(lease: DeviceLease): KeepableLease | null;
}

export function createSessionAwareLock(registry: SessionRegistry, warms: WarmDrivers, fileLock: DeviceLock): SessionAwareLock {
  const keepable = new WeakMap<DeviceLease, KeepableLease>();
  /** Gives the warm driver (and the session leasing it) back after `operationId`'s use. */
  const giveBack = async (w: WarmDriver, operationId: string) => {
    if (w.leasedBy !== null) await registry.free(w.leasedBy, operationId);
    await warms.free(w, operationId);
  };
  const lock: DeviceLock = {
    async acquire(address, owner) {
      const held = registry.heldOn(address);
      const warm = warms.onAddress(address);
      const user = held !== undefined ? registry.user(held) : warm !== undefined ? warms.user(warm) : null;
      if (user !== null) {
        throw new HarnessError(
          "EMULATOR_BUSY",
          `Device "${address.udid}" is busy: operation ${user} of this server is using ${
            held === undefined ? "it" : `UI session ${held.id}`
          }. Retry when it finishes; nothing was queued.`,
          { udid: address.udid, ...(held === undefined ? {} : { session_id: held.id }), holder_operation_id: user },
        );
      }
      if (held !== undefined) {
        if (owner.access !== "observe" && owner.sessionId !== held.id) {
          if (owner.sessionId !== undefined && !registry.has(owner.sessionId)) throw registry.notFound(owner.sessionId);
          const until = registry.iso(held.expiresAt);
          throw new HarnessError(
            "EMULATOR_BUSY",
            `Device "${address.udid}" is held by UI session ${held.id} of this server until ${until} (unless used). ` +
              `Pass "session_id": "${held.id}" to act in it, or close it with ui_session_close first.`,
            { udid: address.udid, session_id: held.id, expires_at: until },
          );
        }
        registry.take(held, owner.operationId);
      } else if (owner.sessionId !== undefined) throw registry.notFound(owner.sessionId);
      if (warm !== undefined) {
        warms.take(warm, owner.operationId);
        return { release: () => giveBack(warm, owner.operationId) };
      }
      if (held !== undefined) return { release: () => registry.free(held, owner.operationId) }; // a session without a warm driver
      await warms.retryLingering(); // a session whose DELETE was refused keeps the file lock until it is gone
      const entry: KeepableLease = { address, lease: await fileLock.acquire(address, owner) };
      const lease: DeviceLease = {
        release: async () => {
          if (entry.warmedBy === undefined) return entry.lease.release();
          await giveBack(entry.warmedBy, owner.operationId);
        },
      };
      keepable.set(lease, entry);
      return lease;
    },
  };
  return { lock, leaseToKeep: (lease) => keepable.get(lease) ?? null };
}
