/**
 * UI sessions over a warm device: `createUiSessions` returns the UiSessions port the tools use and the
 * session-aware DeviceLock runOperation takes (session_lock.ts), over the warm drivers (warm_drivers.ts: one
 * UiAutomator2 session per device, started by the first act, held until idle for ANDROID_MCP_WARM_IDLE_TIMEOUT) and
 * the registry of explicit sessions (session_registry.ts), each a lease on its device's warm driver. A lease ends on
 * close, idle expiry, its action ceiling, an operation in it timing out (revoked: the warm driver ends too), or
 * closeAll at shutdown; the warm driver ends on its idle expiry, an operation using it timing out, or closeAll. A
 * warm session that another client ended (or whose server is gone) is started again once, at the first call of an
 * operation, and the operation hears why (`UiOperation.restarted`). `handle` is the one place an operation's session
 * and warm driver are resolved (the gate calls it once per call, after the lock).
 */
import { SESSION_DEFAULTS } from "../../contracts/act_defaults.ts";
import { HarnessError } from "../errors.ts";
import type { Clock } from "../ports/clock.ts";
import type { DeviceLease, DeviceLock } from "../ports/evidence.ts";
import type { Logger } from "../ports/logger.ts";
import type { UiDriver, UiDriverFactory } from "../ports/ui_driver.ts";
import type { DeviceHandle, UiOperation, UiSessions } from "../ports/ui_sessions.ts";
import { aroundDriver } from "./driver_calls.ts";
import { createSessionAwareLock } from "./session_lock.ts";
import { createSessionRegistry, type OpenSession } from "./session_registry.ts";
import { createWarmDrivers, type WarmDriver } from "./warm_drivers.ts";

export interface UiSessionsOptions {
  drivers: UiDriverFactory;
  /** The cross-process file lock. */
  lock: DeviceLock;
  clock: Clock;
  logger: Logger;
  /** An explicit session's idle timeout (ANDROID_MCP_FLOW_IDLE_TIMEOUT). */
  idleTimeoutMs: number;
  /** The warm driver's idle timeout (ANDROID_MCP_WARM_IDLE_TIMEOUT); 0: every act starts and ends its own session. */
  warmIdleTimeoutMs: number;
  maxActions?: number;
  newSessionId: () => string;
}

export interface UiSessionLayer {
  sessions: UiSessions;
  /** The lock runOperation takes: session-aware, over the file lock. */
  lock: DeviceLock;
  /** Ends every open session (shutdown, SIGINT/SIGTERM). */
  closeAll(reason: string): Promise<void>;
  /** How many explicit sessions are open (for tests and stderr). */
  openCount(): number;
  /** How many warm drivers this server holds (for tests). */
  warmCount(): number;
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
  const warms = createWarmDrivers({
    clock,
    logger: options.logger,
    idleTimeoutMs: options.warmIdleTimeoutMs,
    endpoint: options.drivers.endpoint,
    endLease: (s, reason) => registry.end(s, reason),
  });
  const { lock, leaseToKeep } = createSessionAwareLock(registry, warms, options.lock);
  /** An operation that ran past its limit in a warm driver (or a lease on it): both end, the device freed at once. */
  const revokeFor = (w: WarmDriver, operationId: string) => () => {
    const why = `revoked: operation ${operationId} ran past ANDROID_MCP_ACTION_TIMEOUT or was cancelled`;
    if (w.leasedBy !== null) void registry.end(w.leasedBy, why, { releaseAtOnce: true });
    void warms.end(w, why, { releaseAtOnce: true });
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
      const progress = op.progress === undefined ? {} : { progress: op.progress };
      return await options.drivers.open(udid, { timeoutMs: op.remainingMs(), signal: op.signal, ...progress });
    } finally {
      done.abort();
    }
  };

  /** The device's warm driver, started for this operation (keeping the file lease it holds) when there is none yet. */
  const warmDriverFor = async (udid: string, lease: DeviceLease | undefined, op: UiOperation): Promise<WarmDriver | null> => {
    const existing = warms.onUdid(udid);
    if (existing !== undefined) return existing;
    const entry = lease === undefined ? null : leaseToKeep(lease);
    if (entry === null) return null;
    await warms.retryLingering(); // an old session the server refused to delete goes before a new one starts
    const w = warms.start({ udid, address: entry.address, driver: await openDriver(udid, op), fileLease: entry.lease }, op.operationId);
    entry.warmedBy = w;
    return w;
  };

  /**
   * The warm driver as one operation uses it: its first calls (those sent before any answered: an act sends its read
   * and the keyboard's state together), answered "session gone" (another client ended it, its server exited), start
   * the driver again once and are sent again; a session lost later in the operation ends it.
   */
  const usedBy = (w: WarmDriver, udid: string, op: UiOperation): UiDriver => {
    let answered = false;
    let restart: Promise<void> | undefined;
    const startAgain = async (error: HarnessError) => {
      const why = `the UiAutomator2 session ${w.driver.appiumSessionId} had ended (${error.message}); a new one was started`;
      options.logger.info(`warm session on ${udid}: ${why}`);
      void warms.discard(w.driver);
      try {
        warms.replaced(w, await openDriver(udid, op));
      } catch (failed) {
        await warms.end(w, `starting it again failed (${failed instanceof Error ? failed.message : String(failed)})`);
        throw failed;
      }
      op.restarted?.(why);
    };
    return aroundDriver(() => w.driver, async (name, _kind, run) => {
      if (name === "delete") return; // the warm driver outlives the operation
      const first = !answered;
      try {
        const value = await run(w.driver);
        answered = true;
        return value;
      } catch (error) {
        if (!(error instanceof HarnessError) || !GONE.has(error.code) || op.signal.aborted) {
          answered = true; // the session answered, with another error
          throw error;
        }
        if (!first) {
          await warms.end(w, `the UiAutomator2 side ended it (${error.code})`);
          throw error;
        }
        await (restart ??= startAgain(error));
        return await run(w.driver);
      }
    });
  };

  /** Runs `work` on a temporary driver, deleted after (no file lease to keep: a caller outside the gate). */
  const temporary = async <T>(udid: string, op: UiOperation, work: (driver: UiDriver) => Promise<T>): Promise<T> => {
    const driver = await openDriver(udid, op);
    const onAbort = () => void driver.delete().catch(() => {});
    op.signal.addEventListener("abort", onAbort, { once: true });
    try {
      return await work(driver);
    } finally {
      op.signal.removeEventListener("abort", onAbort);
      await driver.delete().catch(() => {});
    }
  };

  const warmOf = new WeakMap<OpenSession, WarmDriver>();

  /** Runs `work` in the warm driver `w` (an operation past its limit revokes it). */
  const inWarm = async <T>(w: WarmDriver, udid: string, op: UiOperation, work: (driver: UiDriver) => Promise<T>): Promise<T> => {
    const revoke = revokeFor(w, op.operationId);
    if (op.signal.aborted) revoke();
    op.signal.addEventListener("abort", revoke, { once: true });
    try {
      return await work(usedBy(w, udid, op));
    } finally {
      op.signal.removeEventListener("abort", revoke);
    }
  };

  /** Runs `work` in the explicit session `s`, a lease on `w` (a session the UiAutomator2 side ended is ended here too). */
  const inLease = async <T>(s: OpenSession, w: WarmDriver, udid: string, op: UiOperation, work: (driver: UiDriver) => Promise<T>) => {
    const revoke = revokeFor(w, op.operationId);
    op.signal.addEventListener("abort", revoke, { once: true });
    try {
      return await work(usedBy(w, udid, op));
    } catch (error) {
      if (error instanceof HarnessError && error.code === "SESSION_NOT_FOUND") {
        await registry.end(s, "the UiAutomator2 side ended it");
        throw registry.notFound(s.id);
      }
      throw error;
    } finally {
      op.signal.removeEventListener("abort", revoke);
      await registry.used(s);
    }
  };

  /** Opens an explicit session on `w` for the operation `op` (its opener), answered once the lock names the session. */
  const lease = async (w: WarmDriver, udid: string, op: UiOperation): Promise<OpenSession> => {
    const s = registry.add({
      id: options.newSessionId(),
      udid,
      address: w.address,
      driver: aroundDriver(() => w.driver, (name, _kind, run) => name === "delete" ? Promise.resolve() : run(w.driver)),
      lease: { release: async () => {} }, // the warm driver keeps the device's file lease
      onEnd: async () => {
        if (w.leasedBy !== s) return;
        w.leasedBy = null;
        await warms.rest(w);
      },
    }, op.operationId);
    warmOf.set(s, w);
    w.leasedBy = s;
    const revoke = revokeFor(w, op.operationId);
    if (op.signal.aborted) revoke();
    else op.signal.addEventListener("abort", revoke, { once: true });
    // Answered once the lock file names the UiAutomator2 session: a server killed right after the answer
    // leaves the id where the next owner's takeover finds it (device_lock.ts, stale_session.ts).
    await w.noted;
    return s;
  };

  /** Observing reads through a warm driver as it is: never starts it (again); a failed read goes to adb. */
  const reader = (w: WarmDriver): UiDriver =>
    aroundDriver(() => w.driver, (name, _kind, run) => name === "delete" ? Promise.resolve() : run(w.driver));

  const sessions: UiSessions = {
    handle(udid, sessionId, deviceLease): DeviceHandle {
      // Resolved once for the operation: the session the call names and the warm driver it leases, else the warm driver.
      let named = sessionId === undefined ? undefined : registry.get(sessionId);
      let warm = named !== undefined ? warmOf.get(named) : sessionId === undefined ? warms.onUdid(udid) : undefined;
      const live = () => (warm === undefined || warm.ended ? undefined : warm);
      return {
        udid,
        get sessionId() {
          return named?.id ?? sessionId;
        },
        async withDriver(op, work) {
          if (named !== undefined || sessionId !== undefined) {
            const w = live();
            if (named === undefined || w === undefined || registry.get(named.id) !== named) {
              throw registry.notFound(named?.id ?? sessionId!);
            }
            return inLease(named, w, udid, op, work);
          }
          warm = live() ?? (await warmDriverFor(udid, deviceLease, op)) ?? undefined;
          return warm === undefined ? temporary(udid, op, work) : inWarm(warm, udid, op, work);
        },
        heldDriver() {
          const w = live();
          return w === undefined ? null : reader(w);
        },
        async open(op) {
          warm = live() ?? (await warmDriverFor(udid, deviceLease, op)) ?? undefined;
          if (warm === undefined) {
            throw new HarnessError("INTERNAL_ERROR", "ui_session_open ran without holding the device lock of a free device.");
          }
          named = await lease(warm, udid, op);
          return registry.info(named);
        },
      };
    },
    describe(sessionId) {
      const s = registry.get(sessionId);
      return s === undefined ? null : registry.info(s);
    },
    udidOf(sessionId) {
      return registry.get(sessionId)?.udid ?? null;
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
      await Promise.all(warms.all().map((w) => warms.end(w, reason)));
      await warms.retryLingering();
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
    warmCount: () => warms.count(),
  };
}

/** What a call answers when the session behind the warm driver is gone (ended by another client, its server exited). */
const GONE: ReadonlySet<string> = new Set(["SESSION_NOT_FOUND", "APPIUM_UNAVAILABLE"]);
