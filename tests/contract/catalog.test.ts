/**
 * The catalog promises: all sixteen SPEC tools are declared with names clients accept, the committed
 * contracts/catalog.json is what the contract generates, the server publishes exactly the available
 * tools with their declared metadata and output schemas, and what a model reads of tools/list
 * (everything but the output schemas, which are for programs) stays under 10,000 characters.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { buildCatalog, renderCatalog } from "../../contracts/catalog.ts";
import { EnvelopeSchema } from "../../contracts/envelope.ts";
import { AVAILABLE_TOOL_NAMES, TOOL_CONTRACTS, TOOL_INPUTS, TOOL_NAME_PATTERN } from "../../contracts/tools.ts";
import { createHarnessServer } from "../../src/mcp/server.ts";
import { connectInMemory } from "../support/mcp_client.ts";
import { fakeWorld } from "../support/mcp_fakes.ts";
import { REPO_ROOT } from "../support/paths.ts";

const OBSERVE_TOOLS = new Set(["device_status", "ui_get_tree", "ui_wait", "ui_screenshot", "app_list"]);

const SPEC_TOOLS = [
  "device_status",
  "ui_get_tree",
  "ui_wait",
  "ui_screenshot",
  "app_list",
  "app_launch",
  "settings_open",
  "ui_tap",
  "ui_type_text",
  "ui_scroll",
  "device_back",
  "device_press",
  "app_open_url",
  "app_clear",
  "ui_session_open",
  "ui_session_close",
];

test("all sixteen SPEC §4 tools are declared, with names every MCP client accepts", () => {
  assert.deepEqual(TOOL_CONTRACTS.map((t) => t.name), SPEC_TOOLS);
  assert.deepEqual(Object.keys(TOOL_INPUTS).sort(), [...SPEC_TOOLS].sort());
  for (const name of SPEC_TOOLS) assert.match(name, TOOL_NAME_PATTERN);
  assert.doesNotMatch("ui.get_tree", TOOL_NAME_PATTERN, "dotted names must stay refused");
  assert.deepEqual(AVAILABLE_TOOL_NAMES, SPEC_TOOLS, "this release publishes all sixteen");
});

test("every tool declares the four annotations, observe tools read-only", () => {
  for (const tool of TOOL_CONTRACTS) {
    assert.deepEqual(Object.keys(tool.annotations).sort(), ["destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint"]);
    assert.equal(tool.annotations.openWorldHint, false);
    assert.equal(tool.annotations.readOnlyHint, OBSERVE_TOOLS.has(tool.name), tool.name);
  }
});

test("contracts/catalog.json is what the contract generates (run scripts/gen-catalog after a change)", () => {
  const committed = readFileSync(join(REPO_ROOT, "contracts", "catalog.json"), "utf8");
  assert.equal(committed, renderCatalog(), "contracts/catalog.json is stale: run node <dist>/scripts/gen-catalog.js");
});

test("tool inputs refuse unknown keys", () => {
  for (const name of SPEC_TOOLS) {
    const schema = TOOL_INPUTS[name as keyof typeof TOOL_INPUTS];
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

/** What the catalog measured when last changed (update both with a change of the contract; the budget stays). */
const READ_CHARS = 9_850;
const OUTPUT_CHARS = 55_631;

test("what a model reads of tools/list for all sixteen tools is under 10,000 characters; both figures are pinned (output schemas counted apart)", async () => {
  const connected = await connectInMemory(createHarnessServer(fakeWorld().deps));
  try {
    const list = await connected.client.listTools();
    assert.equal(list.tools.length, SPEC_TOOLS.length);
    const read = JSON.stringify({ tools: list.tools.map(({ outputSchema: _programs, ...rest }) => rest) }).length;
    const output = JSON.stringify(list.tools.map((tool) => tool.outputSchema)).length;
    assert.ok(
      read < 10_000,
      `names, titles, descriptions, input schemas and annotations are ${read} characters (output schemas ${output})`,
    );
    assert.deepEqual(
      { read, output },
      { read: READ_CHARS, output: OUTPUT_CHARS },
      "the catalog changed size: update the pinned figures (and docs/contract.md)",
    );
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
