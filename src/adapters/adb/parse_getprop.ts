/**
 * Parses `getprop` output: the full `[key]: [value]` listing (multi-line values kept), and the single
 * value `getprop KEY` prints. Pure; an empty or unparsable answer gives an empty map / "".
 */
import { toLines } from "./text_lines.ts";

export function parseGetpropListing(text: string): Map<string, string> {
  const props = new Map<string, string>();
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const pattern = /^\[([^\]\n]+)\]: \[([\s\S]*?)\]$/gm;
  for (const match of normalized.matchAll(pattern)) props.set(match[1]!, match[2]!);
  return props;
}

/** `getprop ro.build.version.sdk` prints the value and a newline; an unset property prints nothing. */
export function parseGetpropValue(text: string): string {
  const lines = toLines(text).filter((line) => line !== "");
  return lines.length === 0 ? "" : lines[lines.length - 1]!.trim();
}
