/**
 * Every tool's published output schema describes its answer: the SDK client (which validates
 * structuredContent against the outputSchema tools/list gave) accepts a success and a failure of every
 * served tool, and the same published schema refuses an envelope whose data is not what the tool declares.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.d.ts"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { AVAILABLE_TOOL_NAMES, type ToolName } from "../../contracts/tools.ts";
import { HarnessError } from "../../src/errors.ts";
import { createHarnessServer } from "../../src/mcp/server.ts";
import { type ActWorld, actWorld } from "../support/act_world.ts";
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
    for (const [name, args] of SUCCESSES) {
      const envelope = envelopeOf(await c.client.callTool({ name, arguments: args }));
      assert.equal(envelope.ok, true, `${name}: ${JSON.stringify(envelope.error)}`);
      assert.notDeepEqual(envelope.data, {}, name);
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
    for (const [name, args] of SHOP_SUCCESSES) {
      const envelope = envelopeOf(await c.client.callTool({ name, arguments: args }));
      assert.equal(envelope.ok, true, `${name} ${JSON.stringify(args)}: ${JSON.stringify(envelope.error)}`);
      answered.add(name);
    }
  });
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
  });
});

test("the SDK client accepts an act answered ok without its evidence (data.evidence_error) against the published schema", async () => {
  const world = actWorld();
  await withServer(world, async (c) => {
    // The disk refuses every PNG: the act happened, its evidence did not.
    world.evidence.savePng = () => Promise.reject(new HarnessError("EVIDENCE_WRITE_FAILED", "the disk is full"));
    const envelope = envelopeOf(await c.client.callTool({ name: "ui_tap", arguments: { selector: { text: "Network & internet" } } }));
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    assert.equal(envelope.evidence, null);
    assert.equal((envelope.data["evidence_error"] as { code?: string } | undefined)?.code, "EVIDENCE_WRITE_FAILED");
  });
});
