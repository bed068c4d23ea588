/**
 * Port: UI sessions over a warm device (SPEC §4). The gate (runOperation) resolves each operation's device handle
 * once, from the session the call names, and hands it down in the context; the act tools get their driver through
 * the handle's `withDriver`: the named session's (SESSION_NOT_FOUND when unknown, expired, revoked or closed), else
 * the device's warm driver (one
 * UiAutomator2 session per device, started by the first act that needs it and held until idle for
 * ANDROID_MCP_WARM_IDLE_TIMEOUT or the server stops). An explicit session is a lease on the warm driver: it holds
 * the device for this server until it is closed, idles past ANDROID_MCP_FLOW_IDLE_TIMEOUT, reaches its action
 * ceiling, an operation using it times out, or the server stops. Observing reads through the warm driver and never
 * starts it.
 */
import type { DeviceLease } from "./evidence.ts";
import type { UiDriver } from "./ui_driver.ts";

export interface UiSessionInfo {
  session_id: string;
  /** ISO 8601: when the session ends if it is not used again. */
  expires_at: string;
  idle_timeout_s: number;
  max_actions: number;
  actions_used: number;
}

/** What an operation is, for the session layer. */
export interface UiOperation {
  operationId: string;
  signal: AbortSignal;
  remainingMs(): number;
  /** MCP progress while a driver starts. */
  progress?: (message: string) => void;
  /** Hears why the warm session was started again during this operation (the act's `session_restarted`). */
  restarted?: (why: string) => void;
}

/**
 * The device as one operation holds it, resolved once by the gate right after it took the device lock: the explicit
 * session the call names (a lease on the device's warm driver), else the device's warm driver as it is then (none
 * yet: the first act starts it, keeping the operation's device lock).
 */
export interface DeviceHandle {
  readonly udid: string;
  /** The explicit session the handle acts in: the one the call names (its `session_id`), or the one `open` opened. */
  readonly sessionId: string | undefined;
  /** Runs `work` with the handle's driver: the session's, else the warm one (started for this operation when there is
   * none), else a temporary one (deleted after: an operation whose device lock a warm driver cannot keep). */
  withDriver<T>(op: UiOperation, work: (driver: UiDriver) => Promise<T>): Promise<T>;
  /** The warm driver this server holds on the device, if any (ui_get_tree reads through it); it is never started by a
   * read: a read that fails leaves it to the next act (which starts it again) and the caller may read through adb. */
  heldDriver(): UiDriver | null;
  /** Opens an explicit session on the device (ui_session_open): a lease on its warm driver, started first (keeping the
   * operation's device lock) when there is none; the handle then acts in it. */
  open(op: UiOperation): Promise<UiSessionInfo>;
}

export interface UiSessions {
  /** The handle of one operation on `udid` that took the device lock `lease` and names `sessionId` (the gate's call). */
  handle(udid: string, sessionId: string | undefined, lease: DeviceLease | undefined): DeviceHandle;
  /** The session's current facts (expiry, actions used); null when it is not open. */
  describe(sessionId: string): UiSessionInfo | null;
  /** The device an open session is on (it holds that device: a call naming it needs no device selection); null when it is not open. */
  udidOf(sessionId: string): string | null;
  /** Closes it (deleting it on the Appium side); false when it was unknown or already ended. EMULATOR_BUSY while
   * another operation uses it; `byOperation` names the operation that may close it while using it (its opener). */
  close(sessionId: string, byOperation?: string): Promise<boolean>;
}
