/**
 * The time limit of one operation: a signal the work passes to every port call, the time left, and a
 * promise that rejects with OPERATION_TIMEOUT when ANDROID_MCP_ACTION_TIMEOUT passes or the client
 * cancels the request (the signal is aborted first, so adb children are killed). `dispose()` stops it.
 * A cancel signal aborted with a `StopRequested` reason is the harness stopping (SIGTERM, stdin EOF), not the
 * client: the error's details say which (`cancelled: "client" | "shutdown"`), and so does the audit line.
 */
import { HarnessError } from "../errors.ts";
import type { Clock } from "../ports/clock.ts";

/** The reason a cancel signal is aborted with when the harness itself is stopping (not the client cancelling). */
export class StopRequested extends Error {
  override readonly name = "StopRequested";
}

/** Who cut a cancelled operation off, as its error's `details.cancelled` says. */
export type CancelledBy = "client" | "shutdown";

export interface Deadline {
  readonly signal: AbortSignal;
  remainingMs(): number;
  /** Never resolves; rejects on expiry or cancellation. Race the work against it. */
  readonly expired: Promise<never>;
  dispose(): void;
}

export function startDeadline(tool: string, options: { clock: Clock; timeoutMs: number; cancel?: AbortSignal | undefined }): Deadline {
  const { clock, timeoutMs, cancel } = options;
  const end = clock.now() + timeoutMs;
  const work = new AbortController();
  const timer = new AbortController();
  const expire = (error: HarnessError) => {
    if (!work.signal.aborted) work.abort(error);
  };
  const onCancel = () => {
    const shutdown = cancel?.reason instanceof StopRequested;
    expire(
      new HarnessError(
        "OPERATION_TIMEOUT",
        shutdown
          ? `${tool} was cut off because the harness is stopping (${
            cancel!.reason.message
          }); its work was stopped and the device lock released.`
          : `${tool} was cancelled by the client; its work was stopped and the device lock released.`,
        { cancelled: (shutdown ? "shutdown" : "client") satisfies CancelledBy },
      ),
    );
  };
  clock.sleep(timeoutMs, timer.signal).then(() => {
    const seconds = timeoutMs / 1000;
    expire(
      new HarnessError(
        "OPERATION_TIMEOUT",
        `${tool} did not finish within ${seconds} s (ANDROID_MCP_ACTION_TIMEOUT) and was cancelled; the device lock was released. Retry, or raise the limit if the device is slow.`,
        { timeout_s: seconds },
      ),
    );
  }, () => {});
  if (cancel?.aborted) onCancel();
  else cancel?.addEventListener("abort", onCancel, { once: true });
  const expired = new Promise<never>((_, reject) => {
    work.signal.addEventListener("abort", () => reject(work.signal.reason), { once: true });
  });
  expired.catch(() => {}); // observed through the caller's race
  return {
    signal: work.signal,
    remainingMs: () => Math.max(0, end - clock.now()),
    expired,
    dispose: () => {
      timer.abort();
      cancel?.removeEventListener("abort", onCancel);
    },
  };
}
