/**
 * The text block of a tool result: what a model reads, each thing said once. A header line (`tool: ok`, with
 * `changed`/`settled` for an act, or `tool: failed CODE`), the error's message (its details repeat it for
 * programs), each data field as `key: JSON` (an element label equal to the target's text or description is
 * left out), the evidence as its `artifact://` URI, and a screen summary in the `tree --text` form without the
 * actions' rectangles. structuredContent keeps the whole envelope (operation id, paths, details, bounds). Pure.
 */
import type { Envelope } from "../../contracts/envelope.ts";
import { renderSummaryText } from "../screen/render_text.ts";
import type { ScreenSummary } from "../screen/types.ts";

/** The act fields the header or the screen line already say. */
const SAID_ELSEWHERE = new Set(["screen", "settled", "changed", "foreground_package"]);

export function envelopeText(envelope: Envelope): string {
  const lines: string[] = [];
  if (!envelope.ok) {
    const error = envelope.error!;
    lines.push(`${envelope.tool}: failed ${error.code}`, error.message);
    if (envelope.evidence !== null) lines.push(`evidence: ${envelope.evidence.uri}`);
    return lines.join("\n") + "\n";
  }
  const data = envelope.data;
  const whole = isSummary(data); // ui_get_tree: the data is the summary
  const screen = whole ? data : isSummary(data["screen"]) ? data["screen"] : undefined;
  const act = screen !== undefined && !whole && typeof data["settled"] === "boolean"; // ui_wait has a screen, not an act's outcome
  lines.push(
    act
      ? `${envelope.tool}: ok · ${data["changed"] === true ? "changed" : "unchanged"} · ${
        data["settled"] === true ? "settled" : "not settled"
      }`
      : `${envelope.tool}: ok`,
  );
  const summaryKeys = whole ? new Set(Object.keys(SUMMARY_KEYS)) : new Set<string>();
  let raw: string | undefined;
  for (const [key, value] of Object.entries(data)) {
    if (
      value === undefined || (act && SAID_ELSEWHERE.has(key)) || (key === "screen" && screen !== undefined) || summaryKeys.has(key) ||
      labelOfTarget(key, value, data)
    ) continue;
    if (key === "raw" && typeof value === "string") raw = value;
    else lines.push(`${key}: ${JSON.stringify(value)}`);
  }
  if (envelope.evidence !== null) lines.push(`evidence: ${envelope.evidence.uri}`);
  let text = lines.join("\n") + "\n";
  if (screen !== undefined) text += renderSummaryText(screen, { bounds: false });
  if (raw !== undefined) text += `raw:\n${raw}${raw.endsWith("\n") ? "" : "\n"}`;
  return text;
}

/** An `element_label` the `target` selector already says (its text or content description). */
function labelOfTarget(key: string, value: unknown, data: Record<string, unknown>): boolean {
  if (key !== "element_label") return false;
  const target = data["target"] as Record<string, unknown> | undefined;
  return target !== undefined && (target["text"] === value || target["content_desc"] === value);
}

function isSummary(value: unknown): value is ScreenSummary {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v["foreground_package"] === "string" && Array.isArray(v["texts"]) && Array.isArray(v["actions"]);
}

/** Every key a summary can carry (the rendering says each of them; a key added to ScreenSummary must be added here). */
const SUMMARY_KEYS: Record<keyof ScreenSummary, true> = {
  foreground_package: true,
  texts: true,
  actions: true,
  can_scroll: true,
  keyboard: true,
  scroll_areas: true,
  issues: true,
};
