/**
 * `{xml, context}` → summary: parses a dump and summarizes it, filling what the caller does not know
 * from the dump itself (screen size from its extent, keyboard from keyboard nodes in it). Serves
 * `tree --file`, `tree` on a live device (with the device's context) and the bench. Throws UI_TREE_UNAVAILABLE like parseDump.
 */
import { parseDump } from "./parse_dump.ts";
import { keyboardInDump, screenSizeOf } from "./screen_geometry.ts";
import { summarize } from "./summarize.ts";
import type { KeyboardState, ScreenSummary, UiTree } from "./types.ts";

export interface ScreenReadingInput {
  xml: string;
  context: {
    width?: number;
    height?: number;
    density?: number;
    keyboard?: KeyboardState;
    foregroundPackage?: string;
  };
}

export function summaryFromXml(input: ScreenReadingInput): { tree: UiTree; summary: ScreenSummary } {
  const tree = parseDump(input.xml);
  const size = screenSizeOf(tree);
  const { context } = input;
  const summary = summarize(tree, {
    width: context.width ?? size.width,
    height: context.height ?? size.height,
    ...(context.density === undefined ? {} : { density: context.density }),
    keyboard: context.keyboard ?? keyboardInDump(tree),
    ...(context.foregroundPackage === undefined ? {} : { foregroundPackage: context.foregroundPackage }),
  });
  return { tree, summary };
}
