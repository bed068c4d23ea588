/**
 * Reads `--screen dump.xml [--screenshot shot.png]` into the capture the simulated device replays
 * (`sim`, and `--device sim` on `serve`/`tree`). Paths are taken relative to the working directory.
 * Errors are HarnessError INVALID_ARGUMENT, one line naming the file and what to pass instead.
 */
import type { HarnessOptions } from "../composition.ts";
import type { HarnessConfig } from "../config.ts";
import { isAbsolute, resolve } from "node:path";
import { HarnessError } from "../errors.ts";
import type { CapturedScreen } from "../sim/mod.ts";
import { FILE_LIMITS, type FileLimit, readFileArgument, unreadableReason } from "./read_file_argument.ts";

export interface ScreenFlags {
  screen?: unknown;
  screenshot?: unknown;
}

/** The capture the flags name, or undefined when `--screen` is not given. */
export async function readCapturedScreen(flags: ScreenFlags, cwd: string): Promise<CapturedScreen | undefined> {
  if (flags.screen === undefined) {
    if (flags.screenshot !== undefined) {
      throw new HarnessError(
        "INVALID_ARGUMENT",
        "--screenshot needs --screen: pass the dump the screenshot was taken with (--screen dump.xml --screenshot shot.png).",
      );
    }
    return undefined;
  }
  const xmlPath = pathOf(flags.screen, "--screen", "a uiautomator dump or Appium page source (.xml)", cwd);
  const xml = new TextDecoder().decode(
    await readWhole(xmlPath, FILE_LIMITS.screenDump, "screen dump", "a uiautomator dump or Appium page source (.xml)"),
  );
  if (flags.screenshot === undefined) return { xml, xmlName: xmlPath };
  const pngPath = pathOf(flags.screenshot, "--screenshot", "the PNG taken with the dump", cwd);
  const png = await readWhole(
    pngPath,
    FILE_LIMITS.screenshot,
    "screenshot",
    "the PNG taken with the dump (adb exec-out screencap -p > shot.png)",
  );
  return { xml, xmlName: xmlPath, png, pngName: pngPath };
}

function pathOf(value: unknown, flag: string, what: string, cwd: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new HarnessError("INVALID_ARGUMENT", `${flag} needs a file: ${what}.`);
  return isAbsolute(value) ? value : resolve(cwd, value);
}

async function readWhole(path: string, limit: FileLimit, noun: string, what: string): Promise<Uint8Array> {
  try {
    return await readFileArgument(path, limit);
  } catch (error) {
    throw new HarnessError("INVALID_ARGUMENT", `Cannot read the ${noun} ${path} (${unreadableReason(error)}). Pass the path of ${what}.`);
  }
}

/** `--scenario` given for a device that is not the simulated one: refused like --screen and --latency (serve, flow). */
export function scenarioWithoutSim(): HarnessError {
  return new HarnessError("INVALID_ARGUMENT", "--scenario picks what the simulated device shows: add --device sim.");
}

/**
 * The composition options `serve`/`tree` pass for `--screen`: none without it; with it the device must
 * be the simulated one (`--device sim`), since only that one can show a capture.
 */
export async function harnessScreenOptions(flags: ScreenFlags, config: HarnessConfig, cwd: string): Promise<HarnessOptions> {
  if (flags.screen !== undefined && config.device.kind !== "sim") {
    throw new HarnessError("INVALID_ARGUMENT", "--screen replays a capture on the simulated device: add --device sim.");
  }
  const screen = await readCapturedScreen(flags, cwd);
  return screen === undefined ? {} : { sim: { screen } };
}

/**
 * `--devices N` (sim, and serve with --device sim): how many simulated devices one adb server serves, a whole number from
 * 1 to `max`; undefined when not given. INVALID_ARGUMENT saying what to pass otherwise.
 */
export function simDeviceCount(value: unknown, max: number): number | undefined {
  if (value === undefined) return undefined;
  const count = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(count) || count < 1 || count > max) {
    throw new HarnessError("INVALID_ARGUMENT", `--devices takes how many simulated devices to serve, a whole number from 1 to ${max}.`);
  }
  return count;
}
