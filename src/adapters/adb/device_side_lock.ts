/**
 * One owner per device across the users (and machines) of one adb server (issue 25 defect 5): a lock directory
 * on the device itself, `/data/local/tmp/android-mcp-harness.lock`, the one thing every client of that adb server
 * shares (`adb shell` runs as the device's `shell` user for all of them). Taken after the per-user file lock
 * (device_lock.ts), released before it. Acquire is one `adb shell` line: an atomic `mkdir` of the directory, the
 * holder's note (host, uid, pid and its start stamp, operation, token, lease expiry) written into it when the
 * mkdir won, then the note printed: ours, or the holder's. A holder is stale, and taken over, when it is on this
 * host and either of this user (who holds the per-user lock, so it is a leftover) or a process no longer alive;
 * on another host, when the lease in its note has passed (the holder pushes it on while it holds). A device whose
 * `/data/local/tmp` cannot be written, or that does not answer, keeps only the per-user lock (logged). Every word
 * put on the shell line is quoted (adb_commands.ts shellWord); the operators are fixed.
 */
import { randomUUID } from "node:crypto";
import { HarnessError } from "../../errors.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DeviceAddress, DeviceLease, DeviceLock, LockOwner } from "../../ports/evidence.ts";
import type { Logger } from "../../ports/logger.ts";
import type { LockHolder } from "../evidence/device_lock.ts";
import type { ProcessProbe } from "../evidence/process_probe.ts";
import type { AdbClient } from "./adb_client.ts";
import { type AdbCommand, shellWord } from "./adb_commands.ts";

export const DEVICE_LOCK_DIRECTORY = "/data/local/tmp/android-mcp-harness.lock";
const HOLDER_FILE = `${DEVICE_LOCK_DIRECTORY}/holder`;
/** How long a note keeps the device for a holder on another host without being pushed on (at least; see `leaseMs`). */
export const DEVICE_LEASE_MS = 5 * 60_000;
/** A note is rewritten (one round trip) only when the wanted expiry comes within this of the written lease. */
const LEASE_MARGIN_MS = 60_000;
const ROUND_TRIP_TIMEOUT_MS = 5_000;
const TAKEOVER_ATTEMPTS = 3;

export interface DeviceHolder extends LockHolder {
  /** The holder's user on its host (null where the platform has no uid). */
  uid: number | null;
  /** Past it, a holder on another host no longer keeps the device. */
  lease_expires_at: string;
}

export interface DeviceSideLockOptions {
  adb: AdbClient;
  clock: Clock;
  probe: ProcessProbe;
  uid: number | null;
  logger: Logger;
  /** The lease a note gives (default DEVICE_LEASE_MS): longer than the longest operation, which renotes nothing. */
  leaseMs?: number;
  /** Ends the Appium session a stale holder noted (stale_session.ts); absent, a takeover only removes the lock. */
  endStaleSession?: (holder: LockHolder) => Promise<void>;
}

/** The shell lines, each word quoted (shellWord), the operators fixed. */
const line = (name: string, words: (string | { op: string })[]): AdbCommand => ({
  name,
  args: ["shell", ...words.map((w) => (typeof w === "string" ? shellWord(w) : w.op))],
  device: true,
});
const [AND, THEN, PIPE, TO] = [{ op: "&&" }, { op: ";" }, { op: "|" }, { op: ">" }];
const ifStillHeldBy = (token: string) => ["cat", HOLDER_FILE, PIPE, "grep", "-c", token, AND];
export const DEVICE_LOCK_COMMANDS = {
  /** `mkdir D && echo NOTE > D/holder ; cat D/holder`: the note printed is ours when the mkdir won. */
  acquire: (note: string) =>
    line("device-lock-acquire", ["mkdir", DEVICE_LOCK_DIRECTORY, AND, "echo", note, TO, HOLDER_FILE, THEN, "cat", HOLDER_FILE]),
  /** Rewrites the note while it still carries `token`. */
  renote: (token: string, note: string) => line("device-lock-note", [...ifStillHeldBy(token), "echo", note, TO, HOLDER_FILE]),
  /** Removes the lock while it still carries `token` (a release, or the takeover of a stale holder's). */
  remove: (token: string) => line("device-lock-remove", [...ifStillHeldBy(token), "rm", "-r", DEVICE_LOCK_DIRECTORY]),
  /** The directory this process made but could not write its note into. */
  removeEmpty: () => line("device-lock-remove-empty", ["rmdir", DEVICE_LOCK_DIRECTORY]),
} as const;

/** The device-side lease (null where the device keeps no lock: see the module comment). */
export type DeviceSideLock = { acquire(device: DeviceAddress, owner: LockOwner): Promise<DeviceLease | null> };

export function createDeviceSideLock(options: DeviceSideLockOptions): DeviceSideLock {
  const { adb, clock, probe, logger } = options;
  const leaseMs = options.leaseMs ?? DEVICE_LEASE_MS;
  const warned = new Set<string>();
  const shell = (command: AdbCommand, serial: string) => adb.run(command, { timeoutMs: ROUND_TRIP_TIMEOUT_MS, serial });
  const withoutDeviceLock = (device: DeviceAddress, why: string): null => {
    if (!warned.has(device.udid)) {
      warned.add(device.udid);
      logger.warn(`device ${device.udid} keeps no lock of its own (${why}): only this user's processes are kept out`);
    }
    return null;
  };

  return {
    async acquire(device, owner) {
      const now = clock.now();
      const mine: DeviceHolder = {
        pid: probe.pid,
        pid_start: probe.startStamp(probe.pid),
        host: probe.hostName,
        uid: options.uid,
        operation_id: owner.operationId,
        tool: owner.tool,
        udid: device.udid,
        adb_server: device.adbServer,
        acquired_at: new Date(now).toISOString(),
        lease_expires_at: new Date(now + leaseMs).toISOString(),
        token: randomUUID(),
      };
      for (let attempt = 0; attempt < TAKEOVER_ATTEMPTS; attempt++) {
        let result;
        try {
          result = await shell(DEVICE_LOCK_COMMANDS.acquire(JSON.stringify(mine)), device.udid);
        } catch (error) {
          return withoutDeviceLock(device, `adb shell failed: ${(error as Error).message}`);
        }
        const holder = parseHolder(result.stdout.toString("utf8"));
        if (holder?.token === mine.token) return lease(device, mine);
        const stderr = result.stderr;
        if (holder === null) {
          if (!/File exists/.test(stderr)) {
            if (!/mkdir:/.test(stderr)) await shell(DEVICE_LOCK_COMMANDS.removeEmpty(), device.udid).catch(() => {});
            return withoutDeviceLock(device, `${DEVICE_LOCK_DIRECTORY} cannot be made: ${stderr.trim() || "no note was written"}`);
          }
          throw noteless(device);
        }
        if (!isStale(holder, device, options, clock.now())) throw busy(device, holder);
        try {
          await shell(DEVICE_LOCK_COMMANDS.remove(holder.token), device.udid);
        } catch (error) {
          return withoutDeviceLock(device, `adb shell failed: ${(error as Error).message}`);
        }
        logger.info(`took over the lock on device ${device.udid} from ${describe(holder)} (${staleWhy(holder, device, options)})`);
        // This user's leftover's session was ended by the file lock's takeover, which came first.
        if (!ownLeftover(holder, device, options)) await options.endStaleSession?.(holder).catch(() => {});
      }
      throw new HarnessError("EMULATOR_BUSY", `Device "${device.udid}" lock changed hands while acquiring it; retry.`, {
        udid: device.udid,
        adb_server: device.adbServer,
      });
    },
  };

  /** The holder's handle; its note rewrites and release run one after another. */
  function lease(device: DeviceAddress, mine: DeviceHolder): DeviceLease {
    let written = mine;
    let released = false;
    let queue: Promise<void> = Promise.resolve();
    const serial = (step: () => Promise<void>) => (queue = queue.then(step, step));
    return {
      noteSessionExpiry(expiresAt, appium) {
        return serial(async () => {
          const wanted = Date.parse(expiresAt);
          const sameSession = appium === undefined || appium.sessionId === written.appium_session_id;
          if (released || (sameSession && wanted + LEASE_MARGIN_MS <= Date.parse(written.lease_expires_at))) return;
          const next: DeviceHolder = {
            ...written,
            session_expires_at: expiresAt,
            lease_expires_at: new Date(Math.max(wanted, clock.now()) + leaseMs).toISOString(),
            ...(appium === undefined ? {} : { appium_url: appium.url, appium_session_id: appium.sessionId }),
          };
          await shell(DEVICE_LOCK_COMMANDS.renote(mine.token, JSON.stringify(next)), device.udid);
          written = next;
        });
      },
      release() {
        if (released) return queue;
        released = true;
        return serial(async () => {
          await shell(DEVICE_LOCK_COMMANDS.remove(mine.token), device.udid).catch((error: unknown) =>
            logger.warn(`releasing the lock on device ${device.udid} failed: ${String(error)}`)
          );
        });
      },
    };
  }
}

/** The per-user file lock first, then the device's; released in the other order. A device lock refused
 * (EMULATOR_BUSY: another user or machine holds it) gives the file lock back. */
export function withDeviceSideLock(fileLock: DeviceLock, deviceLock: DeviceSideLock): DeviceLock {
  return {
    async acquire(device, owner) {
      const file = await fileLock.acquire(device, owner);
      let onDevice: DeviceLease | null;
      try {
        onDevice = await deviceLock.acquire(device, owner);
      } catch (error) {
        await file.release().catch(() => {});
        throw error;
      }
      if (onDevice === null) return file;
      const both = onDevice;
      return {
        async noteSessionExpiry(expiresAt, appium) {
          await Promise.all([file.noteSessionExpiry?.(expiresAt, appium), both.noteSessionExpiry?.(expiresAt, appium)]);
        },
        async release() {
          try {
            await both.release();
          } finally {
            await file.release();
          }
        },
      };
    },
  };
}

function parseHolder(stdout: string): DeviceHolder | null {
  const last = stdout.trim().split("\n").at(-1) ?? "";
  try {
    const holder = JSON.parse(last) as DeviceHolder;
    return typeof holder?.token === "string" && typeof holder.pid === "number" && typeof holder.host === "string" ? holder : null;
  } catch {
    return null;
  }
}

/** On this host: this user's through the same adb server (we hold the per-user lock, so a leftover) or its process gone;
 * elsewhere: its lease passed. */
function isStale(holder: DeviceHolder, device: DeviceAddress, options: DeviceSideLockOptions, nowMs: number): boolean {
  if (holder.host !== options.probe.hostName) {
    const lease = Date.parse(holder.lease_expires_at);
    return Number.isNaN(lease) || lease < nowMs;
  }
  if (ownLeftover(holder, device, options)) return true;
  if (!options.probe.isProcessAlive(holder.pid)) return true;
  const start = holder.pid_start === undefined || holder.pid_start === null ? null : options.probe.startStamp(holder.pid);
  return start !== null && start !== holder.pid_start;
}

/**
 * This user's holder on this host through the same adb server: we hold the per-user file lock of that server and
 * serial, so it is a leftover, dead or ours. The same phone reached through another adb server has another file
 * lock, so a holder there is judged by its process like anyone's (else two of this user's harnesses on two adb
 * servers would both own the phone, and a dead one's session would never be ended).
 */
function ownLeftover(holder: DeviceHolder, device: DeviceAddress, options: DeviceSideLockOptions): boolean {
  return holder.host === options.probe.hostName && holder.uid === options.uid && holder.adb_server === device.adbServer;
}

function staleWhy(holder: DeviceHolder, device: DeviceAddress, options: DeviceSideLockOptions): string {
  if (holder.host !== options.probe.hostName) return `its lease ended at ${holder.lease_expires_at}`;
  return ownLeftover(holder, device, options) ? "a leftover of this user" : "its process is gone";
}

function describe(holder: DeviceHolder): string {
  return `process ${holder.pid}${holder.uid === null ? "" : ` of uid ${holder.uid}`} on ${holder.host}`;
}

function busy(device: DeviceAddress, holder: DeviceHolder): HarnessError {
  const { udid, adbServer } = device;
  const expiry = holder.session_expires_at;
  const what = expiry === undefined
    ? `${holder.tool} (operation ${holder.operation_id}) of ${describe(holder)} has held it since ${holder.acquired_at}`
    : `an open UI session of ${describe(holder)} holds it (since ${holder.acquired_at}) until at least ${expiry}`;
  return new HarnessError(
    "EMULATOR_BUSY",
    `Device "${udid}" (adb server ${adbServer}) is busy: ${what} (the lock on the device, ${DEVICE_LOCK_DIRECTORY}). ` +
      `Retry when it finishes; nothing was queued.`,
    {
      udid,
      adb_server: adbServer,
      holder_pid: holder.pid,
      holder_host: holder.host,
      holder_uid: holder.uid,
      holder_tool: holder.tool,
      holder_operation_id: holder.operation_id,
      since: holder.acquired_at,
      lease_expires_at: holder.lease_expires_at,
      ...(expiry === undefined ? {} : { session_expires_at: expiry }),
    },
  );
}

function noteless(device: DeviceAddress): HarnessError {
  return new HarnessError(
    "EMULATOR_BUSY",
    `Device "${device.udid}" is busy: its lock ${DEVICE_LOCK_DIRECTORY} holds no note (being taken right now, or left by a ` +
      `client killed while taking it). Retry; if it stays, remove it: adb -s ${device.udid} shell rm -r ${DEVICE_LOCK_DIRECTORY}`,
    { udid: device.udid, adb_server: device.adbServer },
  );
}
