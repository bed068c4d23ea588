/**
 * What `serve` says on stderr besides protocol: a start-up check that asks adb once, without delaying the
 * server, whether the configured device is there (adb runnable, the device listed and online) and warns
 * when not, so the problem shows at start instead of at the first call (the server keeps running); old
 * evidence pruned at start (ANDROID_MCP_EVIDENCE_RETENTION_DAYS); and one line for each line on stdin that
 * is not a JSON-RPC message (the SDK drops those without a word).
 */
import type { Harness } from "../composition.ts";
import { isHarnessError } from "../errors.ts";
import type { Logger } from "../ports/logger.ts";

const STARTUP_CHECK_TIMEOUT_MS = 15_000;

/** Warns when the device the configuration names cannot be reached now; never throws. */
export async function warnWhenDeviceUnreachable(harness: Harness, logger: Logger): Promise<void> {
  if (harness.simulated) return;
  try {
    await harness.deps.ports.observer.resolveUdid({ timeoutMs: STARTUP_CHECK_TIMEOUT_MS });
  } catch (error) {
    const what = isHarnessError(error) ? `${error.code}: ${error.message}` : `the device check failed: ${(error as Error).message}`;
    logger.warn(`${what.trimEnd()} The server is running; device tools answer with this error until it is fixed.`);
  }
}

/** The one stderr line for an error the stdio transport reports (a bad input line, a broken stream). */
export function describeTransportError(error: Error): string {
  const first = error.message.split("\n")[0]!.slice(0, 160);
  if (error.name === "SyntaxError") return `ignored a line on stdin that is not JSON (${first}); MCP clients send one JSON-RPC message per line.`;
  if (error.name === "ZodError" || error.name === "$ZodError") return "ignored a line on stdin that is JSON but not a JSON-RPC message; MCP clients send one JSON-RPC message per line.";
  return `MCP transport: ${first}`;
}
