/**
 * The catalog as data: every declared tool with its published JSON input schema and output schema (the
 * envelope with the tool's `data` described), and the error codes. `scripts/gen-catalog.ts` writes it to
 * contracts/catalog.json; a test fails when the committed file differs from what this function builds.
 */
import * as z from "zod";
import { envelopeJsonSchema } from "./envelope.ts";
import { ERROR_CODES } from "./error_codes.ts";
import { TOOL_CONTRACTS, type ToolAnnotations, type ToolName, TOOLS } from "./tools.ts";

export type JsonSchema = Record<string, unknown>;

/** The JSON Schema published for a tool's input: derived from the strict zod object, no `$schema` key. */
export function inputJsonSchema(name: ToolName): JsonSchema {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(TOOLS[name].input, { target: "draft-7", io: "input" });
  return schema;
}

/** The JSON Schema published for a tool's output: the envelope, its `data` as the tool declares it. */
export function outputJsonSchema(name: ToolName): JsonSchema {
  const { $schema: _ignored, ...data } = z.toJSONSchema(TOOLS[name].data, { target: "draft-7", io: "output" });
  return envelopeJsonSchema(data);
}

export interface CatalogEntry {
  name: ToolName;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  available: boolean;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
}

export interface Catalog {
  tools: CatalogEntry[];
  error_codes: Record<string, { meaning: string; retryable: boolean }>;
}

export function buildCatalog(): Catalog {
  return {
    tools: TOOL_CONTRACTS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      annotations: t.annotations,
      available: t.available,
      inputSchema: inputJsonSchema(t.name),
      outputSchema: outputJsonSchema(t.name),
    })),
    error_codes: ERROR_CODES,
  };
}

/** The exact text of contracts/catalog.json. */
export function renderCatalog(): string {
  return JSON.stringify(buildCatalog(), null, 2) + "\n";
}
