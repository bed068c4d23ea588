/**
 * `tree`: prints the screen summary of the live device (`--device`, ANDROID_UDID, else the only online
 * device; `--device sim` the built-in simulated one, said so on stderr), or of a dump given with `--file`;
 * `--device sim --screen dump.xml` reads a real capture through the simulated device. Text by default,
 * `--json` the summary object, `--raw` the XML document (password texts blanked); stdout carries only that. Flags override the
 * device's (or the dump's) size, density and keyboard (tree_flags.ts checks them). Exit 1 with the typed
 * error's message when the device or file cannot be read (no device, several, adb missing, a file that is
 * binary or not XML, an unusable dump); 2 for usage.
 */
import { resolve } from "node:path";
import type { CAC } from "cac";
import { type HarnessConfig, loadConfig } from "../config.ts";
import type { Harness, HarnessOptions } from "../composition.ts";
import { isHarnessError } from "../errors.ts";
import { maskPasswordText, parseDump, renderSummaryText, type ScreenReadingInput, screenSizeOf, summaryFromXml } from "../screen/mod.ts";
import { type CliContext, EXIT } from "./context.ts";
import { FILE_LIMITS, readFileArgument } from "./read_file_argument.ts";
import { keyboardTopProblem, parseScreenFlags } from "./tree_flags.ts";
import { harnessScreenOptions, type ScreenFlags } from "./sim_screen.ts";
import { DEVICE_HELP } from "./shared_options.ts";

export type TreeFormat = "text" | "json" | "raw";

interface TreeFlags extends ScreenFlags {
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
    .option(
      "--device <udid|sim>",
      DEVICE_HELP,
    )
    .option("--file <path>", "Read a uiautomator dump or Appium page source instead of the device")
    .option(
      "--screen <dump.xml>",
      "With --device sim: the simulated device shows this real capture (read through adb, as ui_get_tree does)",
    )
    .option("--screenshot <shot.png>", "With --screen: the PNG taken with the dump")
    .option("--json", "Print the summary as JSON")
    .option("--text", "Print the compact line form (the default)")
    .option("--raw", "Print the XML document (password texts blanked) instead of the summary")
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
  const parsed = parseScreenFlags(flags);
  if (!parsed.ok) return usage(ctx, parsed.problem);
  const context = parsed.context;
  const format: TreeFormat = flags.json ? "json" : flags.raw ? "raw" : "text";
  if (flags.file !== undefined) {
    if (typeof flags.file !== "string" || flags.file === "") return usage(ctx, "--file needs a path to a dump.");
    if (flags.device !== undefined) return usage(ctx, "Choose one of --file and --device.");
    if (flags.screen !== undefined || flags.screenshot !== undefined) {
      return usage(ctx, "Choose one of --file (read the dump offline) and --device sim --screen (replay it on the simulated device).");
    }
    return treeOfFile(flags.file, context, format, ctx);
  }
  let config: HarnessConfig;
  let options: HarnessOptions;
  try {
    config = loadConfig(ctx.env, flags.device === undefined || flags.device === true ? {} : { device: String(flags.device) });
    options = await harnessScreenOptions(flags, config, ctx.cwd);
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    return usage(ctx, error.message);
  }
  return treeOfDevice(config, context, format, ctx, options);
}

async function treeOfFile(file: string, context: ScreenReadingInput["context"], format: TreeFormat, ctx: CliContext): Promise<number> {
  const path = resolve(ctx.cwd, file);
  let bytes: Buffer;
  try {
    bytes = Buffer.from(await readFileArgument(path, FILE_LIMITS.dump));
  } catch (error) {
    ctx.stderr(`tree: cannot read ${path}: ${(error as Error).message}. Check the path and try again.\n`);
    return (error as NodeJS.ErrnoException).code === "ENOTREGULAR" ? EXIT.usage : EXIT.failure;
  }
  const notADump = notADumpReason(bytes);
  if (notADump !== undefined) {
    ctx.stderr(
      `tree: ${path} is not a UI dump: ${notADump}. Give the XML that \`adb exec-out uiautomator dump /dev/tty\` or Appium's page source writes.\n`,
    );
    return EXIT.failure;
  }
  const input = { xml: bytes.toString("utf8"), context };
  const problem = keyboardBeyondScreen(input);
  if (problem !== undefined) return usage(ctx, problem);
  return printed(ctx, () => renderTree(input, format));
}

/** Why a file's bytes cannot be a dump at all (binary, or text that is not XML), before parsing. */
function notADumpReason(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return "it is a binary file";
  const text = head.toString("utf8").replace(/^\uFEFF/, "").trimStart();
  if (text === "") return "it is empty";
  if (!text.startsWith("<")) return `it is not XML (it starts with ${JSON.stringify(text.slice(0, 40))})`;
  return undefined;
}

/** A --keyboard-top below the screen the dump (or --height) gives; undefined when fine or not knowable yet. */
function keyboardBeyondScreen(input: ScreenReadingInput): string | undefined {
  const top = input.context.keyboard?.top;
  if (top === undefined) return undefined;
  let height = input.context.height;
  if (height === undefined) {
    try {
      height = screenSizeOf(parseDump(input.xml)).height;
    } catch {
      return undefined; // an unusable dump is reported by the rendering, with its own reason
    }
  }
  return keyboardTopProblem(top, height);
}

/**
 * One capture of the live device through the one operation gate (`ui_get_tree` in runOperation: device
 * lock, bound serial, ANDROID_MCP_ACTION_TIMEOUT, audit line). Flags that change the screen's size,
 * density or keyboard re-summarize the captured XML, with the rest of the context from `device_status`
 * (a second gated operation, only then). The harness is always closed.
 */
async function treeOfDevice(
  config: HarnessConfig,
  flagged: ScreenReadingInput["context"],
  format: TreeFormat,
  ctx: CliContext,
  options: HarnessOptions = {},
): Promise<number> {
  let harness: Harness | undefined;
  try {
    // Loaded here: `tree --file` never needs the adapters nor the operation gate.
    const { openHarness } = await import("../composition.ts");
    const { callForData, inProcessClient } = await import("../mcp/in_process_client.ts");
    harness = await openHarness(config, ctx, options);
    const client = inProcessClient(harness.tools, harness.deps);
    const { raw = "", ...summary } = await callForData(client, "ui_get_tree", { include_raw: true });
    // Said on stderr in every format, so `tree --device sim > screen.txt` captures only the screen.
    if (harness.simulated) {
      ctx.stderr(`tree: the device is SIMULATED (the built-in ${harness.deps.ports.observer.udid}), not a real phone\n`);
    }
    if (Object.keys(flagged).length === 0) {
      return printed(
        ctx,
        () =>
          format === "raw" ? withNewline(raw) : format === "json" ? JSON.stringify(summary, null, 2) + "\n" : renderSummaryText(summary),
      );
    }
    const status = await callForData(client, "device_status", {});
    const context: ScreenReadingInput["context"] = {
      ...status.screen,
      foregroundPackage: status.foreground_package,
      keyboard: summary.keyboard ?? { open: false },
      ...flagged,
    };
    const problem = keyboardBeyondScreen({ xml: raw, context });
    if (problem !== undefined) return usage(ctx, problem);
    return printed(ctx, () => renderTree({ xml: raw, context }, format));
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    ctx.stderr(`tree: ${error.code}: ${error.message}\n`);
    return EXIT.failure;
  } finally {
    await harness?.close();
  }
}

function withNewline(text: string): string {
  return text.endsWith("\n") ? text : text + "\n";
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
  const { summary, tree } = summaryFromXml(input); // parses even for --raw, so a broken dump is refused the same way
  if (format === "raw") {
    const xml = maskPasswordText(input.xml, tree);
    return xml.endsWith("\n") ? xml : xml + "\n";
  }
  if (format === "json") return JSON.stringify(summary, null, 2) + "\n";
  return renderSummaryText(summary);
}

function usage(ctx: CliContext, message: string): number {
  ctx.stderr(`tree: ${message}\n`);
  return EXIT.usage;
}
