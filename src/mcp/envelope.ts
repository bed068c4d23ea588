/**
 * The one place that turns an outcome into the envelope of SPEC §3, and the envelope into an MCP tool
 * result: `structuredContent` is the envelope, the first text content is the same envelope as compact
 * JSON, `isError` is `!ok`. Any thrown value becomes `{code, message, details?}`; never a stack trace.
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Envelope, Evidence, ToolEnvelope } from "../../contracts/envelope.ts";
import { toHarnessError } from "../errors.ts";

export type ExtraContent = CallToolResult["content"];

export function successEnvelope<D>(operationId: string, tool: string, data: D, evidence: Evidence | null): ToolEnvelope<D> {
  return { ok: true, operation_id: operationId, tool, data, evidence, error: null };
}

export function failureEnvelope(operationId: string, tool: string, thrown: unknown, evidence: Evidence | null): ToolEnvelope<never> {
  return { ok: false, operation_id: operationId, tool, data: {}, evidence, error: toHarnessError(thrown).toJSON() };
}

/** The MCP result: the envelope twice (structured and as text), then any extra content (image, link). */
export function toToolResult(envelope: Envelope, extra: ExtraContent = []): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(envelope) }, ...extra],
    structuredContent: envelope,
    isError: !envelope.ok,
  };
}
