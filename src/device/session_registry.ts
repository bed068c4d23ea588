/**
 * The UI sessions this server holds, as an explicit state machine: a session is `idle` (holding the device,
 * expiring after the idle timeout) or `in_use` by one operation; it ends (deleted on the Appium side,
 * device lock released) exactly once, from either state, and is then remembered with its reason for
 * SESSION_NOT_FOUND's message. Owns the expiry timers and the lock notes they write (`noted`: the latest one);
 * knows nothing of locks policy or tools.
 */
import { HarnessError } from "../errors.ts";
import type { Clock } from "../ports/clock.ts";
import type { AppiumSessionNote, DeviceAddress, DeviceLease } from "../ports/evidence.ts";
import type { Logger } from "../ports/logger.ts";
import type { UiDriver } from "../ports/ui_driver.ts";
import type { UiSessionInfo } from "../ports/ui_sessions.ts";

export type SessionUse = { state: "idle" } | { state: "in_use"; operationId: string };

export interface OpenSession {
  id: string;
  udid: string;
  address: DeviceAddress;
  driver: UiDriver;
  /** The device lock the opening operation took; released when the session ends. */
  lease: DeviceLease;
  /** The Appium session behind it and the Appium URL, noted in the lock file with the expiry. */
  appium?: AppiumSessionNote;
  expiresAt: number;
  actions: number;
  use: SessionUse;
  timer: AbortController;
  /** The latest expiry note being written into the lock file (never rejects). */
  noted: Promise<void>;
  /** Runs once when it ends (a lease on the warm driver gives the driver back); the end waits for it. */
  onEnd?: () => void | Promise<void>;
}

export interface RegistryOptions {
  clock: Clock;
  logger: Logger;
  idleTimeoutMs: number;
  maxActions: number;
}

/** Ended sessions remembered for SESSION_NOT_FOUND's message. */
const ENDED_REMEMBERED = 200;

export type SessionRegistry = ReturnType<typeof createSessionRegistry>;

export function createSessionRegistry(options: RegistryOptions) {
  const { clock, logger } = options;
  const open = new Map<string, OpenSession>();
  const ended = new Map<string, string>();
  const key = (address: DeviceAddress) => `${address.adbServer}\n${address.udid}`;
  const iso = (ms: number) => new Date(ms).toISOString();

  /**
   * Ends a session: deleted on the Appium side, then the device lock released. A revoked session's lock
   * is released as soon as the delete is sent: the operation that hung already answered OPERATION_TIMEOUT,
   * and a hung Appium can take its whole delete limit to answer (the device must be free within a second).
   */
  const end = async (s: OpenSession, reason: string, how: { releaseAtOnce?: boolean } = {}): Promise<void> => {
    if (open.get(s.id) !== s) return;
    open.delete(s.id);
    ended.set(s.id, reason);
    if (ended.size > ENDED_REMEMBERED) ended.delete(ended.keys().next().value!);
    s.timer.abort();
    // Waited for last: with no warm device the driver given back ends too, and ui_session_close answers only once
    // the device is free (the next call must not meet the lock a closing lease still holds).
    const handedBack = Promise.resolve(s.onEnd?.()).catch((error: unknown) =>
      logger.warn(`giving back the warm driver of ${s.id} failed: ${String(error)}`)
    );
    logger.info(`UI session ${s.id} ended: ${reason}`);
    const release = () =>
      s.lease.release().catch((error: unknown) => logger.warn(`releasing the device lock of ${s.id} failed: ${String(error)}`));
    const deleting = s.driver.delete().catch((error: unknown) => logger.warn(`ending UI session ${s.id} failed: ${String(error)}`));
    if (how.releaseAtOnce === true) {
      await Promise.all([deleting, release(), handedBack]);
      return;
    }
    try {
      await deleting;
    } finally {
      await release();
      await handedBack;
    }
  };

  /** (Re)starts the idle timer: an idle session past it ends; one in use is re-armed by its use. */
  const arm = (s: OpenSession) => {
    s.timer.abort();
    s.timer = new AbortController();
    const signal = s.timer.signal;
    s.expiresAt = clock.now() + options.idleTimeoutMs;
    s.noted = s.lease.noteSessionExpiry?.(iso(s.expiresAt), s.appium).catch(() => {}) ?? Promise.resolve();
    clock.sleep(options.idleTimeoutMs, signal).then(() => {
      if (signal.aborted || s.use.state === "in_use") return;
      void end(s, `expired after ${options.idleTimeoutMs / 1000} s without use (ANDROID_MCP_FLOW_IDLE_TIMEOUT)`);
    }, () => {});
  };

  return {
    iso,
    end,
    arm,
    /** Registers a session its opener is using now (in_use by that operation) and starts its idle timer. */
    add(s: Omit<OpenSession, "expiresAt" | "actions" | "use" | "timer" | "noted">, operationId: string): OpenSession {
      const session: OpenSession = {
        ...s,
        expiresAt: 0,
        actions: 0,
        use: { state: "in_use", operationId },
        timer: new AbortController(),
        noted: Promise.resolve(),
      };
      open.set(session.id, session);
      arm(session);
      return session;
    },
    get: (id: string) => open.get(id),
    has: (id: string) => open.has(id),
    heldOn: (address: DeviceAddress) => [...open.values()].find((s) => key(s.address) === key(address)),
    heldOnUdid: (udid: string) => [...open.values()].find((s) => s.udid === udid),
    all: () => [...open.values()],
    count: () => open.size,
    /** The operation using the session now, or null when it is idle. */
    user: (s: OpenSession) => (s.use.state === "in_use" ? s.use.operationId : null),
    take(s: OpenSession, operationId: string) {
      s.use = { state: "in_use", operationId };
    },
    /** Back to idle after a use by `operationId` (a no-op when another operation uses it). */
    async free(s: OpenSession, operationId: string): Promise<void> {
      if (s.use.state !== "in_use" || s.use.operationId !== operationId) return;
      s.use = { state: "idle" };
      if (open.get(s.id) === s && s.expiresAt <= clock.now()) await end(s, "expired while in use");
    },
    /** Counts one action; the session ends at its ceiling, else its idle timer restarts. */
    async used(s: OpenSession): Promise<void> {
      if (open.get(s.id) !== s) return;
      s.actions++;
      if (s.actions >= options.maxActions) await end(s, `it reached its ceiling of ${options.maxActions} actions`);
      else arm(s);
    },
    info: (s: OpenSession): UiSessionInfo => ({
      session_id: s.id,
      expires_at: iso(s.expiresAt),
      idle_timeout_s: options.idleTimeoutMs / 1000,
      max_actions: options.maxActions,
      actions_used: s.actions,
    }),
    notFound(id: string): HarnessError {
      const why = ended.get(id);
      return new HarnessError(
        "SESSION_NOT_FOUND",
        why === undefined
          ? `No UI session "${id}" is open on this server. Open one with ui_session_open, or act without session_id.`
          : `UI session "${id}" has ended: ${why}. Open a new one with ui_session_open, or act without session_id.`,
        { session_id: id, ...(why === undefined ? {} : { ended: why }) },
      );
    },
  };
}
