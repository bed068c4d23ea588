/**
 * One owner per device, across processes (SPEC §7): an exclusive lock file per device (adb server +
 * serial: the same serial behind two adb servers is two devices) in the machine's per-user lock directory
 * (state_directories.ts lockDirectory; private, 0700; never under artifacts) holding pid, host, operation and time. A second acquire
 * fails at once with EMULATOR_BUSY naming the holder (no queue). A lock whose process is dead on
 * this host (or whose pid now belongs to a later process) is stale and taken over by exactly one
 * contender: only the holder of the exclusive `<lock>.takeover` file may delete it, after re-reading
 * that it is still the stale one, and then ends the Appium session the dead holder noted (endStaleSession).
 * Release removes the file only if it is still ours.
 */
import { createHash, randomUUID } from "node:crypto";
import { join } from "node:path";
import { HarnessError } from "../../errors.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DeviceAddress, DeviceLease, DeviceLock, FileSystem } from "../../ports/evidence.ts";
import type { ProcessProbe } from "./process_probe.ts";

export interface LockHolder {
  pid: number;
  /** The holder's start stamp (Linux), so a reused pid does not keep a dead holder's lock. */
  pid_start?: string | null;
  host: string;
  operation_id: string;
  tool: string;
  udid: string;
  /** The adb server the device is reached through (absent in locks written before it was recorded). */
  adb_server?: string;
  /** True when that adb server ran inside the holder's own process (`serve --device sim`): it died with the holder,
   * and so did everything on its simulated device (the start-up sweep's rule). */
  adb_server_in_process?: boolean;
  acquired_at: string;
  token: string;
  /** Set while an open UI session holds the device: when it ends unless used again. */
  session_expires_at?: string;
  /** Set with the expiry: the Appium URL and session id of that UI session, ended by whoever takes over a dead holder's lock. */
  appium_url?: string;
  appium_session_id?: string;
}

export interface DeviceLockOptions {
  /** The lock directory (state_directories.ts lockDirectory). */
  directory: string;
  fs: FileSystem;
  clock: Clock;
  probe: ProcessProbe;
  /** Ends the Appium session a dead holder left (stale_session.ts); absent, a takeover only removes the lock. */
  endStaleSession?: (holder: LockHolder) => Promise<void>;
  /** The devices this process locks are behind an adb server it runs itself (the simulated device): noted in each lock. */
  adbServerInProcess?: boolean;
}

/** What the start-up sweep needs: it ends no session (it opens no connection at all). */
export type LockSweepOptions = Omit<DeviceLockOptions, "endStaleSession" | "adbServerInProcess">;

/** `<serial, unsafe characters as _>-<16 hex of sha256(server, serial)>.lock`: readable, safe, and
 * distinct per adb server (and for serials the escaping would merge). */
export function lockFileName(device: DeviceAddress): string {
  const hash = createHash("sha256").update(`${device.adbServer}\n${device.udid}`).digest("hex").slice(0, 16);
  return `${device.udid.replace(/[^A-Za-z0-9.-]/g, "_")}-${hash}.lock`;
}

export function createDeviceLock(options: DeviceLockOptions): DeviceLock {
  const { fs, probe } = options;

  return {
    async acquire(device, owner): Promise<DeviceLease> {
      const { udid } = device;
      const path = join(options.directory, lockFileName(device));
      const mine: LockHolder = {
        pid: probe.pid,
        pid_start: probe.startStamp(probe.pid),
        host: probe.hostName,
        operation_id: owner.operationId,
        tool: owner.tool,
        udid,
        adb_server: device.adbServer,
        ...(options.adbServerInProcess === true ? { adb_server_in_process: true } : {}),
        acquired_at: new Date(options.clock.now()).toISOString(),
        token: randomUUID(),
      };
      try {
        await fs.makePrivateDirectory(options.directory);
        for (let attempt = 0; attempt < TAKEOVER_ATTEMPTS; attempt++) {
          try {
            await fs.writeNewFile(path, JSON.stringify(mine));
            return lease(path, mine);
          } catch (error) {
            if ((error as { code?: string }).code !== "EEXIST") throw error;
          }
          const seen = await readLockFile(fs, path);
          if (seen === null) continue; // released meanwhile
          if (seen.holder !== null && !isStale(seen.holder, probe)) throw busy(device, seen.holder);
          if (!(await takeOver(options, path, seen))) await options.clock.sleep(2); // another contender is taking over
        }
      } catch (error) {
        if (error instanceof HarnessError) throw error;
        throw new HarnessError(
          "INTERNAL_ERROR",
          `Cannot use the device lock file "${path}" (${
            (error as Error).message
          }); check that the lock directory is this user's and writable.`,
        );
      }
      throw new HarnessError(
        "EMULATOR_BUSY",
        `Device "${udid}" (adb server ${device.adbServer}) lock changed hands while acquiring it; retry.`,
        { udid, adb_server: device.adbServer },
      );
    },
  };

  /** The holder's handle. Its file operations run one after another: a note still rewriting the file
   * when release removes it would otherwise put the lock back after it was released. */
  function lease(path: string, mine: LockHolder): DeviceLease {
    const { token } = mine;
    let released = false;
    let queue: Promise<void> = Promise.resolve();
    const serial = (step: () => Promise<void>) => (queue = queue.then(step, step));
    return {
      noteSessionExpiry(expiresAt, appium) {
        return serial(async () => {
          if (released) return;
          const seen = await readLockFile(fs, path).catch(() => null);
          if (seen?.holder?.token === token) {
            await fs.replaceFile(
              path,
              JSON.stringify({
                ...mine,
                session_expires_at: expiresAt,
                ...(appium === undefined ? {} : { appium_url: appium.url, appium_session_id: appium.sessionId }),
              }),
            );
          }
        });
      },
      release() {
        if (released) return queue;
        released = true;
        return serial(async () => {
          const seen = await readLockFile(fs, path).catch(() => null);
          if (seen?.holder?.token === token) await fs.removeFile(path).catch(() => {});
        });
      },
    };
  }
}

/** Tries to create the lock; between tries a stale lock is removed or another taker is waited for. */
const TAKEOVER_ATTEMPTS = 10;

function holderAlive(holder: Pick<LockHolder, "pid" | "pid_start">, probe: ProcessProbe): boolean {
  if (!probe.isProcessAlive(holder.pid)) return false;
  if (holder.pid_start === undefined || holder.pid_start === null) return true;
  const now = probe.startStamp(holder.pid);
  return now === null || now === holder.pid_start;
}

function busy(device: DeviceAddress, holder: LockHolder): HarnessError {
  const where = holder.pid === undefined ? "another process" : `process ${holder.pid}${holder.host ? ` on ${holder.host}` : ""}`;
  const { udid, adbServer } = device;
  const expiry = holder.session_expires_at;
  const what = expiry === undefined
    ? `${holder.tool} (operation ${holder.operation_id}) in ${where} has held it since ${holder.acquired_at}. Retry when it finishes`
    : `an open UI session of ${where} holds it (since ${holder.acquired_at}) until at least ${expiry}, when it expires unless used. Retry after that, or ask its owner to close it`;
  return new HarnessError("EMULATOR_BUSY", `Device "${udid}" (adb server ${adbServer}) is busy: ${what}; nothing was queued.`, {
    udid,
    adb_server: adbServer,
    holder_pid: holder.pid,
    holder_host: holder.host,
    holder_tool: holder.tool,
    holder_operation_id: holder.operation_id,
    since: holder.acquired_at,
    ...(expiry === undefined ? {} : { session_expires_at: expiry }),
  });
}

/** The lock file's text and holder (null for one that is not a lock), or null when it is gone. */
async function readLockFile(fs: FileSystem, path: string): Promise<{ raw: string; holder: LockHolder | null } | null> {
  try {
    const raw = await fs.readText(path);
    try {
      const holder = JSON.parse(raw) as LockHolder;
      return { raw, holder: typeof holder?.pid === "number" ? holder : null };
    } catch {
      return { raw, holder: null };
    }
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Deletes the lock file if it still holds `staleRaw`, under the exclusive `.takeover` file: a
 * contender that read the same stale lock earlier cannot then delete the fresh lock of the one that
 * took it over (it re-reads under the takeover file and sees new content). A takeover file left by a
 * process that died inside this step is removed. False when someone else holds the takeover.
 */
async function removeLockIfStill(fs: FileSystem, probe: ProcessProbe, path: string, staleRaw: string): Promise<boolean> {
  const takeover = `${path}.takeover`;
  const me = { pid: probe.pid, pid_start: probe.startStamp(probe.pid), host: probe.hostName, token: randomUUID() };
  try {
    await fs.writeNewFile(takeover, JSON.stringify(me));
  } catch (error) {
    if ((error as { code?: string }).code !== "EEXIST") throw error;
    const other = await readLockFile(fs, takeover);
    if (other !== null && (other.holder === null || isStale(other.holder, probe))) {
      const again = await readLockFile(fs, takeover);
      if (again !== null && again.raw === other.raw) await fs.removeFile(takeover).catch(() => {});
    }
    return false;
  }
  try {
    const now = await readLockFile(fs, path);
    if (now !== null && now.raw === staleRaw) await fs.removeFile(path).catch(() => {});
    return true;
  } finally {
    await fs.removeFile(takeover).catch(() => {});
  }
}

/** Removes a stale lock (under the `.takeover` rule) and, given `endStaleSession`, ends the Appium session its dead
 * holder noted; false when another taker holds the takeover. */
async function takeOver(
  options: Pick<DeviceLockOptions, "fs" | "probe" | "endStaleSession">,
  path: string,
  seen: { raw: string; holder: LockHolder | null },
): Promise<boolean> {
  if (!(await removeLockIfStill(options.fs, options.probe, path, seen.raw))) return false;
  // A holder whose adb server ran inside it left no session: its noted port may be anyone's now.
  if (seen.holder !== null && seen.holder.adb_server_in_process !== true) await options.endStaleSession?.(seen.holder).catch(() => {});
  return true;
}

/** Whether the lock was taken, and the session it noted was to expire, before `cutoffMs` (an unreadable time: never). */
function untouchedSince(holder: LockHolder, cutoffMs: number): boolean {
  const times = [holder.acquired_at, holder.session_expires_at].filter((t) => t !== undefined).map((t) => Date.parse(t!));
  return times.length > 0 && times.every((t) => !Number.isNaN(t) && t < cutoffMs);
}

/** Dead on this host (or its pid reused): what a contender may take over. A holder on another host is never stale here. */
function isStale(holder: Pick<LockHolder, "pid" | "pid_start" | "host">, probe: ProcessProbe): boolean {
  return holder.host === probe.hostName && !holderAlive(holder, probe);
}

/** A dead holder's lock untouched this long (since it was taken, or since the session it noted was to expire) is
 * swept whatever its adb server: any session it noted has long been ended by its server's own idle timeout. */
export const LOCK_LEFTOVER_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes every lock whose holder died on this host and that no later acquire may ever take over, as a contender
 * would take it over (under its `.takeover` file, after re-reading it), ending no session and opening no
 * connection (a start connects only to its configured endpoints, never to a port a dead process wrote down; it
 * used to ask each dead holder's adb server `host:version` and DELETE a swept holder's session). Two kinds:
 * - its adb server ran inside the holder (`adb_server_in_process`: a `serve --device sim` killed by SIGKILL): the
 *   lock is keyed by that simulated device's random adb port, which no later acquire names, and nothing of that
 *   device outlived its holder;
 * - untouched for LOCK_LEFTOVER_AGE_MS (a simulated device in another process that is gone too, or a phone never
 *   used again through that adb server): any session it noted has ended by its server's idle timeout.
 * Without this sweep they piled up. Every other dead holder's lock is left to that device's next acquire, whose
 * takeover ends the session it noted; live holders, other hosts' and unreadable entries are left too. Never throws.
 */
export async function sweepStaleLocks(options: LockSweepOptions): Promise<{ removed: number }> {
  const { fs, probe } = options;
  let names: string[];
  try {
    names = await fs.listNames(options.directory);
  } catch {
    return { removed: 0 };
  }
  const swept = await Promise.all(
    names.filter((name) => name.endsWith(".lock")).map(async (name) => {
      const path = join(options.directory, name);
      try {
        const seen = await readLockFile(fs, path);
        if (seen === null || seen.holder === null || !isStale(seen.holder, probe)) return false;
        if (seen.holder.adb_server_in_process !== true && !untouchedSince(seen.holder, options.clock.now() - LOCK_LEFTOVER_AGE_MS)) {
          return false;
        }
        // A second try when the first only cleared a dead taker's `.takeover` file; a live taker's is left to it.
        const quiet = { fs, probe }; // no endStaleSession: the sweep ends no session
        return (await takeOver(quiet, path, seen)) || (await takeOver(quiet, path, seen));
      } catch {
        return false;
      }
    }),
  );
  return { removed: swept.filter(Boolean).length };
}
