/**
 * The device lock runOperation takes, aware of the UI sessions this server holds. While a session holds
 * the device, operations pass one at a time (EMULATOR_BUSY naming the operation using it); a call whose
 * declared device access is `observe`, or an act naming that session, passes; any other act, or a second
 * ui_session_open, gets EMULATOR_BUSY naming the session and its expiry. Otherwise the cross-process file
 * lock decides, and the lease it gives can be kept by a session the operation opens (`leaseToKeep`).
 */
import { HarnessError } from "../errors.ts";
import type { DeviceAddress, DeviceLease, DeviceLock } from "../ports/evidence.ts";
import type { OpenSession, SessionRegistry } from "./session_registry.ts";

/** A file lease an operation holds, which a session it opens may keep. */
interface KeepableLease {
  address: DeviceAddress;
  lease: DeviceLease;
  keptBy?: OpenSession;
}

export interface SessionAwareLock {
  lock: DeviceLock;
  /** The file lease behind a lease this lock gave for a free device (null for one a session holds), so a new session keeps it. */
  leaseToKeep(lease: DeviceLease): KeepableLease | null;
}

export function createSessionAwareLock(registry: SessionRegistry, fileLock: DeviceLock): SessionAwareLock {
  const keepable = new WeakMap<DeviceLease, KeepableLease>();
  const lock: DeviceLock = {
    async acquire(address, owner) {
      const held = registry.heldOn(address);
      if (held !== undefined) {
        const user = registry.user(held);
        if (user !== null) {
          throw new HarnessError(
            "EMULATOR_BUSY",
            `Device "${address.udid}" is busy: operation ${user} of this server is using UI session ${held.id}. Retry when it finishes; nothing was queued.`,
            { udid: address.udid, session_id: held.id, holder_operation_id: user },
          );
        }
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
        return { release: () => registry.free(held, owner.operationId) };
      }
      if (owner.sessionId !== undefined) throw registry.notFound(owner.sessionId);
      const entry: KeepableLease = { address, lease: await fileLock.acquire(address, owner) };
      const lease: DeviceLease = {
        release: async () => {
          if (entry.keptBy === undefined) return entry.lease.release();
          await registry.free(entry.keptBy, owner.operationId);
        },
      };
      keepable.set(lease, entry);
      return lease;
    },
  };
  return { lock, leaseToKeep: (lease) => keepable.get(lease) ?? null };
}
