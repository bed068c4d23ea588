/**
 * Hostile tools/call requests against the real MCP server over the SDK's in-memory transport (fake ports):
 * tool names that are built-in object properties, arguments that are not an object, `__proto__` keys and
 * enormous unknown keys. Oracle rows: docs/oracle/reliability.md R3, R4, R5.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import * as z from "zod";
import { createHarnessServer } from "../../src/mcp/server.ts";
import { type Connected, connectInMemory, envelopeOf } from "../support/mcp_client.ts";
import { type FakeWorld, fakeWorld } from "../support/mcp_fakes.ts";

async function withServer(world: FakeWorld, body: (c: Connected) => Promise<void>): Promise<void> {
  const connected = await connectInMemory(createHarnessServer(world.deps));
  try {
    await body(connected);
  } finally {
    await connected.close();
  }
}

/** tools/call with raw params (the SDK client's callTool would refuse to send most of these). */
async function rawCall(c: Connected, params: unknown): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  try {
    return { result: await c.client.request({ method: "tools/call", params: params as { name: string } }, z.looseObject({})) };
  } catch (error) {
    const e = error as { code?: number; message: string };
    return { error: { code: e.code ?? 0, message: e.message } };
  }
}

test("tool names that are built-in object properties are 'not found', never 'disabled' (R4)", async () => {
  const world = fakeWorld();
  await withServer(world, async (c) => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "ui_tap_", "", "x".repeat(100_000)]) {
      const { error } = await rawCall(c, { name, arguments: {} });
      assert.equal(error?.code, -32602, `${name.slice(0, 20)}: ${JSON.stringify(error)}`);
      assert.match(error!.message, /Unknown tool .*this server's tools are device_status, ui_get_tree/, name.slice(0, 20));
      assert.doesNotMatch(error!.message, /disabled/);
      assert.ok(error!.message.length < 600, `bounded: ${error!.message.length} characters`);
    }
    for (const name of [42, null, { toString: "x" }, ["device_status"]]) {
      const { error } = await rawCall(c, { name, arguments: {} });
      assert.equal(error?.code, -32602, JSON.stringify(name));
      assert.match(error!.message, /tool name must be a string/);
    }
  });
  assert.deepEqual(world.observer.calls, [], "the device was not touched");
});

test("arguments that are an array, a string, a number or null are -32602 with a short message, no zod dump (R4)", async () => {
  const world = fakeWorld();
  await withServer(world, async (c) => {
    for (const args of [[], ["filter"], "filter=x", 7, null, true]) {
      const { error } = await rawCall(c, { name: "app_list", arguments: args });
      assert.equal(error?.code, -32602, JSON.stringify(args));
      assert.match(error!.message, /Arguments for app_list must be a JSON object/, JSON.stringify(args));
      assert.doesNotMatch(error!.message, /"code":|invalid_type|expected|\[\s*\{/, error!.message);
      assert.ok(error!.message.length < 300, error!.message);
    }
    // No arguments at all is the empty object.
    assert.equal(envelopeOf((await rawCall(c, { name: "app_list" })).result).ok, true);
  });
});

test("__proto__ keys are refused, at the top and inside an argument (R3)", async () => {
  const world = fakeWorld();
  await withServer(world, async (c) => {
    for (
      const json of [
        '{"__proto__": {"filter": "com"}}',
        '{"filter": "com", "__proto__": {}}',
        '{"__proto__": null}',
        '{"constructor": {"prototype": {}}}',
      ]
    ) {
      const envelope = envelopeOf((await rawCall(c, { name: "app_list", arguments: JSON.parse(json) })).result);
      assert.equal(envelope.error?.code, "INVALID_ARGUMENT", `${json}: ${JSON.stringify(envelope)}`);
      assert.match(envelope.error!.message, /Unknown argument '(__proto__|constructor)' for app_list/);
    }
    const nested = envelopeOf(
      (await rawCall(c, { name: "ui_get_tree", arguments: JSON.parse('{"include_raw": {"__proto__": true}}') })).result,
    );
    assert.equal(nested.error?.code, "INVALID_ARGUMENT");
  });
  assert.deepEqual(world.observer.calls, [], "the device was not touched");
  assert.equal(({} as Record<string, unknown>)["filter"], undefined, "no prototype was polluted");
});

test("an enormous unknown key is quoted cut to a bound, not echoed whole (R5)", async () => {
  const world = fakeWorld();
  await withServer(world, async (c) => {
    const key = "k".repeat(1_000_000);
    const result =
      (await rawCall(c, { name: "device_status", arguments: { [key]: 1, other: 2, third: 3, a4: 4, a5: 5, a6: 6, a7: 7 } })).result;
    const envelope = envelopeOf(result);
    assert.equal(envelope.error?.code, "INVALID_ARGUMENT");
    assert.match(
      envelope.error!.message,
      /^Unknown arguments 'k{20,80}…' \(1000000 characters\), 'other', 'third', 'a4', 'a5' and 2 more for device_status; it accepts device\.$/,
    );
    assert.ok(JSON.stringify(result).length < 4_000, `answer of ${JSON.stringify(result).length} characters`);
    const deep = envelopeOf((await rawCall(c, { name: "app_list", arguments: { filter: "a".repeat(500_000) } })).result);
    assert.equal(deep.error?.code, "INVALID_ARGUMENT");
    assert.ok(JSON.stringify(deep).length < 4_000);
  });
});
