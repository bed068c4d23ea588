/**
 * The one response builder: an envelope becomes the MCP tool result, its `structuredContent` (the whole
 * envelope: operation id, paths, details, bounds, for programs) and its first text block (what a model reads,
 * each thing said once), then any extra content (image, link), `isError` being `!ok`. The text reads by what
 * the tool declares it answers (`answers` in contracts/tools.ts), never guessed from the data's shape: a header
 * line (`tool: ok`, with changed/settled for an act, or `tool: failed CODE`), the error's message (its details
 * repeat it for programs), each data field as `key: JSON` (an element label equal to the target's text or
 * description is left out), an earlier act's evidence that could not be stored (`previous_evidence_error`, its
 * sentence), the evidence as its `artifact://` URI, and a screen summary in the `tree --text`
 * form without the actions' rectangles. Pure.
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Envelope } from "../../contracts/envelope.ts";
import { ScreenSummarySchema } from "../../contracts/tool_data.ts";
import { type ToolAnswer, TOOLS } from "../../contracts/tools.ts";
import type { ScreenSummary } from "../screen/mod.ts";
// The text form alone (no parser, no analysis): a server that has not read a screen yet loads no screen model.
import { renderSummaryText } from "../screen/render_text.ts";

export type ExtraContent = CallToolResult["content"];

/** The MCP result: the envelope (structured), its text for a model, then any extra content (image, link). */
export function toToolResult(envelope: Envelope, extra: ExtraContent = []): CallToolResult {
  return {
    content: [{ type: "text", text: envelopeText(envelope) }, ...extra],
    structuredContent: envelope,
    isError: !envelope.ok,
  };
}

/** The act fields the header or the screen line already say. */
const SAID_BY_ACT = new Set(["screen", "settled", "changed", "foreground_package"]);
/** The keys of a summary, which its lines say. */
const SUMMARY_KEYS = new Set(Object.keys(ScreenSummarySchema.shape));

/** What the tool declares it answers; `fields` for a name the contract does not declare. */
function answerOf(tool: string): ToolAnswer {
  return Object.hasOwn(TOOLS, tool) ? TOOLS[tool as keyof typeof TOOLS].answers : "fields";
}

export function envelopeText(envelope: Envelope): string {
  const previous = envelope.previous_evidence_error === undefined
    ? []
    : [`previous_evidence_error: ${envelope.previous_evidence_error.message}`];
  if (!envelope.ok) {
    const error = envelope.error!;
    const lines = [`${envelope.tool}: failed ${error.code}`, error.message, ...previous];
    if (envelope.evidence !== null) lines.push(`evidence: ${envelope.evidence.uri}`);
    return lines.join("\n") + "\n";
  }
  const data = envelope.data;
  const answer = answerOf(envelope.tool);
  const screen = answer === "summary" ? data : answer === "fields" ? undefined : data["screen"];
  const lines = [
    answer === "act"
      ? `${envelope.tool}: ok · ${data["changed"] === true ? "changed" : "unchanged"} · ${
        data["settled"] === true ? "settled" : "not settled"
      }`
      : `${envelope.tool}: ok`,
  ];
  const said = answer === "act" ? SAID_BY_ACT : answer === "screen" ? new Set(["screen"]) : answer === "summary" ? SUMMARY_KEYS : new Set();
  let raw: string | undefined;
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || said.has(key) || labelOfTarget(key, value, data)) continue;
    if (answer === "summary" && key === "raw" && typeof value === "string") raw = value;
    else lines.push(`${key}: ${JSON.stringify(value)}`);
  }
  lines.push(...previous);
  if (envelope.evidence !== null) lines.push(`evidence: ${envelope.evidence.uri}`);
  let text = lines.join("\n") + "\n";
  if (screen !== undefined) text += renderSummaryText(screen as ScreenSummary, { bounds: false });
  if (raw !== undefined) text += `raw:\n${raw}${raw.endsWith("\n") ? "" : "\n"}`;
  return text;
}

/** An `element_label` the `target` selector already says (its text or content description). */
function labelOfTarget(key: string, value: unknown, data: Record<string, unknown>): boolean {
  if (key !== "element_label") return false;
  const target = data["target"] as Record<string, unknown> | undefined;
  return target !== undefined && (target["text"] === value || target["content_desc"] === value);
}
