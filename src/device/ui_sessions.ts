/**
 * UI sessions as leases: `createUiSessions` returns the UiSessions port the tools use and the
 * session-aware DeviceLock runOperation takes (session_lock.ts), over one registry of the sessions this
 * server holds (session_registry.ts: idle or in use, ended once). A session ends (deleted on the Appium
 * side, lock released) on close, idle expiry, its action ceiling, an operation in it timing out
 * (revoked), the Appium side ending it, or closeAll at shutdown.
 */
import { SESSION_DEFAULTS } from "../../contracts/act_defaults.ts";
import { HarnessError } from "../errors.ts";
import type { Clock } from "../ports/clock.ts";
import type { DeviceLock } from "../ports/evidence.ts";
import type { Logger } from "../ports/logger.ts";
import type { UiDriver, UiDriverFactory } from "../ports/ui_driver.ts";
import type { UiOperation, UiSessions } from "../ports/ui_sessions.ts";
import { createSessionAwareLock } from "./session_lock.ts";
import { createSessionRegistry, type OpenSession } from "./session_registry.ts";

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

/** How long stopping waits for abandoned driver starts to arrive and be deleted (real drivers start in 20–45 s). */
const DRAIN_LIMIT_MS = 60_000;

/** How often a starting driver is reported to the client. */
const PROGRESS_EVERY_MS = 2000;

export function createUiSessions(options: UiSessionsOptions): UiSessionLayer {
  const { clock } = options;
  const registry = createSessionRegistry({
    clock,
    logger: options.logger,
    idleTimeoutMs: options.idleTimeoutMs,
    maxActions: options.maxActions ?? SESSION_DEFAULTS.maxActions,
  });
  const { lock, leaseToKeep } = createSessionAwareLock(registry, options.lock);
  const revokeFor = (s: OpenSession, operationId: string) => () =>
    void registry.end(s, `revoked: operation ${operationId} ran past ANDROID_MCP_ACTION_TIMEOUT or was cancelled`, { releaseAtOnce: true });

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
      const progress = op.progress === undefined ? {} : { progress: op.progress };
      return await options.drivers.open(udid, { timeoutMs: op.remainingMs(), signal: op.signal, ...progress });
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
      const s = registry.get(sessionId);
      if (s === undefined) throw registry.notFound(sessionId);
      const revoke = revokeFor(s, op.operationId);
      op.signal.addEventListener("abort", revoke, { once: true });
      try {
        return await work(s.driver);
      } catch (error) {
        if (error instanceof HarnessError && error.code === "SESSION_NOT_FOUND") {
          await registry.end(s, "the Appium server ended it");
          throw registry.notFound(sessionId);
        }
        throw error;
      } finally {
        op.signal.removeEventListener("abort", revoke);
        await registry.used(s);
      }
    },
    describe(sessionId) {
      const s = registry.get(sessionId);
      return s === undefined ? null : registry.info(s);
    },
    udidOf(sessionId) {
      return registry.get(sessionId)?.udid ?? null;
    },
    heldDriver(udid) {
      const s = registry.heldOnUdid(udid);
      if (s === undefined) return null;
      // A session Appium ended no longer holds the device: reading through it ends it here too.
      const source = async () => {
        try {
          return await s.driver.source();
        } catch (error) {
          if (error instanceof HarnessError && error.code === "SESSION_NOT_FOUND") await registry.end(s, "the Appium server ended it");
          throw error;
        }
      };
      return { ...s.driver, source };
    },
    async open(udid, lease, op) {
      const entry = lease === undefined ? null : leaseToKeep(lease);
      if (entry === null) throw new HarnessError("INTERNAL_ERROR", "ui_session_open ran without holding the device lock of a free device.");
      const driver = await openDriver(udid, op);
      const s = registry.add({
        id: options.newSessionId(),
        udid,
        address: entry.address,
        driver,
        lease: entry.lease,
        appium: { url: options.drivers.endpoint, sessionId: driver.appiumSessionId },
      }, op.operationId);
      entry.keptBy = s;
      const revoke = revokeFor(s, op.operationId);
      if (op.signal.aborted) revoke();
      else op.signal.addEventListener("abort", revoke, { once: true });
      // Answered once the lock file names the Appium session: a server killed right after the answer
      // leaves the id where the next owner's takeover finds it (device_lock.ts, stale_session.ts).
      await s.noted;
      return registry.info(s);
    },
    async close(sessionId, byOperation) {
      const s = registry.get(sessionId);
      if (s === undefined) return false;
      const user = registry.user(s);
      if (user !== null && user !== byOperation) {
        throw new HarnessError("EMULATOR_BUSY", `UI session ${sessionId} is in use by operation ${user}; close it when that finishes.`, {
          session_id: sessionId,
          holder_operation_id: user,
        });
      }
      await registry.end(s, "closed by ui_session_close");
      return true;
    },
  };

  return {
    sessions,
    lock,
    async closeAll(reason) {
      await Promise.all(registry.all().map((s) => registry.end(s, reason)));
      // A session start that an operation abandoned (timeout, cancellation, shutdown) is deleted when it
      // arrives; wait for that, bounded, so stopping never leaves one on Appium.
      const limit = new AbortController();
      const waiting = (starting: number) =>
        options.logger.info(
          `stopping: waiting up to ${DRAIN_LIMIT_MS / 1000} s for ${starting} UiAutomator2 session start(s) still on their way, ` +
            "to delete them on Appium (a real driver takes 20–45 s to start)",
        );
      await Promise.race([options.drivers.drain(waiting), clock.sleep(DRAIN_LIMIT_MS, limit.signal).catch(() => {})]);
      limit.abort();
    },
    openCount: () => registry.count(),
  };
}
