/**
 * Reads the screen hierarchy with `exec-out uiautomator dump /dev/tty` (no file on the device, so no
 * stale screen): strips the trailer, retries `null root node` (twice, after a short pause), falls
 * back to `--compressed` on `could not get idle state`, and otherwise throws UI_TREE_UNAVAILABLE.
 * Never returns an old screen.
 */
import { HarnessError } from "../../errors.ts";
import type { Clock } from "../../ports/clock.ts";
import type { AdbClient } from "./adb_client.ts";
import { ADB_COMMANDS } from "./adb_commands.ts";
import { type DumpOutcome, parseUiautomatorDump } from "./parse_uiautomator_dump.ts";

export const NULL_ROOT_RETRIES = 2;
export const NULL_ROOT_PAUSE_MS = 250;

export async function dumpHierarchy(
  adb: AdbClient,
  clock: Clock,
  options: { serial: string; deadline: number; signal?: AbortSignal },
): Promise<string> {
  const run = async (compressed: boolean): Promise<DumpOutcome> => {
    const command = compressed ? ADB_COMMANDS.uiautomatorDumpCompressed() : ADB_COMMANDS.uiautomatorDump();
    const timeoutMs = Math.max(1, options.deadline - clock.now());
    const result = await adb.run(command, { serial: options.serial, timeoutMs, ...signalOf(options) });
    const outcome = parseUiautomatorDump(result.stdout.toString("utf8"));
    if (outcome.kind === "no-output" && result.exitCode !== 0) {
      return { kind: "no-output", text: `exit code ${result.exitCode}${result.stderr ? `: ${result.stderr.trim().slice(0, 200)}` : ""}` };
    }
    return outcome;
  };

  let outcome = await run(false);
  for (let attempt = 0; outcome.kind === "null-root-node" && attempt < NULL_ROOT_RETRIES; attempt++) {
    if (clock.now() + NULL_ROOT_PAUSE_MS >= options.deadline) break;
    await clock.sleep(NULL_ROOT_PAUSE_MS, options.signal);
    outcome = await run(false);
  }
  if (outcome.kind === "idle-state") outcome = await run(true);
  if (outcome.kind === "xml") return outcome.xml;
  throw new HarnessError("UI_TREE_UNAVAILABLE", explain(outcome), { reason: outcome.kind });
}

function explain(outcome: Exclude<DumpOutcome, { kind: "xml" }>): string {
  switch (outcome.kind) {
    case "null-root-node":
      return `uiautomator returned no window (null root node) ${
        NULL_ROOT_RETRIES + 1
      } times; wait for the screen to settle (or unlock it) and retry.`;
    case "idle-state":
      return "uiautomator could not get an idle screen, even with --compressed; the screen keeps animating. Retry when it is still.";
    case "truncated":
      return `The hierarchy dump was cut off after ${outcome.bytes} characters; retry.`;
    case "no-output":
      return `uiautomator printed no hierarchy (${outcome.text || "empty output"}); check the device is unlocked and retry.`;
  }
}

function signalOf(options: { signal?: AbortSignal }): { signal?: AbortSignal } {
  return options.signal === undefined ? {} : { signal: options.signal };
}
