/**
 * Port: UI sessions as leases (SPEC §4). The act tools get their driver through `withDriver`: the named
 * session's (SESSION_NOT_FOUND when unknown, expired, revoked or closed), or a temporary one opened for
 * this operation and deleted when it ends, also on timeout. An explicit session holds the device for this
 * server until it is closed, idles past ANDROID_MCP_FLOW_IDLE_TIMEOUT, reaches its action ceiling, an
 * operation using it times out, or the server stops; each end deletes it on the Appium side.
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
}

export interface UiSessions {
  /** Runs `work` with a driver on the device `udid`: the session `sessionId`'s, or a temporary one (deleted after). */
  withDriver<T>(sessionId: string | undefined, udid: string, op: UiOperation, work: (driver: UiDriver) => Promise<T>): Promise<T>;
  /** The session's current facts (expiry, actions used); null when it is not open. */
  describe(sessionId: string): UiSessionInfo | null;
  /** The driver of the session this server holds on `udid`, if any (ui_get_tree reads through it); a read that
   * answers SESSION_NOT_FOUND ends the session (Appium ended it) and the caller may then read through adb. */
  heldDriver(udid: string): UiDriver | null;
  /** Opens an explicit session on `udid`; it keeps `lease`, the device lock the operation took (OperationContext.lease). */
  open(udid: string, lease: DeviceLease | undefined, op: UiOperation): Promise<UiSessionInfo>;
  /** Closes it (deleting it on the Appium side); false when it was unknown or already ended. EMULATOR_BUSY while
   * another operation uses it; `byOperation` names the operation that may close it while using it (its opener). */
  close(sessionId: string, byOperation?: string): Promise<boolean>;
}
