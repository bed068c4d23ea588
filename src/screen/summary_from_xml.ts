/**
 * `{xml, context}` → summary: parses a dump and summarizes it, filling what the caller does not know
 * from the dump itself (screen size from its extent, keyboard from keyboard nodes in it, the package
 * from its main window; "" or 0 mean unknown). A device capture goes through `summaryFromCapture`, the
 * one path `ui_get_tree` and `tree` on a live device share. Throws UI_TREE_UNAVAILABLE like parseDump.
 */
import type { TreeCapture } from "./types.ts";
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
    ...(context.foregroundPackage === undefined || context.foregroundPackage === ""
      ? {}
      : { foregroundPackage: context.foregroundPackage }),
  });
  return { tree, summary };
}

/** What a device capture says about its screen, as a context: a size, density or package of 0 / "" is unknown (left out). */
export function captureContext(capture: TreeCapture): ScreenReadingInput["context"] {
  const { width, height, density } = capture.screen;
  return {
    ...(width > 0 && height > 0 ? { width, height } : {}),
    ...(density > 0 ? { density } : {}),
    keyboard: capture.keyboard,
    ...(capture.foregroundPackage === "" ? {} : { foregroundPackage: capture.foregroundPackage }),
  };
}

/** The summary of one device capture; `overrides` (the `tree` flags) win over what the device says. */
export function summaryFromCapture(
  capture: TreeCapture,
  overrides: ScreenReadingInput["context"] = {},
): { tree: UiTree; summary: ScreenSummary } {
  return summaryFromXml({ xml: capture.xml, context: { ...captureContext(capture), ...overrides } });
}
