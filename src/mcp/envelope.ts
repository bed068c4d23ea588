/**
 * The one place that turns an outcome into the envelope of SPEC §3 (response.ts turns the envelope into the
 * MCP tool result). Any thrown value becomes `{code, message, details?}`; never a stack trace.
 */
import type { Evidence, ToolEnvelope } from "../../contracts/envelope.ts";
import { toHarnessError } from "../errors.ts";

export function successEnvelope<D>(operationId: string, tool: string, data: D, evidence: Evidence | null): ToolEnvelope<D> {
  return { ok: true, operation_id: operationId, tool, data, evidence, error: null };
}

export function failureEnvelope(operationId: string, tool: string, thrown: unknown, evidence: Evidence | null): ToolEnvelope<never> {
  return { ok: false, operation_id: operationId, tool, data: {}, evidence, error: toHarnessError(thrown).toJSON() };
}
