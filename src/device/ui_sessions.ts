/**
 * UI sessions as leases, and the device lock that knows about them. `createUiSessions` returns the
 * UiSessions port the tools use and the DeviceLock runOperation takes: while this server holds an open
 * session on a device, its operations pass only one at a time (EMULATOR_BUSY naming the operation using
 * it), observe tools and acts that name the session pass, and any other act or a second open gets
 * EMULATOR_BUSY naming the session and its expiry. Otherwise the cross-process file lock decides. A
 * session ends (deleted on the Appium side, lock released) on close, idle expiry, its action ceiling,
 * an operation in it timing out (revoked), the Appium side ending it, or closeAll at shutdown.
 */
import { SESSION_DEFAULTS } from "../../contracts/act_defaults.ts";
import { HarnessError } from "../errors.ts";
import type { Clock } from "../ports/clock.ts";
import type { DeviceAddress, DeviceLease, DeviceLock } from "../ports/evidence.ts";
import type { Logger } from "../ports/logger.ts";
import type { UiDriver, UiDriverFactory } from "../ports/ui_driver.ts";
import type { UiOperation, UiSessionInfo, UiSessions } from "../ports/ui_sessions.ts";

export interface UiSessionsOptions {
  drivers: UiDriverFactory;
  /** The cross-process file lock. */
  lock: DeviceLock;
  clock: Clock;
  logger: Logger;
  idleTimeoutMs: number;
  maxActions?: number;
  newSessionId: () => string;
}

export interface UiSessionLayer {
  sessions: UiSessions;
  /** The lock runOperation takes: session-aware, over the file lock. */
  lock: DeviceLock;
  /** Ends every open session (shutdown, SIGINT/SIGTERM). */
  closeAll(reason: string): Promise<void>;
  /** How many sessions are open (for tests and stderr). */
  openCount(): number;
}

interface OpenSession {
  id: string;
  udid: string;
  address: DeviceAddress;
  driver: UiDriver;
  lease: DeviceLease;
  expiresAt: number;
  actions: number;
  /** The operation of this server using it now, if any. */
  busyWith: string | null;
  timer: AbortController;
}

interface PendingLease {
  address: DeviceAddress;
  lease: DeviceLease;
  adoptedBy?: OpenSession;
}

/** How long stopping waits for abandoned driver starts to arrive and be deleted (real drivers start in 20–45 s). */
const DRAIN_LIMIT_MS = 60_000;

/** How often a starting driver is reported to the client. */
const PROGRESS_EVERY_MS = 2000;

/** Ended sessions remembered for SESSION_NOT_FOUND's message. */
const ENDED_REMEMBERED = 200;

export function createUiSessions(options: UiSessionsOptions): UiSessionLayer {
  const { clock, logger } = options;
  const maxActions = options.maxActions ?? SESSION_DEFAULTS.maxActions;
  const open = new Map<string, OpenSession>();
  const ended = new Map<string, string>();
  const pending = new Map<string, PendingLease>();

  const key = (address: DeviceAddress) => `${address.adbServer}\n${address.udid}`;
  const heldOn = (address: DeviceAddress) => [...open.values()].find((s) => key(s.address) === key(address));
  const iso = (ms: number) => new Date(ms).toISOString();
  const info = (s: OpenSession): UiSessionInfo => ({
    session_id: s.id, expires_at: iso(s.expiresAt), idle_timeout_s: options.idleTimeoutMs / 1000, max_actions: maxActions, actions_used: s.actions,
  });

  /**
   * Ends a session: deleted on the Appium side, then the device lock released. A revoked session's lock
   * is released as soon as the delete is sent: the operation that hung already answered OPERATION_TIMEOUT,
   * and a hung Appium can take its whole delete limit to answer (the device must be free within a second).
   */
  const end = async (s: OpenSession, reason: string, options: { releaseAtOnce?: boolean } = {}): Promise<void> => {
    if (open.get(s.id) !== s) return;
    open.delete(s.id);
    ended.set(s.id, reason);
    if (ended.size > ENDED_REMEMBERED) ended.delete(ended.keys().next().value!);
    s.timer.abort();
    logger.info(`UI session ${s.id} ended: ${reason}`);
    const release = () => s.lease.release().catch((error: unknown) => logger.warn(`releasing the device lock of ${s.id} failed: ${String(error)}`));
    const deleting = s.driver.delete();
    if (options.releaseAtOnce === true) {
      await Promise.all([deleting, release()]);
      return;
    }
    try {
      await deleting;
    } finally {
      await release();
    }
  };
  const revokeFor = (s: OpenSession, operationId: string) => () =>
    void end(s, `revoked: operation ${operationId} ran past ANDROID_MCP_ACTION_TIMEOUT or was cancelled`, { releaseAtOnce: true });

  const arm = (s: OpenSession) => {
    s.timer.abort();
    s.timer = new AbortController();
    const signal = s.timer.signal;
    s.expiresAt = clock.now() + options.idleTimeoutMs;
    void s.lease.noteSessionExpiry?.(iso(s.expiresAt)).catch(() => {});
    clock.sleep(options.idleTimeoutMs, signal).then(() => {
      if (signal.aborted || s.busyWith !== null) return; // in use: the use re-arms it
      void end(s, `expired after ${options.idleTimeoutMs / 1000} s without use (ANDROID_MCP_FLOW_IDLE_TIMEOUT)`);
    }, () => {});
  };

  const notFound = (id: string) => {
    const why = ended.get(id);
    return new HarnessError("SESSION_NOT_FOUND",
      why === undefined
        ? `No UI session "${id}" is open on this server. Open one with ui_session_open, or act without session_id.`
        : `UI session "${id}" has ended: ${why}. Open a new one with ui_session_open, or act without session_id.`,
      { session_id: id, ...(why === undefined ? {} : { ended: why }) });
  };

  const lock: DeviceLock = {
    async acquire(address, owner) {
      const held = heldOn(address);
      if (held !== undefined) {
        if (held.busyWith !== null) {
          throw new HarnessError("EMULATOR_BUSY",
            `Device "${address.udid}" is busy: operation ${held.busyWith} of this server is using UI session ${held.id}. Retry when it finishes; nothing was queued.`,
            { udid: address.udid, session_id: held.id, holder_operation_id: held.busyWith });
        }
        if (owner.access !== "observe" && owner.sessionId !== held.id) {
          if (owner.sessionId !== undefined && !open.has(owner.sessionId)) throw notFound(owner.sessionId);
          throw new HarnessError("EMULATOR_BUSY",
            `Device "${address.udid}" is held by UI session ${held.id} of this server until ${iso(held.expiresAt)} (unless used). ` +
              `Pass "session_id": "${held.id}" to act in it, or close it with ui_session_close first.`,
            { udid: address.udid, session_id: held.id, expires_at: iso(held.expiresAt) });
        }
        held.busyWith = owner.operationId;
        return {
          release: async () => {
            if (held.busyWith !== owner.operationId) return;
            held.busyWith = null;
            if (open.get(held.id) === held && held.expiresAt <= clock.now()) await end(held, "expired while in use");
          },
        };
      }
      if (owner.sessionId !== undefined) throw notFound(owner.sessionId);
      const lease = await options.lock.acquire(address, owner);
      const entry: PendingLease = { address, lease };
      pending.set(owner.operationId, entry);
      return {
        release: async () => {
          pending.delete(owner.operationId);
          if (entry.adoptedBy === undefined) return lease.release();
          if (entry.adoptedBy.busyWith === owner.operationId) entry.adoptedBy.busyWith = null;
        },
      };
    },
  };

  /** Opens a driver, telling the client every PROGRESS_EVERY_MS how long it has been starting (20–45 s on real devices). */
  const openDriver = async (udid: string, op: UiOperation): Promise<UiDriver> => {
    op.progress?.("starting the UiAutomator2 session");
    const done = new AbortController();
    const started = clock.now();
    void (async () => {
      while (!done.signal.aborted) {
        await clock.sleep(PROGRESS_EVERY_MS, done.signal).catch(() => {});
        if (!done.signal.aborted) op.progress?.(`starting the UiAutomator2 session (${Math.round((clock.now() - started) / 1000)} s)`);
      }
    })();
    try {
      return await options.drivers.open(udid, { timeoutMs: op.remainingMs(), signal: op.signal });
    } finally {
      done.abort();
    }
  };

  const sessions: UiSessions = {
    async withDriver(sessionId, udid, op, work) {
      if (sessionId === undefined) {
        const driver = await openDriver(udid, op);
        const onAbort = () => void driver.delete();
        op.signal.addEventListener("abort", onAbort, { once: true });
        try {
          return await work(driver);
        } finally {
          op.signal.removeEventListener("abort", onAbort);
          await driver.delete();
        }
      }
      const s = open.get(sessionId);
      if (s === undefined) throw notFound(sessionId);
      const revoke = revokeFor(s, op.operationId);
      op.signal.addEventListener("abort", revoke, { once: true });
      try {
        return await work(s.driver);
      } catch (error) {
        if (error instanceof HarnessError && error.code === "SESSION_NOT_FOUND") {
          await end(s, "the Appium server ended it");
          throw notFound(sessionId);
        }
        throw error;
      } finally {
        op.signal.removeEventListener("abort", revoke);
        if (open.get(s.id) === s) {
          s.actions++;
          if (s.actions >= maxActions) await end(s, `it reached its ceiling of ${maxActions} actions`);
          else arm(s);
        }
      }
    },
    describe(sessionId) {
      const s = open.get(sessionId);
      return s === undefined ? null : info(s);
    },
    heldDriver(udid) {
      const s = [...open.values()].find((held) => held.udid === udid);
      if (s === undefined) return null;
      // A session Appium ended no longer holds the device: reading through it ends it here too.
      const source = async () => {
        try {
          return await s.driver.source();
        } catch (error) {
          if (error instanceof HarnessError && error.code === "SESSION_NOT_FOUND") await end(s, "the Appium server ended it");
          throw error;
        }
      };
      return { ...s.driver, source };
    },
    async open(udid, op) {
      const entry = pending.get(op.operationId);
      if (entry === undefined) throw new HarnessError("INTERNAL_ERROR", "ui_session_open ran without holding the device lock.");
      const driver = await openDriver(udid, op);
      const s: OpenSession = {
        id: options.newSessionId(), udid, address: entry.address, driver, lease: entry.lease, expiresAt: 0, actions: 0,
        busyWith: op.operationId, timer: new AbortController(),
      };
      entry.adoptedBy = s;
      open.set(s.id, s);
      arm(s);
      const revoke = revokeFor(s, op.operationId);
      if (op.signal.aborted) revoke();
      else op.signal.addEventListener("abort", revoke, { once: true });
      return info(s);
    },
    async close(sessionId, byOperation) {
      const s = open.get(sessionId);
      if (s === undefined) return false;
      if (s.busyWith !== null && s.busyWith !== byOperation) {
        throw new HarnessError("EMULATOR_BUSY",
          `UI session ${sessionId} is in use by operation ${s.busyWith}; close it when that finishes.`, { session_id: sessionId, holder_operation_id: s.busyWith });
      }
      await end(s, "closed by ui_session_close");
      return true;
    },
  };

  return {
    sessions,
    lock,
    async closeAll(reason) {
      await Promise.all([...open.values()].map((s) => end(s, reason)));
      // A session start that an operation abandoned (timeout, cancellation, shutdown) is deleted when it
      // arrives; wait for that, bounded, so stopping never leaves one on Appium.
      const limit = new AbortController();
      await Promise.race([options.drivers.drain(), clock.sleep(DRAIN_LIMIT_MS, limit.signal).catch(() => {})]);
      limit.abort();
    },
    openCount: () => open.size,
  };
}

