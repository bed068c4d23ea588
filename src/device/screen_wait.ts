/**
 * ui_wait's poll: read the screen (through a held session when there is one, else adb) every
 * ACT_DEFAULTS.pollIntervalMs on the injected clock until an element the selector names is on it
 * (`visible`: one or several, as a flow's expectation) or none is (`gone`), for at most `timeout_ms`.
 * Misses answer typed with a screenshot of that moment: UI_ELEMENT_NOT_FOUND, or OPERATION_TIMEOUT when it stayed; a
 * reading is started only if one as long as the longest so far leaves RESERVE_MS of the call's time limit.
 */
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import { WAIT_DEFAULTS } from "../../contracts/tool_inputs.ts";
import { HarnessError } from "../errors.ts";
import type { OperationContext, ToolPorts } from "../ports/operation.ts";
import { findElement, locate, type Selector } from "../screen/mod.ts";
import { readScreen, type ScreenReading } from "./screen_reading.ts";
import { attachMomentEvidence } from "./screenshot.ts";
import { readTimer } from "./read_timer.ts";

export type ScreenCondition = { visible: Selector } | { gone: Selector };

/** What the deadline keeps back after the wait: the miss's screenshot and the answer. */
const RESERVE_MS = 2000;

export interface ConditionMet {
  waitedMs: number;
  reading: ScreenReading;
}

/** `timeoutMs` undefined: the default, cut to what the call's time limit leaves (a value the caller sent is refused instead). */
export async function waitForCondition(
  condition: ScreenCondition,
  asked: number | undefined,
  ctx: OperationContext,
  ports: ToolPorts,
): Promise<ConditionMet> {
  // What the limit leaves: never below 0 (one reading), so a short limit never refuses the default or a timeout_ms of 0.
  const room = Math.max(0, Math.floor(ctx.remainingMs() - RESERVE_MS));
  const timeoutMs = asked ?? Math.min(WAIT_DEFAULTS.timeoutMs, room);
  if (timeoutMs > room) {
    throw new HarnessError(
      "INVALID_ARGUMENT",
      `timeout_ms ${timeoutMs} does not fit in this call's time limit (ANDROID_MCP_ACTION_TIMEOUT): ` +
        `send at most ${room}, or raise the limit.`,
      { timeout_ms: timeoutMs, at_most: room },
    );
  }
  const wait = () => ({ timeoutMs: ctx.remainingMs(), signal: ctx.signal });
  const started = ports.clock.now();
  const reads = readTimer(ports.clock);
  for (;;) {
    const readAt = ports.clock.now();
    const reading = await reads.time(() => readScreen(ports.observer, wait(), ctx.device));
    const waitedMs = Math.round(ports.clock.now() - started);
    const result = findElement(reading.tree, "visible" in condition ? condition.visible : condition.gone);
    const present = result.status !== "not_found";
    // waited_ms: from the first reading to the one that held (their starts: a dump takes 1–4 s on a real device).
    if (present === "visible" in condition) return { waitedMs: Math.round(readAt - started), reading };
    // The last reading: at timeout_ms, or the last one whose like (as long as the longest so far: a page source on a UI
    // that never goes quiet takes the whole idle wait) still leaves the miss's screenshot and the answer their time.
    const noRoom = !reads.fits(ctx.remainingMs(), RESERVE_MS, ACT_DEFAULTS.pollIntervalMs);
    if (waitedMs >= timeoutMs || noRoom) {
      await attachMomentEvidence(ports, ctx, "ui_wait", wait());
      // locate throws UI_ELEMENT_NOT_FOUND: "The screen offers: …"
      if ("visible" in condition) locate(reading.tree, condition.visible, { waitedMs });
      const label = result.status === "found" ? result.element.label : result.status === "ambiguous" ? result.candidates[0]!.label : "";
      const gone = (condition as { gone: Selector }).gone;
      throw new HarnessError(
        "OPERATION_TIMEOUT",
        `${JSON.stringify(gone)} was still on screen ('${label}') after ${waitedMs} ms. Wait longer (timeout_ms up to 30000), ` +
          "or read the screen (ui_get_tree) and act on what it shows.",
        { selector: gone, waited_ms: waitedMs },
      );
    }
    await ports.clock.sleep(Math.min(ACT_DEFAULTS.pollIntervalMs, timeoutMs - waitedMs), ctx.signal);
  }
}
