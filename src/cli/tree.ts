/**
 * `tree`: prints the screen summary of the live device (`--device`, ANDROID_UDID, else the only online
 * device; `--device sim` the built-in simulated one, said so on stderr or in a text header line), or of
 * a dump given with `--file`. Text by default, `--json` the summary object, `--raw` the XML as read.
 * Flags override the device's (or the dump's) size, density and keyboard. Exit 1 with the typed error's
 * message when the device or file cannot be read (no device, several, adb missing, unusable dump); 2 for usage.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { CAC } from "cac";
import { type HarnessConfig, loadConfig } from "../config.ts";
import { isHarnessError } from "../errors.ts";
import { captureContext, renderSummaryText, type ScreenReadingInput, summaryFromXml } from "../screen/mod.ts";
import { type CliContext, EXIT } from "./context.ts";
import { deviceLockFor, type OpenedDevice, openDevice } from "./serve.ts";

export type TreeFormat = "text" | "json" | "raw";

interface TreeFlags {
  device?: unknown;
  file?: unknown;
  json?: boolean;
  text?: boolean;
  raw?: boolean;
  density?: unknown;
  keyboardTop?: unknown;
  width?: unknown;
  height?: unknown;
}

export function registerTreeCommand(cli: CAC, ctx: CliContext): void {
  cli
    .command("tree", "Print the screen summary of the device (or of a dump with --file): the targets a tool call can name")
    .option("--device <udid|sim>", "Device serial, or 'sim' for the built-in simulated device (default: ANDROID_UDID, else the only online device)")
    .option("--file <path>", "Read a uiautomator dump or Appium page source instead of the device")
    .option("--json", "Print the summary as JSON")
    .option("--text", "Print the compact line form (the default)")
    .option("--raw", "Print the XML as read instead of the summary")
    .option("--density <dpi>", "Screen density in dpi, as `adb shell wm density` prints it (enables the 48 dp audit)")
    .option("--keyboard-top <y>", "Top edge of the open soft keyboard in px (default: from the device, or keyboard nodes in the dump)")
    .option("--width <px>", "Screen width in px (default: from the device or the dump)")
    .option("--height <px>", "Screen height in px (default: from the device or the dump)")
    .example("android-mcp-harness tree --device sim")
    .example("android-mcp-harness tree --file window_dump.xml --density 420")
    .action((flags: TreeFlags) => runTree(flags, ctx));
}

async function runTree(flags: TreeFlags, ctx: CliContext): Promise<number> {
  if (flags.json && (flags.text || flags.raw)) return usage(ctx, "Choose one of --json, --text and --raw.");
  if (flags.text && flags.raw) return usage(ctx, "Choose one of --json, --text and --raw.");
  const context: ScreenReadingInput["context"] = {};
  for (const [name, key] of [["density", "density"], ["width", "width"], ["height", "height"]] as const) {
    const value = positive(flags[name]);
    if (value === "invalid") return usage(ctx, `--${name} must be a positive whole number.`);
    if (value !== undefined) context[key] = value;
  }
  const keyboardTop = positive(flags.keyboardTop);
  if (keyboardTop === "invalid") return usage(ctx, "--keyboard-top must be a positive whole number of pixels.");
  if (keyboardTop !== undefined) context.keyboard = { open: true, top: keyboardTop };
  const format: TreeFormat = flags.json ? "json" : flags.raw ? "raw" : "text";
  if (flags.file !== undefined) {
    if (typeof flags.file !== "string" || flags.file === "") return usage(ctx, "--file needs a path to a dump.");
    if (flags.device !== undefined) return usage(ctx, "Choose one of --file and --device.");
    return treeOfFile(flags.file, context, format, ctx);
  }
  let config: HarnessConfig;
  try {
    config = loadConfig(ctx.env, flags.device === undefined || flags.device === true ? {} : { device: String(flags.device) });
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    return usage(ctx, error.message);
  }
  return treeOfDevice(config, context, format, ctx);
}

async function treeOfFile(file: string, context: ScreenReadingInput["context"], format: TreeFormat, ctx: CliContext): Promise<number> {
  const path = resolve(ctx.cwd, file);
  let xml: string;
  try {
    xml = await readFile(path, "utf8");
  } catch (error) {
    ctx.stderr(`tree: cannot read ${path}: ${(error as Error).message}. Check the path and try again.\n`);
    return EXIT.failure;
  }
  return printed(ctx, () => renderTree({ xml, context }, format));
}

/** One capture of the live device; flags win over what the device says. The device is always stopped. */
async function treeOfDevice(config: HarnessConfig, flagged: ScreenReadingInput["context"], format: TreeFormat, ctx: CliContext): Promise<number> {
  let device: OpenedDevice | undefined;
  try {
    device = await openDevice(config, ctx);
    const wait = { timeoutMs: config.actionTimeoutSeconds * 1000 };
    // One owner per device: a `serve` acting on it makes this EMULATOR_BUSY at once, and the other way round.
    const udid = await device.observer.resolveUdid(wait);
    const lease = await deviceLockFor(ctx).acquire({ adbServer: device.observer.adbServer, udid }, { operationId: randomUUID(), tool: "tree" });
    let capture;
    try {
      capture = await device.observer.bind(udid).captureTree(wait);
    } finally {
      await lease.release();
    }
    const context = { ...captureContext(capture), ...flagged }; // as summaryFromCapture, the path ui_get_tree takes
    const simulated = config.device.kind === "sim" ? `the device is SIMULATED (the built-in ${device.observer.udid}), not a real phone` : undefined;
    if (simulated !== undefined && format !== "text") ctx.stderr(`tree: ${simulated}\n`);
    const header = simulated !== undefined && format === "text" ? `${simulated}\n` : "";
    return printed(ctx, () => header + renderTree({ xml: capture.xml, context }, format));
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    ctx.stderr(`tree: ${error.code}: ${error.message}\n`);
    return EXIT.failure;
  } finally {
    await device?.stop();
  }
}

function printed(ctx: CliContext, render: () => string): number {
  try {
    ctx.stdout(render());
    return EXIT.ok;
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    ctx.stderr(`tree: ${error.code}: ${error.message}\n`);
    return EXIT.failure;
  }
}

/** The printed form of a dump's summary; reusable for a live capture. Throws UI_TREE_UNAVAILABLE. */
export function renderTree(input: ScreenReadingInput, format: TreeFormat): string {
  const { summary } = summaryFromXml(input); // parses even for --raw, so a broken dump is refused the same way
  if (format === "raw") return input.xml.endsWith("\n") ? input.xml : input.xml + "\n";
  if (format === "json") return JSON.stringify(summary, null, 2) + "\n";
  return renderSummaryText(summary);
}

function positive(value: unknown): number | undefined | "invalid" {
  if (value === undefined) return undefined;
  const number = typeof value === "number" ? value : Number(value);
  return Number.isInteger(number) && number > 0 ? number : "invalid";
}

function usage(ctx: CliContext, message: string): number {
  ctx.stderr(`tree: ${message}\n`);
  return EXIT.usage;
}
