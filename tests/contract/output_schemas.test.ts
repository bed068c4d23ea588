/**
 * Every tool's published output schema describes its answer: the SDK client (which validates
 * structuredContent against the outputSchema tools/list gave) accepts a success and a failure of every
 * served tool, and the same published schema refuses an envelope whose data is not what the tool declares.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.d.ts"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { buildCatalog } from "../../contracts/catalog.ts";
import { AVAILABLE_TOOL_NAMES, type ToolName, TOOLS } from "../../contracts/tools.ts";
import { HarnessError } from "../../src/errors.ts";
import { createHarnessServer } from "../../src/mcp/server.ts";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import { type ActWorld, actWorld } from "../support/act_world.ts";
import { buildApk } from "../support/apk_builder.ts";
import { type Connected, connectInMemory, envelopeOf } from "../support/mcp_client.ts";

/** A call of every tool that succeeds on the scenario, in an order that leaves each one's screen for the next. */
const SUCCESSES: [ToolName, Record<string, unknown>][] = [
  ["device_status", {}],
  ["ui_get_tree", { include_raw: true }],
  ["ui_screenshot", { annotate: true }],
  ["app_list", { include_system: true }],
  ["app_launch", { package: "com.example.shop" }],
  ["ui_wait", { visible: { resource_id: "com.example.shop:id/email" }, timeout_ms: 1000 }],
  ["ui_type_text", { selector: { resource_id: "com.example.shop:id/email" }, text: "zoë@example.com" }],
  ["ui_tap", { selector: { text: "Remember me" } }],
  ["device_back", {}],
  ["ui_scroll", { direction: "down" }],
  ["settings_open", {}],
  ["ui_session_open", { package: "com.example.shop" }],
];

/** Issue 16's hands on the 'shop' scenario, each with the optional data it adds (at_end, gesture, swipes, found, stopped). */
const SHOP_SUCCESSES: [ToolName, Record<string, unknown>][] = [
  ["ui_scroll", { direction: "right", container: { resource_id: "com.example.shop:id/chips" } }],
  ["ui_tap", { selector: { text: "Rain jacket" }, gesture: "long_press" }],
  ["device_back", {}],
  ["ui_scroll", { direction: "down", until: { text: "Daypack" } }],
  ["app_open_url", { url: "shop://product/42" }],
  ["device_press", { key: "home" }],
  ["app_launch", { package: "com.example.shop", restart: true }],
  ["app_clear", { package: "com.example.shop" }],
];

type Validate = (envelope: Record<string, unknown>) => { valid: boolean; errorMessage?: string | undefined };

/** The published output schema of a tool as the SDK client compiles it. */
async function publishedValidators(c: Connected): Promise<(name: string) => Validate> {
  const { tools } = await c.client.listTools();
  const validator = new AjvJsonSchemaValidator();
  return (name) => validator.getValidator(tools.find((t) => t.name === name)!.outputSchema!);
}

/**
 * What tools/list names briefly, checked in full against ui_get_tree's schema (which says the summary, its action
 * entry and the selector once): an act's or ui_wait's screen, ui_screenshot's actions, a target or found selector.
 */
function assertSharedShapesInFull(validate: (name: string) => Validate, envelope: Record<string, unknown>, label: string): void {
  const data = envelope["data"] as Record<string, unknown>;
  const asSummary = (summary: Record<string, unknown>, what: string) => {
    const checked = validate("ui_get_tree")({ ...envelope, tool: "ui_get_tree", data: summary });
    assert.equal(checked.valid, true, `${label}: ${what} against ui_get_tree's schema: ${checked.errorMessage}`);
  };
  if (data["screen"] !== undefined && "actions" in (data["screen"] as object)) {
    asSummary(data["screen"] as Record<string, unknown>, "screen");
  }
  if (Array.isArray(data["actions"])) asSummary({ foreground_package: "p", texts: [], actions: data["actions"] }, "actions");
  for (const key of ["target", "found"]) {
    const selector = data[key];
    if (selector !== undefined) asSummary({ foreground_package: "p", texts: [], actions: [{ selector, bounds: [0, 0, 1, 1] }] }, key);
  }
}

async function withServer(world: ActWorld, body: (c: Connected) => Promise<void>): Promise<void> {
  const connected = await connectInMemory(createHarnessServer(world.deps));
  try {
    await connected.client.listTools(); // the client keeps each tool's output schema from here on
    await body(connected);
  } finally {
    await connected.close();
    await world.layer.closeAll("test over");
  }
}

test("the SDK client accepts a success and a failure of every tool against its published output schema", async () => {
  const world = actWorld({ scenario: "login" });
  const answered = new Set<string>();
  await withServer(world, async (c) => {
    const validate = await publishedValidators(c);
    for (const [name, args] of SUCCESSES) {
      const envelope = envelopeOf(await c.client.callTool({ name, arguments: args }));
      assert.equal(envelope.ok, true, `${name}: ${JSON.stringify(envelope.error)}`);
      assert.notDeepEqual(envelope.data, {}, name);
      assertSharedShapesInFull(validate, envelope, name);
      answered.add(name);
      if (name === "ui_session_open") {
        const closed = envelopeOf(
          await c.client.callTool({ name: "ui_session_close", arguments: { session_id: envelope.data["session_id"] } }),
        );
        assert.equal(closed.ok, true, JSON.stringify(closed.error));
        answered.add("ui_session_close");
      }
    }
    for (const name of AVAILABLE_TOOL_NAMES) {
      const envelope = envelopeOf(await c.client.callTool({ name, arguments: { unexpected: 1 } }));
      assert.equal(envelope.ok, false, name);
      assert.match(envelope.error?.code ?? "", /^INVALID_/, name);
      assert.deepEqual(envelope.data, {});
    }
  });
  const shop = actWorld({ scenario: "shop" });
  await withServer(shop, async (c) => {
    const validate = await publishedValidators(c);
    for (const [name, args] of SHOP_SUCCESSES) {
      const envelope = envelopeOf(await c.client.callTool({ name, arguments: args }));
      assert.equal(envelope.ok, true, `${name} ${JSON.stringify(args)}: ${JSON.stringify(envelope.error)}`);
      assertSharedShapesInFull(validate, envelope, name);
      answered.add(name);
    }
  });
  // app_install reads a real file (an APK built here): a world on the system clock, as in app_install.test.ts.
  const dir = mkdtempSync(join(tmpdir(), "output-schemas-"));
  try {
    const path = join(dir, "hello.apk");
    writeFileSync(path, buildApk({ package: "com.example.hello", versionCode: 3, versionName: "0.3" }));
    await withServer(actWorld({ scenario: "login", clock: createSystemClock() }), async (c) => {
      const validate = await publishedValidators(c);
      for (const [name, args] of [["app_install", { path }], ["app_uninstall", { package: "com.example.hello" }]] as const) {
        const envelope = envelopeOf(await c.client.callTool({ name, arguments: args }));
        assert.equal(envelope.ok, true, `${name}: ${JSON.stringify(envelope.error)}`);
        assertSharedShapesInFull(validate, envelope, name);
        answered.add(name);
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const name of AVAILABLE_TOOL_NAMES.filter((n) => !answered.has(n))) {
    // A tool the sequences above leave out: its declared example (or no arguments) on a fresh device.
    await withServer(actWorld({ scenario: "login" }), async (c) => {
      const envelope = envelopeOf(await c.client.callTool({ name, arguments: TOOLS[name].example ?? {} }));
      assert.equal(envelope.ok, true, `${name}: ${JSON.stringify(envelope.error)}`);
      assertSharedShapesInFull(await publishedValidators(c), envelope, name);
      answered.add(name);
    });
  }
  assert.deepEqual([...answered].sort(), [...AVAILABLE_TOOL_NAMES].sort(), "every served tool answered a success");
});

test("a published output schema refuses data the tool does not declare (the check can fail)", async () => {
  const world = actWorld();
  await withServer(world, async (c) => {
    const { tools } = await c.client.listTools();
    const schemaOf = (name: string) => tools.find((t) => t.name === name)!.outputSchema!;
    const validate = (name: string) => new AjvJsonSchemaValidator().getValidator(schemaOf(name));
    const tap = envelopeOf(await c.client.callTool({ name: "ui_tap", arguments: { selector: { text: "Network & internet" } } }));
    assert.equal(validate("ui_tap")(tap).valid, true);
    const { screen: _dropped, ...withoutScreen } = tap.data;
    assert.equal(validate("ui_tap")({ ...tap, data: withoutScreen }).valid, false, "an act's data without its screen");
    assert.equal(validate("ui_tap")({ ...tap, data: { ...tap.data, x: 10 } }).valid, false, "a key the tool does not declare");
    assert.equal(validate("device_status")(tap).valid, false, "one tool's data under another's schema");
    const { data: _none, ...withoutData } = tap;
    assert.equal(validate("ui_tap")(withoutData).valid, false, "an envelope without data");
    const screen = { ...(tap.data["screen"] as object), x: 1 };
    assert.equal(validate("ui_tap")({ ...tap, data: { ...tap.data, screen } }).valid, false, "a key the screen summary lacks");
    const treeOf = (summary: unknown) => ({ ...tap, tool: "ui_get_tree", data: summary });
    const tapped = tap.data["screen"] as { actions: Record<string, unknown>[] };
    const action = { ...tapped.actions[0], x: 1 };
    assert.equal(validate("ui_get_tree")(treeOf(tapped)).valid, true, "the act's screen is ui_get_tree's summary");
    assert.equal(validate("ui_get_tree")(treeOf({ ...tapped, actions: [action] })).valid, false, "a key an action entry lacks");
  });
});

test("the SDK client accepts an act answered ok without its evidence (data.evidence_error) against the published schema", async () => {
  const world = actWorld();
  await withServer(world, async (c) => {
    // The disk refuses every PNG, even the act's reserved name: the act happened, its evidence did not.
    world.evidence.reservePng = () => Promise.reject(new HarnessError("EVIDENCE_WRITE_FAILED", "the disk is full"));
    const envelope = envelopeOf(await c.client.callTool({ name: "ui_tap", arguments: { selector: { text: "Network & internet" } } }));
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    assert.equal(envelope.evidence, null);
    assert.equal((envelope.data["evidence_error"] as { code?: string } | undefined)?.code, "EVIDENCE_WRITE_FAILED");
  });
});

test("every published schema is a schema in both dialects clients read: draft-07 (the TypeScript SDK's Ajv) and 2020-12 (the MCP default, the Python SDK's jsonschema)", () => {
  for (const ajv of [new Ajv({ strict: false }), new Ajv2020({ strict: false })]) {
    for (const tool of buildCatalog().tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        assert.equal(ajv.validateSchema(schema), true, `${tool.name}: ${ajv.errorsText(ajv.errors)}`);
        ajv.compile(schema);
      }
    }
  }
});
