/**
 * The catalog promises: every declared tool is in docs/contract.md's table, with a name clients accept, the committed
 * contracts/catalog.json is what the contract generates, the server publishes exactly the available
 * tools with their declared metadata and output schemas, tools/list stays under 30,000 characters (each shared
 * shape said once) and what a model reads of it (everything but the output schemas) under 12,000 (issue 26).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { buildCatalog, type JsonSchema, renderCatalog } from "../../contracts/catalog.ts";
import { EnvelopeSchema } from "../../contracts/envelope.ts";
import { SHARED_SHAPES } from "../../contracts/tool_data.ts";
import { TOOL_CONTRACTS, TOOL_INPUTS, TOOL_NAME_PATTERN, TOOLS } from "../../contracts/tools.ts";
import { createHarnessServer } from "../../src/mcp/server.ts";
import { connectInMemory } from "../support/mcp_client.ts";
import { fakeWorld } from "../support/mcp_fakes.ts";
import { REPO_ROOT } from "../support/paths.ts";

/** The rows of the table under `heading` in docs/contract.md, each as its cells (the header and rule rows left out). */
function docsTable(heading: string): string[][] {
  const text = readFileSync(join(REPO_ROOT, "docs", "contract.md"), "utf8");
  const section = text.split(/^## /m).find((s) => s.startsWith(heading));
  assert.ok(section !== undefined, `docs/contract.md has the section ${heading}`);
  const rows = section.split("\n").filter((line) => line.startsWith("| `"));
  return rows.map((row) => row.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim()));
}

test("docs/contract.md's tool table lists every declared tool, in publication order, with its availability", () => {
  const rows = docsTable("Tools\n");
  assert.deepEqual(rows.map(([name]) => name), TOOL_CONTRACTS.map((t) => `\`${t.name}\``));
  for (const [i, tool] of TOOL_CONTRACTS.entries()) {
    const destructive = TOOLS[tool.name].access === "destructive" ? " (destructive)" : "";
    assert.equal(rows[i]![1], `${tool.available ? "yes" : "no"}${destructive}`, tool.name);
  }
});

test("every declared tool has a name every MCP client accepts, an input schema, and a handler name", () => {
  assert.deepEqual(Object.keys(TOOL_INPUTS), TOOL_CONTRACTS.map((t) => t.name));
  for (const tool of TOOL_CONTRACTS) assert.match(tool.name, TOOL_NAME_PATTERN);
  assert.doesNotMatch("ui.get_tree", TOOL_NAME_PATTERN, "dotted names must stay refused");
});

test("every tool declares the four annotations, following its access kind: observe tools read-only, destructive ones destructive", () => {
  for (const tool of TOOL_CONTRACTS) {
    assert.deepEqual(Object.keys(tool.annotations).sort(), ["destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint"]);
    assert.equal(tool.annotations.openWorldHint, false);
    assert.equal(tool.annotations.readOnlyHint, TOOLS[tool.name].access === "observe", tool.name);
    assert.equal(tool.annotations.destructiveHint, TOOLS[tool.name].access === "destructive", tool.name);
  }
});

test("a tool answers an act's outcome exactly when its device access is act (the text a model reads follows what it answers)", () => {
  for (const { name } of TOOL_CONTRACTS) assert.equal(TOOLS[name].answers === "act", TOOLS[name].device === "act", name);
});

test("contracts/catalog.json is what the contract generates (run scripts/gen-catalog after a change)", () => {
  const committed = readFileSync(join(REPO_ROOT, "contracts", "catalog.json"), "utf8");
  assert.equal(committed, renderCatalog(), "contracts/catalog.json is stale: run node <dist>/scripts/gen-catalog.js");
});

test("tool inputs refuse unknown keys", () => {
  for (const { name } of TOOL_CONTRACTS) {
    const schema = TOOL_INPUTS[name];
    assert.equal(schema.safeParse({ unexpected: 1 }).success, false, name);
    assert.equal(buildCatalog().tools.find((t) => t.name === name)?.inputSchema["additionalProperties"], false, name);
  }
});

test("the server publishes exactly the available catalog entries, each with the envelope and its data as output schema", async () => {
  const connected = await connectInMemory(createHarnessServer(fakeWorld().deps));
  try {
    const { tools } = await connected.client.listTools();
    const catalog = buildCatalog().tools.filter((t) => t.available);
    assert.deepEqual(tools.map((t) => t.name), catalog.map((t) => t.name));
    for (const [i, tool] of tools.entries()) {
      const declared = catalog[i]!;
      assert.equal(tool.title, declared.title);
      assert.equal(tool.description, declared.description);
      assert.deepEqual(tool.annotations, declared.annotations);
      assert.deepEqual(tool.inputSchema, declared.inputSchema);
      assert.deepEqual(tool.outputSchema, declared.outputSchema);
      assert.ok(tool.outputSchema?.properties?.["data"] !== undefined, `${tool.name} describes its data`);
    }
  } finally {
    await connected.close();
  }
});

test("the tool list is fixed by the contract, so the server does not announce list changes it never sends", async () => {
  const connected = await connectInMemory(createHarnessServer(fakeWorld().deps));
  try {
    assert.deepEqual(connected.client.getServerCapabilities()?.tools, { listChanged: false });
  } finally {
    await connected.close();
  }
});

test("a tool the contract does not declare cannot be called: an unknown tool is JSON-RPC -32602, as MCP prescribes", async () => {
  const connected = await connectInMemory(createHarnessServer(fakeWorld().deps));
  try {
    await assert.rejects(
      connected.client.callTool({ name: "ui_swipe", arguments: { x: 10, y: 20 } }),
      (error: Error & { code?: number }) =>
        error.code === -32602 && /^MCP error -32602: Unknown tool 'ui_swipe': this server's tools are /.test(error.message),
    );
  } finally {
    await connected.close();
  }
});

const figure = (cell: string) => Number(cell.replaceAll(",", ""));

test("tools/list in full is under 30,000 characters and what a model reads of it under 12,000; docs/contract.md states each tool's share", async () => {
  const connected = await connectInMemory(createHarnessServer(fakeWorld().deps));
  try {
    const list = await connected.client.listTools();
    assert.equal(list.tools.length, TOOL_CONTRACTS.filter((t) => t.available).length);
    const full = JSON.stringify({ tools: list.tools }).length;
    const read = JSON.stringify({ tools: list.tools.map(({ outputSchema: _programs, ...rest }) => rest) }).length;
    const output = JSON.stringify(list.tools.map((tool) => tool.outputSchema)).length;
    assert.ok(full < 30_000, `tools/list is ${full} characters in full (output schemas ${output})`);
    assert.ok(read < 12_000, `names, titles, descriptions, input schemas and annotations are ${read} characters`);
    // The size section's table pins each tool's share, so a change of the catalog's size is a decision stated there.
    const shares = list.tools.map((
      { outputSchema, ...rest },
    ) => [`\`${rest.name}\``, JSON.stringify(rest).length, JSON.stringify(outputSchema).length]);
    const stated = docsTable("Size\n").map(([name, reads, schema]) => [name, figure(reads!), figure(schema!)]);
    assert.deepEqual(stated, shares, "the catalog changed size: update docs/contract.md's Size section (its table and figures)");
    const size = readFileSync(join(REPO_ROOT, "docs", "contract.md"), "utf8").split(/^## Size\n/m)[1]!;
    for (const total of [full, read, output]) assert.ok(size.includes(total.toLocaleString("en-US")), `docs/contract.md states ${total}`);
  } finally {
    await connected.close();
  }
});

test("each shared shape is said in full once in tools/list, by the tool that describes it; the others name it", async () => {
  const connected = await connectInMemory(createHarnessServer(fakeWorld().deps));
  try {
    const { tools } = await connected.client.listTools();
    const listed = JSON.stringify(tools);
    const dataOf = (name: string) => {
      const schema = tools.find((t) => t.name === name)!.outputSchema as JsonSchema;
      const data = ((schema["properties"] as JsonSchema)["data"] as { anyOf: JsonSchema[] }).anyOf[0]!;
      return { schema, properties: data["properties"] as Record<string, JsonSchema> };
    };
    const tree = dataOf("ui_get_tree");
    const selector = (tree.schema["$defs"] as Record<string, unknown>)["selector"];
    for (const [shape, full] of [["action entry", tree.properties["actions"]!["items"]], ["selector", selector]] as const) {
      assert.equal(listed.split(JSON.stringify(full)).length - 1, 1, `the ${shape} is described in full once`);
    }
    assert.deepEqual(new Set(SHARED_SHAPES.map((s) => s.describedBy)), new Set(["ui_get_tree", null]));
    const summaryKeys = Object.keys(tree.properties).filter((key) => key !== "raw");
    const summaryIn = (name: string) => (dataOf(name).properties["screen"]?.["properties"] as JsonSchema | undefined)?.["actions"];
    const withScreen = tools.map((t) => t.name).filter((name) => summaryIn(name) !== undefined);
    assert.equal(withScreen.length, 12, "ui_wait and the eleven act tools answer a screen");
    for (const name of withScreen) {
      const screen = dataOf(name).properties["screen"]!;
      assert.deepEqual(Object.keys(screen["properties"] as JsonSchema), summaryKeys, `${name} names the summary's keys`);
      assert.equal(screen["additionalProperties"], false, `${name}'s screen stays closed`);
    }
  } finally {
    await connected.close();
  }
});

test("the envelope schema: ok exactly when error is null, failures carry empty data", () => {
  const base = { operation_id: "00000000-0000-4000-8000-000000000001", tool: "device_status", evidence: null };
  assert.equal(EnvelopeSchema.safeParse({ ...base, ok: true, data: { a: 1 }, error: null }).success, true);
  assert.equal(EnvelopeSchema.safeParse({ ...base, ok: false, data: {}, error: { code: "EMULATOR_BUSY", message: "m" } }).success, true);
  assert.equal(EnvelopeSchema.safeParse({ ...base, ok: true, data: {}, error: { code: "EMULATOR_BUSY", message: "m" } }).success, false);
  assert.equal(
    EnvelopeSchema.safeParse({ ...base, ok: false, data: { a: 1 }, error: { code: "EMULATOR_BUSY", message: "m" } }).success,
    false,
  );
  assert.equal(EnvelopeSchema.safeParse({ ...base, ok: false, data: {}, error: { code: "NOT_A_CODE", message: "m" } }).success, false);
  assert.equal(EnvelopeSchema.safeParse({ ...base, ok: true, data: {}, error: null, stack: "x" }).success, false);
});

test("the server refuses to start when the tools it serves differ from the contract's available list", async () => {
  const { SERVED_TOOLS } = await import("../../src/tools/mod.ts");
  assert.throws(() => createHarnessServer(fakeWorld().deps, SERVED_TOOLS.slice(1)), (error: Error & { code?: string }) => {
    assert.equal(error.code, "INTERNAL_ERROR");
    assert.match(error.message, /Change the contract first/);
    return true;
  });
});
