/**
 * Turns a failed adb run into a HarnessError: adb missing (names ADB / ANDROID_HOME), timeout or
 * cancellation (OPERATION_TIMEOUT; the runner has killed the child), and the adb client's own device
 * errors (unauthorized, offline, not found, no devices, server unreachable) as EMULATOR_UNAVAILABLE.
 * Returns null when the run is not one of these (the caller reads the output itself).
 */
import { HarnessError } from "../../errors.ts";
import type { ProcessResult } from "../../ports/process_runner.ts";
import type { AdbProgram } from "./adb_program.ts";

export function adbFailure(result: ProcessResult, commandName: string, program: AdbProgram, timeoutMs: number): HarnessError | null {
  if (result.spawnError !== undefined) {
    const where = program.source === "PATH" ? "'adb' is not on PATH" : `${program.source} points to "${program.program}"`;
    return new HarnessError(
      "EMULATOR_UNAVAILABLE",
      `Cannot run adb (${result.spawnError}): ${where}. Set ADB to the adb executable or ANDROID_HOME to an Android SDK with platform-tools/adb.`,
      { adb: program.program, source: program.source },
    );
  }
  if (result.timedOut || result.aborted) {
    return new HarnessError(
      "OPERATION_TIMEOUT",
      result.timedOut
        ? `adb ${commandName} did not answer within ${timeoutMs} ms and was stopped; check that the device responds ('adb devices') and retry.`
        : `adb ${commandName} was cancelled before it finished; retry the call.`,
      { command: commandName, duration_ms: result.durationMs },
    );
  }
  if (result.exitCode === 0) return null;
  const text = result.stderr;
  const device = /device '([^']+)' not found/.exec(text);
  if (device !== null) {
    return unavailable(
      `adb cannot find device "${device[1]}"; it is no longer listed. Reconnect it or set ANDROID_UDID to a device 'adb devices' lists.`,
    );
  }
  if (/device unauthorized/.test(text)) {
    return unavailable("The device is unauthorized: accept the USB debugging prompt on the device, then retry.");
  }
  if (/device offline/.test(text)) {
    return unavailable("The device is offline: reconnect it or restart the emulator, then retry.");
  }
  if (/device still authorizing|device still connecting/.test(text)) {
    return unavailable(
      "The device is still connecting or authorizing: accept the USB debugging prompt if shown, wait a moment, then retry.",
    );
  }
  if (/error: closed|protocol fault|device not found/.test(text)) {
    return unavailable("The connection to the device dropped during the command: check the cable or emulator, then retry.");
  }
  if (/no devices\/emulators found/.test(text)) {
    return unavailable("adb lists no devices: start an emulator or connect a device with USB debugging on.");
  }
  if (/cannot connect to daemon|failed to check server version|cannot start server on remote host/.test(text)) {
    return unavailable(
      "Cannot reach the adb server: start it with 'adb start-server', or check ADB_SERVER_SOCKET when using a remote one.",
    );
  }
  return null;
}

function unavailable(message: string): HarnessError {
  return new HarnessError("EMULATOR_UNAVAILABLE", message);
}
