/**
 * What `serve` says on stderr besides protocol: a start-up check that asks adb once, without delaying the
 * server, whether the configured device is there (adb runnable, the device listed and online) and warns
 * when not, so the problem shows at start instead of at the first call (the server keeps running); old
 * evidence pruned at start (ANDROID_MCP_EVIDENCE_RETENTION_DAYS); and one line for an error the protocol
 * layer reports. (A line on stdin that is not a JSON-RPC message is answered with a JSON-RPC error and said on
 * stderr by the transport itself: src/mcp/stdio_transport.ts.)
 */
import type { Harness } from "../composition.ts";
import { isHarnessError } from "../errors.ts";
import type { Logger } from "../ports/logger.ts";

const STARTUP_CHECK_TIMEOUT_MS = 15_000;

/** Warns when the device the configuration names cannot be reached now; never throws. */
export async function warnWhenDeviceUnreachable(harness: Harness, logger: Logger): Promise<void> {
  if (harness.simulated) return;
  try {
    await harness.deps.ports.observer.resolveDevice({ timeoutMs: STARTUP_CHECK_TIMEOUT_MS });
  } catch (error) {
    const online = isHarnessError(error) ? error.details?.["online"] : undefined;
    if (Array.isArray(online) && online.length > 1) {
      // Several devices and none bound is a way to serve (issue 26), not a fault: each call names its device.
      logger.info(
        `${online.length} devices are online and none is bound: each device tool call names its "device" (device_status lists them).`,
      );
      return;
    }
    const what = isHarnessError(error) ? `${error.code}: ${error.message}` : `the device check failed: ${(error as Error).message}`;
    logger.warn(`${what.trimEnd()} The server is running; device tools answer with this error until it is fixed.`);
  }
}

/** The one stderr line for an error the protocol layer reports (a broken stream, a response to no request). */
export function describeTransportError(error: Error): string {
  return `MCP transport: ${error.message.split("\n")[0]!.slice(0, 160)}`;
}
