/**
 * Parses `pm list packages` (`package:<name>` lines) and `cmd package resolve-activity --brief`
 * (the launchable `pkg/.Activity` on the last line, or `No activity found`). Pure; never throws.
 */
import { toLines } from "./text_lines.ts";

export function parsePackageList(text: string): string[] {
  const names: string[] = [];
  for (const line of toLines(text)) {
    const match = /^package:(?:.*=)?([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)(?:\s.*)?$/.exec(line.trim());
    if (match !== null) names.push(match[1]!);
  }
  return names;
}

/** The launchable component `pkg/cls`, or null when the package has none (or the text is an error). */
export function parseResolvedActivity(text: string): { packageName: string; activity: string } | null {
  const lines = toLines(text).map((line) => line.trim()).filter((line) => line !== "");
  const last = lines[lines.length - 1];
  if (last === undefined) return null;
  const match = /^([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)\/(\S+)$/.exec(last);
  if (match === null) return null;
  const cls = match[2]!;
  return { packageName: match[1]!, activity: cls.startsWith(".") ? match[1]! + cls : cls };
}
