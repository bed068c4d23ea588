/**
 * Reads what `exec-out screencap -p` sent. exec-out has no exit status (adb 29 exits 0 even when the device
 * drops mid-stream), so the bytes must prove they are whole: a PNG ends with its IEND chunk. Nothing at all,
 * or the start of a PNG without its end, is a stream cut by a device that went away (EMULATOR_UNAVAILABLE);
 * other bytes are screencap's own complaint (EVIDENCE_WRITE_FAILED with its text). Pure.
 */
import { HarnessError } from "../../errors.ts";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Length 0, "IEND", and the CRC every IEND chunk has. */
const IEND = [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

export function screencapPng(stdout: Uint8Array, exitCode: number | null, stderr: string): Uint8Array {
  const startsLikePng = stdout.length > 0 && SIGNATURE.slice(0, stdout.length).every((byte, i) => stdout[i] === byte);
  const endsLikePng = stdout.length >= SIGNATURE.length + IEND.length &&
    IEND.every((byte, i) => stdout[stdout.length - IEND.length + i] === byte);
  if (startsLikePng && endsLikePng) return stdout;
  if (stdout.length === 0 && exitCode === 0 || startsLikePng) {
    throw new HarnessError(
      "EMULATOR_UNAVAILABLE",
      `The screenshot stream ended after ${stdout.length} bytes, before the image was whole: the device dropped off adb. Reconnect it or restart the emulator, then retry.`,
      { received_bytes: stdout.length, cut: true },
    );
  }
  const said = (stdout.length > 0 ? Buffer.from(stdout.subarray(0, 160)).toString("utf8") : stderr).trim().slice(0, 160);
  throw new HarnessError(
    "EVIDENCE_WRITE_FAILED",
    `screencap returned no image (exit code ${exitCode}${
      said ? `: ${JSON.stringify(said)}` : ""
    }); retry, and check the device screen is on.`,
  );
}
