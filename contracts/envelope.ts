/**
 * The response envelope of SPEC §3: every tool, success or failure, answers with this one object.
 * `EnvelopeSchema` validates strictly (the SDK checks every success against it, the tests every
 * answer); `ENVELOPE_JSON_SCHEMA` is the compact form published as each tool's outputSchema.
 */
import * as z from "zod";
import { ERROR_CODE_LIST } from "./error_codes.ts";

export const EvidenceSchema = z.strictObject({
  artifact_id: z.string(),
  path: z.string(),
  uri: z.string().startsWith("artifact://"),
});

export const EnvelopeErrorSchema = z.strictObject({
  code: z.enum(ERROR_CODE_LIST),
  message: z.string().min(1),
  details: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The envelope as each tool's published outputSchema: only the six keys, no property types, because
 * twelve copies go into tools/list (docs/contract.md describes the fields; EnvelopeSchema validates).
 */
export const ENVELOPE_JSON_SCHEMA = {
  type: "object",
  required: ["ok", "operation_id", "tool", "data", "evidence", "error"],
} as const;

export const EnvelopeSchema = z.strictObject({
  ok: z.boolean(),
  operation_id: z.uuid(),
  tool: z.string(),
  data: z.record(z.string(), z.unknown()),
  evidence: EvidenceSchema.nullable(),
  error: EnvelopeErrorSchema.nullable(),
}).refine((e) => e.ok === (e.error === null), { message: "ok is true exactly when error is null" })
  .refine((e) => e.ok || Object.keys(e.data).length === 0, { message: "a failure carries empty data" });

export type Evidence = z.infer<typeof EvidenceSchema>;
export type EnvelopeError = z.infer<typeof EnvelopeErrorSchema>;
export type Envelope = z.infer<typeof EnvelopeSchema>;
