/**
 * Proof that a shell command's output arrived whole. A device that drops off mid-output ends the shell v2
 * stream without its exit packet, and adb 29 still exits 0 with empty stderr: only the content can show the
 * cut. So every `adb shell` command is sent as `COMMAND ; echo __android_mcp_end:$?`; an output that does not
 * end with that line ended early (EMULATOR_UNAVAILABLE). The line is removed and its status becomes the exit code.
 */
import { HarnessError } from "../../errors.ts";
import type { ProcessResult } from "../../ports/process_runner.ts";

export const END_MARKER = "__android_mcp_end";
/** Appended to the words of every `adb shell` command (adb joins them with spaces for the device's sh). */
export const END_MARKER_ARGS: readonly string[] = [";", "echo", `${END_MARKER}:$?`];

const MARKER_BYTES = Buffer.from(`${END_MARKER}:`, "utf8");
const STATUS_TAIL = /^(\d{1,3})\r?\n?$/;

/** True for the argument lists that carry the end marker (device `shell` commands). */
export function hasEndMarker(args: readonly string[]): boolean {
  return args.length >= END_MARKER_ARGS.length &&
    END_MARKER_ARGS.every((word, i) => args[args.length - END_MARKER_ARGS.length + i] === word);
}

/**
 * The result without the marker line and with the device command's own exit status; throws
 * EMULATOR_UNAVAILABLE when the marker is missing (the stream ended early).
 */
export function checkStreamEnd(result: ProcessResult, commandLine: string): ProcessResult {
  const at = result.stdout.lastIndexOf(MARKER_BYTES);
  const status = at === -1 ? null : STATUS_TAIL.exec(result.stdout.subarray(at + MARKER_BYTES.length).toString("latin1"));
  if (status === null || status === undefined) {
    throw new HarnessError(
      "EMULATOR_UNAVAILABLE",
      `The device stopped answering in the middle of 'adb ${commandLine}' (${result.stdout.length} bytes arrived, then the stream ended without its end): it dropped off adb. Reconnect it or restart the emulator, then retry.`,
      { command: commandLine, received_bytes: result.stdout.length, cut: true },
    );
  }
  return { ...result, stdout: result.stdout.subarray(0, at), exitCode: Number(status[1]) };
}
