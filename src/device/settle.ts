/**
 * Settling after an act with as few page-source reads as can be shown to suffice. UiAutomator2 waits for the
 * UI to be idle before it answers a page source (UiAutomation.waitForIdle: 500 ms without an accessibility event,
 * at most the session's waitForIdleTimeout; docs/simulated-device.md "Idle waits"), so the first read is taken at
 * once after the act (no sleep). It is final when it equals the screen before, or differs from it only in node
 * states (`checked`, `selected`, `focused`: a flip, never a frame of an animation), or when it answered sooner
 * than the session's known idle timeout (the wait ended because the UI was quiet, not because time ran out).
 * Otherwise (the timeout is unknown, or the read took the whole timeout: the UI never went quiet) reads follow
 * ACT_DEFAULTS.settleIntervalMs apart until two consecutive ones are equal, at most ACT_DEFAULTS.settleMaxMs, and
 * only while a read as long as the longest so far (the first included: on a UI that never goes quiet each one takes
 * the whole idle timeout) would still end before the deadline's last second (then `settled: false`).
 */
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import type { OperationContext, ToolPorts } from "../ports/operation.ts";
import { readTimer } from "./read_timer.ts";

export interface SettledScreen {
  source: string;
  settled: boolean;
}

const STATE_ATTRIBUTES = /\s(?:checked|selected|focused)="[^"]*"/g;

/** Whether the screen may still be moving after `before` became `after` (anything beyond a state flip differs). */
export function mayStillMove(before: string, after: string): boolean {
  return before !== after && before.replace(STATE_ATTRIBUTES, "") !== after.replace(STATE_ATTRIBUTES, "");
}

/** The first read after an act, and how long it took (ms on the harness's clock, request and answer included). */
export interface FirstRead {
  source: string;
  tookMs: number;
}

/** Whether the first read after the act is final (the header's rule); `idleTimeoutMs` null: unknown, never trusted. */
export function readIsFinal(before: string, first: FirstRead, idleTimeoutMs: number | null): boolean {
  if (!mayStillMove(before, first.source)) return true;
  return idleTimeoutMs !== null && idleTimeoutMs > 0 && first.tookMs < idleTimeoutMs;
}

/** Reads after `first` until two consecutive reads are equal (the settle interval apart), bounded as the header says. */
export async function confirmSettled(
  first: FirstRead,
  read: () => Promise<string>,
  ports: Pick<ToolPorts, "clock">,
  ctx: Pick<OperationContext, "remainingMs" | "signal">,
): Promise<SettledScreen> {
  const started = ports.clock.now();
  let previous = first.source;
  const reads = readTimer(ports.clock, first.tookMs);
  for (;;) {
    const withinSettle = ACT_DEFAULTS.settleMaxMs - (ports.clock.now() - started) >= ACT_DEFAULTS.settleIntervalMs;
    if (!withinSettle || !reads.fits(ctx.remainingMs(), 1000, ACT_DEFAULTS.settleIntervalMs)) return { source: previous, settled: false };
    await ports.clock.sleep(ACT_DEFAULTS.settleIntervalMs, ctx.signal);
    const next = await reads.time(read);
    if (next === previous) return { source: next, settled: true };
    previous = next;
  }
}
