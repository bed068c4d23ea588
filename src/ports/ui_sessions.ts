/**
 * Port: UI sessions over a warm device (SPEC §4). The act tools get their driver through `withDriver`: the named
 * session's (SESSION_NOT_FOUND when unknown, expired, revoked or closed), else the device's warm driver (one
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
  /** The device lock the operation holds (OperationContext.lease): a warm driver it starts keeps it. */
  lease?: DeviceLease | undefined;
  /** Hears why the warm session was started again during this operation (the act's `session_restarted`). */
  restarted?: (why: string) => void;
}

export interface UiSessions {
  /** Runs `work` with a driver on the device `udid`: the session `sessionId`'s, or a temporary one (deleted after). */
  withDriver<T>(sessionId: string | undefined, udid: string, op: UiOperation, work: (driver: UiDriver) => Promise<T>): Promise<T>;
  /** The session's current facts (expiry, actions used); null when it is not open. */
  describe(sessionId: string): UiSessionInfo | null;
  /** The device an open session is on (it holds that device: a call naming it needs no device selection); null when it is not open. */
  udidOf(sessionId: string): string | null;
  /** The warm driver this server holds on `udid`, if any (ui_get_tree reads through it); it is never started by a
   * read: a read that fails leaves it to the next act (which starts it again) and the caller may read through adb. */
  heldDriver(udid: string): UiDriver | null;
  /** Opens an explicit session on `udid`: a lease on its warm driver, started first (keeping `lease`, the device lock
   * the operation took: OperationContext.lease) when there is none. */
  open(udid: string, lease: DeviceLease | undefined, op: UiOperation): Promise<UiSessionInfo>;
  /** Closes it (deleting it on the Appium side); false when it was unknown or already ended. EMULATOR_BUSY while
   * another operation uses it; `byOperation` names the operation that may close it while using it (its opener). */
  close(sessionId: string, byOperation?: string): Promise<boolean>;
}
