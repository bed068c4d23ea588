/**
 * The warm device (issue 24): one UiAutomator2 session per device, started by the first act and held by this
 * server until it has been idle for `idleTimeoutMs` (ANDROID_MCP_WARM_IDLE_TIMEOUT) or the server stops. A warm
 * driver is `idle` or `in_use` by one operation; it keeps the device's cross-process file lease while it lives and
 * notes its session id in the lock file (so whoever takes over after a SIGKILL ends it); an explicit session
 * (`ui_session_open`) is a lease on it (`leasedBy`), while which it never expires. It ends exactly once: deleted on
 * the UiAutomator2 side, then the file lease released (a DELETE the server refuses keeps the lease, its note naming the
 * session, until a later one succeeds: `retryLingering`). Knows nothing of tools nor of the lock's policy.
 */
import type { Clock } from "../ports/clock.ts";
import type { DeviceAddress, DeviceLease } from "../ports/evidence.ts";
import type { Logger } from "../ports/logger.ts";
import type { UiDriver } from "../ports/ui_driver.ts";
import type { OpenSession, SessionUse } from "./session_registry.ts";

export interface WarmDriver {
  udid: string;
  address: DeviceAddress;
  /** The driver now (replaced when it is started again after another client ended it). */
  driver: UiDriver;
  /** The device's file lease, held while the driver is warm. */
  fileLease: DeviceLease;
  use: SessionUse;
  /** The explicit session leasing it, if any. */
  leasedBy: OpenSession | null;
  expiresAt: number;
  timer: AbortController;
  /** The latest note being written into the lock file (never rejects). */
  noted: Promise<void>;
  ended: boolean;
}

export interface WarmDriversOptions {
  clock: Clock;
  logger: Logger;
  /** 0: the driver ends as soon as the operation that used it frees it (no warm device). */
  idleTimeoutMs: number;
  /** Where the sessions live (the lock note's URL). */
  endpoint: string;
  /** Ends the explicit session leasing a warm driver that ends. */
  endLease(session: OpenSession, reason: string): Promise<void>;
}

export type WarmDrivers = ReturnType<typeof createWarmDrivers>;

export function createWarmDrivers(options: WarmDriversOptions) {
  const { clock, logger } = options;
  const warm = new Map<string, WarmDriver>();
  /**
   * Ended drivers whose session the UiAutomator2 side refused to delete, each with the device's file lease it keeps
   * until then (null: released already), its note still naming that session: deleted again before this server takes
   * the device again and at stop; a server killed meanwhile leaves it to the takeover.
   */
  const lingering = new Map<UiDriver, DeviceLease | null>();
  const releasing = (lease: DeviceLease | null | undefined) =>
    lease?.release().catch((error: unknown) => logger.warn(`releasing the device lock failed: ${String(error)}`));
  /** Deletes a driver's session (then releases `lease`); one the server refused to delete is kept, with the lease. */
  const discard = (driver: UiDriver, lease: DeviceLease | null = null): Promise<boolean> =>
    driver.delete().then(async () => {
      lingering.delete(driver);
      await releasing(lease);
      return true;
    }, (error: unknown) => {
      lingering.set(driver, lease);
      logger.warn(`the UiAutomator2 session ${driver.appiumSessionId} was not deleted (${String(error)}); it is sent again later`);
      return false;
    });
  const key = (address: DeviceAddress) => `${address.adbServer}\n${address.udid}`;

  const note = (w: WarmDriver) => {
    w.noted = w.fileLease.noteSessionExpiry?.(new Date(w.expiresAt).toISOString(), {
      url: options.endpoint,
      sessionId: w.driver.appiumSessionId,
    }).catch(() => {}) ?? Promise.resolve();
  };

  const end = async (w: WarmDriver, reason: string, how: { releaseAtOnce?: boolean } = {}): Promise<void> => {
    if (w.ended) return;
    w.ended = true;
    warm.delete(key(w.address));
    w.timer.abort();
    if (w.leasedBy !== null) await options.endLease(w.leasedBy, reason).catch(() => {});
    logger.info(`the warm UiAutomator2 session on ${w.udid} ended: ${reason}`);
    if (how.releaseAtOnce === true) {
      await Promise.all([discard(w.driver), releasing(w.fileLease)]);
      return;
    }
    await discard(w.driver, w.fileLease); // the lease is released once the session is gone
  };

  /** (Re)starts the idle timer of a driver nobody uses: past it, unless used or leased meanwhile, it ends. */
  const arm = (w: WarmDriver) => {
    w.timer.abort();
    w.timer = new AbortController();
    const signal = w.timer.signal;
    w.expiresAt = clock.now() + options.idleTimeoutMs;
    note(w);
    clock.sleep(options.idleTimeoutMs, signal).then(() => {
      if (signal.aborted || w.use.state === "in_use" || w.leasedBy !== null) return;
      void end(w, `idle for ${options.idleTimeoutMs / 1000} s (ANDROID_MCP_WARM_IDLE_TIMEOUT)`);
    }, () => {});
  };

  return {
    end,
    discard: (driver: UiDriver) => discard(driver).then(() => {}),
    /** Deletes again the sessions the UiAutomator2 side refused to delete, releasing the leases they kept (before this
     * server takes the device again, and at stop). */
    retryLingering: () => Promise.all([...lingering].map(([driver, lease]) => discard(driver, lease))).then(() => {}),
    onAddress: (address: DeviceAddress) => warm.get(key(address)),
    onUdid: (udid: string) => [...warm.values()].find((w) => w.udid === udid),
    all: () => [...warm.values()],
    user: (w: WarmDriver) => (w.use.state === "in_use" ? w.use.operationId : null),
    /** A driver just started by `operationId` (in use by it), keeping the device's file lease. */
    start(w: Pick<WarmDriver, "udid" | "address" | "driver" | "fileLease">, operationId: string): WarmDriver {
      const started: WarmDriver = {
        ...w,
        use: { state: "in_use", operationId },
        leasedBy: null,
        expiresAt: 0,
        timer: new AbortController(),
        noted: Promise.resolve(),
        ended: false,
      };
      warm.set(key(w.address), started);
      arm(started);
      return started;
    },
    take(w: WarmDriver, operationId: string) {
      w.use = { state: "in_use", operationId };
      w.timer.abort();
    },
    /** Back to idle after a use by `operationId`: its idle time starts (or, with no warm device, it ends now). */
    async free(w: WarmDriver, operationId: string): Promise<void> {
      if (w.ended || w.use.state !== "in_use" || w.use.operationId !== operationId) return;
      w.use = { state: "idle" };
      await this.rest(w);
    },
    /** A driver nobody uses nor leases starts its idle time (ends at once when the idle timeout is 0). */
    async rest(w: WarmDriver): Promise<void> {
      if (w.ended || w.use.state === "in_use" || w.leasedBy !== null) return;
      if (options.idleTimeoutMs <= 0) await end(w, "its operation ended (ANDROID_MCP_WARM_IDLE_TIMEOUT is 0)");
      else arm(w);
    },
    /** After the driver was started again: the lock file names the new session. */
    replaced(w: WarmDriver, driver: UiDriver) {
      w.driver = driver;
      note(w);
    },
    count: () => warm.size,
  };
}
