/**
 * The fuzzing section: `lanes` lanes in parallel (each its own simulated device and `serve` process), each a
 * fast-check property over hostile tools/call requests (arbitraries.ts) whose every answer and every device
 * command must pass the invariants (lane.ts). Calls that would reach the device are budgeted (a valid act can
 * wait 5 s for an element): past the budget such an input is skipped (fc.pre), the rest is sent. A violation
 * fails the property, so fast-check shrinks it to a minimal call, which is reported.
 */
import fc from "fast-check";
import { type ToolName, TOOLS } from "../../contracts/tools.ts";
import { parseToolInput } from "../../src/mcp/tool_input.ts";
import { toolCall } from "./arbitraries.ts";
import { type ToolCallParams, wantsProtocolError } from "./invariants.ts";
import { describeCall, Lane } from "./lane.ts";
import type { Tally } from "./tally.ts";

export interface FuzzOptions {
  lanes: number;
  /** Calls per lane (fast-check runs). */
  callsPerLane: number;
  /** Per lane: calls that pass validation and act (open an Appium session). */
  actBudget: number;
  /** Per lane: calls that pass validation and observe (adb). */
  observeBudget: number;
  seed: number;
}

export async function runFuzz(options: FuzzOptions, tally: Tally): Promise<void> {
  const started = performance.now();
  const before = { calls: tally.callsMade, inputs: tally.inputsTried };
  await Promise.all(Array.from({ length: options.lanes }, (_, i) => fuzzLane(i, options, tally)));
  tally.section("fuzz", tally.callsMade - before.calls, tally.inputsTried - before.inputs, (performance.now() - started) / 1000);
}

async function fuzzLane(index: number, options: FuzzOptions, tally: Tally): Promise<void> {
  // Even lanes keep the warm device, odd ones run a session per act; each checks the device after every call.
  const lane = await Lane.open({
    name: `fuzz#${index}`,
    actionTimeoutS: 20,
    idleTimeoutS: 3,
    perAct: index % 2 === 1,
    checkBetweenCalls: true,
  });
  const budget = { act: options.actBudget, observe: options.observeBudget };
  const seed = options.seed + index;
  try {
    const result = await fc.check(
      fc.asyncProperty(toolCall, async (params) => {
        tally.inputsTried++;
        const reaches = reachesDevice(params);
        if (reaches !== null) {
          fc.pre(budget[reaches] > 0);
          budget[reaches]--;
        }
        return (await lane.call(params, tally)).violations === 0;
      }),
      { numRuns: options.callsPerLane, seed, maxSkipsPerRun: 1000, interruptAfterTimeLimit: 30 * 60_000 },
    );
    tally.figure(
      `fuzz#${index} (seed ${seed}): ${result.numRuns} calls, ${options.actBudget - budget.act} acts and ${
        options.observeBudget - budget.observe
      } observations passed validation and reached the device; ${result.numSkips} inputs skipped past that budget`,
    );
    if (result.failed && result.counterexample !== null) {
      tally.figure(
        `fuzz#${index} (seed ${seed}) smallest failing call after shrinking: ${describeCall(result.counterexample[0] as ToolCallParams)}`,
      );
    } else if (result.failed) {
      tally.violation(
        "untyped answers",
        `fuzz#${index}: the property could not run: ${String(result.errorInstance ?? "too many skipped inputs").slice(0, 300)}`,
      );
    }
    const unnamed = await lane.finish(tally);
    if (unnamed > 0) tally.figure(`fuzz#${index}: ${unnamed} evidence PNG(s) written by work that was abandoned (no envelope names them)`);
  } catch (error) {
    // A gone server was counted as a crash where it was seen; anything else is the campaign's own failure.
    if (!/the server is gone/.test((error as Error).message)) {
      tally.violation("campaign errors", `fuzz#${index}: ${(error as Error).stack ?? String(error)}`);
    }
    await lane.dispose();
  }
}

/** "act" or "observe" when the call passes validation and so reaches the device; null when it is refused first. */
function reachesDevice(params: ToolCallParams): "act" | "observe" | null {
  if (wantsProtocolError(params)) return null;
  const name = params.name as ToolName;
  if (name === "ui_session_close") return null;
  try {
    parseToolInput(name, params.arguments);
  } catch {
    return null;
  }
  return TOOLS[name].device === "observe" ? "observe" : "act";
}
