/**
 * `tree`: prints the screen summary of a uiautomator dump or Appium page source given with `--file`
 * (text by default, `--json` for the summary object, `--raw` for the XML as read). Screen size,
 * density and keyboard come from flags, else from the dump itself. Without `--file` it exits 2 (the
 * live device comes later through `renderTree`, which takes `{xml, context}`). Exit 1 when the file
 * cannot be read or is not a usable dump, with the harness's message.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { CAC } from "cac";
import { isHarnessError } from "../errors.ts";
import { renderSummaryText, type ScreenReadingInput, summaryFromXml } from "../screen/mod.ts";
import { type CliContext, EXIT } from "./context.ts";

export type TreeFormat = "text" | "json" | "raw";

interface TreeFlags {
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
    .command("tree", "Print the screen summary of a dump (--file dump.xml): the targets a tool call can name")
    .option("--file <path>", "uiautomator dump or Appium page source to read")
    .option("--json", "Print the summary as JSON")
    .option("--text", "Print the compact line form (the default)")
    .option("--raw", "Print the XML as read instead of the summary")
    .option("--density <dpi>", "Screen density in dpi, as `adb shell wm density` prints it (enables the 48 dp audit)")
    .option("--keyboard-top <y>", "Top edge of the open soft keyboard in px (default: found from keyboard nodes in the dump)")
    .option("--width <px>", "Screen width in px (default: from the dump)")
    .option("--height <px>", "Screen height in px (default: from the dump)")
    .example("android-mcp-harness tree --file window_dump.xml --density 420")
    .action((flags: TreeFlags) => runTree(flags, ctx));
}

async function runTree(flags: TreeFlags, ctx: CliContext): Promise<number> {
  if (flags.json && (flags.text || flags.raw)) return usage(ctx, "Choose one of --json, --text and --raw.");
  if (flags.text && flags.raw) return usage(ctx, "Choose one of --json, --text and --raw.");
  if (typeof flags.file !== "string" || flags.file === "") {
    return usage(ctx, "tree needs a dump: pass --file dump.xml (reading the live device is not available in this version).");
  }
  const context: ScreenReadingInput["context"] = {};
  for (const [name, key] of [["density", "density"], ["width", "width"], ["height", "height"]] as const) {
    const value = positive(flags[name]);
    if (value === "invalid") return usage(ctx, `--${name} must be a positive whole number.`);
    if (value !== undefined) context[key] = value;
  }
  const keyboardTop = positive(flags.keyboardTop);
  if (keyboardTop === "invalid") return usage(ctx, "--keyboard-top must be a positive whole number of pixels.");
  if (keyboardTop !== undefined) context.keyboard = { open: true, top: keyboardTop };

  const path = resolve(ctx.cwd, flags.file);
  let xml: string;
  try {
    xml = await readFile(path, "utf8");
  } catch (error) {
    ctx.stderr(`tree: cannot read ${path}: ${(error as Error).message}. Check the path and try again.\n`);
    return EXIT.failure;
  }
  const format: TreeFormat = flags.json ? "json" : flags.raw ? "raw" : "text";
  try {
    ctx.stdout(renderTree({ xml, context }, format));
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
