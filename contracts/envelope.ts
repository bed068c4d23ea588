/**
 * The response envelope of SPEC §3: every tool, success or failure, answers with this one object.
 * `EnvelopeSchema` validates strictly (the tests check every answer against it); `envelopeJsonSchema`
 * is the compact form published as a tool's outputSchema: the six keys, with its `data` described
 * (a failure's empty `data` validates too).
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
 * A tool's published outputSchema: the six keys required, only `data` typed (docs/contract.md describes
 * the others; EnvelopeSchema validates them), as the tool's data or, on failure, an empty object; `$defs`
 * holds the shapes the data refers to more than once.
 */
export function envelopeJsonSchema(data: Record<string, unknown>, $defs?: Record<string, unknown>): Record<string, unknown> {
  return {
    type: "object",
    required: ["ok", "operation_id", "tool", "data", "evidence", "error"],
    properties: { data: { anyOf: [data, { type: "object", maxProperties: 0 }] } },
    ...($defs === undefined ? {} : { $defs }),
  };
}

/**
 * An earlier act's evidence on the same device, captured after that act answered, could not be stored: said once,
 * in the next answer on that device (success or failure), beside the six keys (docs/contract.md "The envelope").
 */
export const PreviousEvidenceErrorSchema = z.strictObject({
  artifact_id: z.string(),
  code: z.enum(ERROR_CODE_LIST),
  message: z.string().min(1),
});

export const EnvelopeSchema = z.strictObject({
  ok: z.boolean(),
  operation_id: z.uuid(),
  tool: z.string(),
  data: z.record(z.string(), z.unknown()),
  evidence: EvidenceSchema.nullable(),
  error: EnvelopeErrorSchema.nullable(),
  previous_evidence_error: PreviousEvidenceErrorSchema.optional(),
}).refine((e) => e.ok === (e.error === null), { message: "ok is true exactly when error is null" })
  .refine((e) => e.ok || Object.keys(e.data).length === 0, { message: "a failure carries empty data" });

export type Evidence = z.infer<typeof EvidenceSchema>;
export type EnvelopeError = z.infer<typeof EnvelopeErrorSchema>;
export type PreviousEvidenceError = z.infer<typeof PreviousEvidenceErrorSchema>;
export type Envelope = z.infer<typeof EnvelopeSchema>;

/** One tool's envelope with its `data` typed by the tool's declaration: the declared data on success, empty on failure. */
export type ToolEnvelope<D> =
  | (Omit<Envelope, "ok" | "data" | "error"> & { ok: true; data: D; error: null })
  | (Omit<Envelope, "ok" | "data" | "error"> & { ok: false; data: Record<string, never>; error: EnvelopeError });
