/**
 * The catalog as data: every declared tool with its published JSON input schema and output schema (the
 * envelope with the tool's `data` described), and the error codes. `scripts/gen-catalog.ts` writes it to
 * contracts/catalog.json; a test fails when the committed file differs from what this function builds.
 */
import * as z from "zod";
import { envelopeJsonSchema } from "./envelope.ts";
import { ERROR_CODES } from "./error_codes.ts";
import { SHARED_SHAPES } from "./tool_data.ts";
import { TOOL_CONTRACTS, type ToolAnnotations, type ToolName, TOOLS } from "./tools.ts";

export type JsonSchema = Record<string, unknown>;

/** The JSON Schema published for a tool's input: derived from the strict zod object, no `$schema` key. */
export function inputJsonSchema(name: ToolName): JsonSchema {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(TOOLS[name].input, { target: "draft-7", io: "input" });
  return schema;
}

/**
 * The JSON Schema published for a tool's output: the envelope, its `data` as the tool declares it, each shared
 * shape said once (SHARED_SHAPES: in full where `describedBy` names this tool, in `$defs` when it recurs, else
 * named by its keys or type), in the subset of JSON Schema that draft-07 (the TypeScript SDK's Ajv) and
 * 2020-12 (the MCP default, the Python SDK's jsonschema) read alike.
 */
export function outputJsonSchema(name: ToolName): JsonSchema {
  const registry = z.registry<{ id: string }>();
  for (const shape of SHARED_SHAPES) registry.add(shape.schema, { id: shape.id });
  const { $schema: _ignored, definitions = {}, ...data } = z.toJSONSchema(TOOLS[name].data, {
    target: "draft-7",
    io: "output",
    metadata: registry,
  }) as JsonSchema & { definitions?: Record<string, JsonSchema> };
  const uses = new Map<string, number>();
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (!isSchemaObject(node)) return node;
    const ref = node["$ref"];
    if (typeof ref === "string") {
      const id = ref.replace("#/definitions/", "");
      const shape = SHARED_SHAPES.find((s) => s.id === id);
      const full = definitions[id];
      if (shape === undefined || full === undefined) throw new Error(`${name}: unknown reference ${ref}`);
      const describedBy: ToolName | null = shape.describedBy;
      if (describedBy !== name) return briefOf(full, shape.elsewhere);
      uses.set(id, (uses.get(id) ?? 0) + 1);
      return { $ref: `#/$defs/${id}` };
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value)]));
  };
  const body = resolve(portable(data)) as JsonSchema;
  const defs = Object.fromEntries([...uses.keys()].map((id) => [id, resolve(portable(definitions[id]))]));
  const inlined = inlineSingleUses(body, defs, uses);
  const repeated = Object.fromEntries(Object.entries(defs).filter(([id]) => (uses.get(id) ?? 0) > 1));
  return envelopeJsonSchema(inlined, Object.keys(repeated).length > 0 ? repeated : undefined);
}

function isSchemaObject(node: unknown): node is JsonSchema {
  return typeof node === "object" && node !== null && !Array.isArray(node);
}

/** A shared shape where another tool describes it: a closed object with its keys and their JSON types, or its type. */
function briefOf(full: JsonSchema, elsewhere: "keys" | "type"): JsonSchema {
  if (elsewhere === "type") return { type: full["type"] };
  const properties = full["properties"] as Record<string, JsonSchema>;
  return {
    type: "object",
    properties: Object.fromEntries(
      Object.entries(properties).map(([key, p]) => [key, "const" in p ? { const: p["const"] } : { type: p["type"] }]),
    ),
    required: full["required"],
    additionalProperties: false,
  };
}

/** Definitions used once are written in place; the others stay in `$defs`, referenced. */
function inlineSingleUses(body: JsonSchema, defs: Record<string, unknown>, uses: Map<string, number>): JsonSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isSchemaObject(node)) return node;
    const ref = node["$ref"];
    if (typeof ref === "string") {
      const id = ref.replace("#/$defs/", "");
      return uses.get(id) === 1 ? visit(defs[id]) : node;
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, visit(value)]));
  };
  for (const id of Object.keys(defs)) defs[id] = visit(defs[id]);
  return visit(body) as JsonSchema;
}

const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

/**
 * zod's draft-07 output said in the subset both drafts read alike, and no longer: a tuple of one type as an
 * array of that type with its length (draft-07's `items: [...]` is no schema in 2020-12), no `type` beside
 * `const` or `enum` (implied), no safe-integer bounds (a JSON number beyond them is no JavaScript integer).
 */
function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (!isSchemaObject(node)) return node;
  const out = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, portable(value)]));
  if (out["maximum"] === SAFE_INTEGER) delete out["maximum"];
  if (out["minimum"] === -SAFE_INTEGER) delete out["minimum"];
  if ("const" in out || "enum" in out) delete out["type"];
  const items = out["items"];
  if (Array.isArray(items)) {
    const one = JSON.stringify(items[0]);
    if (!items.every((item) => JSON.stringify(item) === one)) throw new Error("a tuple of mixed types has no portable schema");
    out["items"] = items[0];
    delete out["additionalItems"];
  }
  return out;
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
