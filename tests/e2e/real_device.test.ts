/**
 * The observe campaign against a REAL emulator or device, gated by ANDROID_MCP_RUN_EMULATOR=1 (no
 * emulator can run on our CI machines: no KVM). It spawns `serve` without `--device sim`, so the harness
 * picks ANDROID_UDID or the only online device through the real adb server, and checks the same
 * promises as the simulated campaign. Skipped with that reason otherwise, never faked as passing.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { AVAILABLE_TOOL_NAMES } from "../../contracts/tools.ts";
import { validateSelector } from "../../src/screen/mod.ts";
import { envelopeOf, spawnServe, type SpawnedServer } from "../support/mcp_client.ts";
import { makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";

const skip = process.env["ANDROID_MCP_RUN_EMULATOR"] === "1"
  ? false
  : "needs a real emulator or device: set ANDROID_MCP_RUN_EMULATOR=1 (and ANDROID_UDID when several are online)";

let home: ServeHome | undefined;
let served: SpawnedServer | undefined;

before(async () => {
  if (skip) return;
  home = makeServeHome();
  const passThrough: Record<string, string> = {};
  for (const name of ["ANDROID_UDID", "ANDROID_HOME", "ADB", "ADB_SERVER_SOCKET"]) {
    const value = process.env[name];
    if (value !== undefined) passThrough[name] = value;
  }
  served = await spawnServe([], { ...home.env, ...passThrough });
});

after(async () => {
  await served?.close();
  home?.remove();
});

async function call(name: string, args: Record<string, unknown> = {}) {
  return envelopeOf(await served!.client.callTool({ name, arguments: args }));
}

test("real device: the server publishes exactly the contract's available tools", { skip }, async () => {
  const { tools } = await served!.client.listTools();
  assert.deepEqual(tools.map((t) => t.name), AVAILABLE_TOOL_NAMES);
});

test("real device: device_status is online, not simulated, with a real screen", { skip }, async () => {
  const status = await call("device_status");
  assert.equal(status.ok, true, JSON.stringify(status.error));
  assert.equal(status.data["online"], true);
  assert.notEqual(status.data["simulated"], true);
  const screen = status.data["screen"] as { width: number; height: number; density: number };
  assert.ok(screen.width > 0 && screen.height > 0 && screen.density > 0, JSON.stringify(screen));
});

test("real device: observing does not change the foreground app", { skip }, async () => {
  const before = await call("device_status");
  for (const tool of ["ui_get_tree", "ui_screenshot", "app_list", "ui_get_tree"]) {
    const envelope = await call(tool);
    assert.equal(envelope.ok, true, `${tool}: ${JSON.stringify(envelope.error)}`);
  }
  const afterwards = await call("device_status");
  assert.equal(afterwards.data["foreground_package"], before.data["foreground_package"]);
});

test("real device: two screenshots in a row are two distinct, non-blank evidence files", { skip }, async () => {
  const first = await call("ui_screenshot");
  const second = await call("ui_screenshot");
  assert.equal(first.ok && second.ok, true, JSON.stringify([first.error, second.error]));
  assert.notEqual(first.evidence!.path, second.evidence!.path);
  for (const shot of [first, second]) {
    assert.ok(existsSync(shot.evidence!.path));
    assert.ok(readFileSync(shot.evidence!.path).subarray(1, 4).toString() === "PNG");
  }
});

test("real device: every offered selector is well-formed and the raw dump is the screen of now", { skip }, async () => {
  const tree = await call("ui_get_tree", { include_raw: true });
  assert.equal(tree.ok, true, JSON.stringify(tree.error));
  assert.match(String(tree.data["raw"]), /<hierarchy/);
  for (const action of tree.data["actions"] as { selector: Record<string, unknown> }[]) {
    assert.deepEqual(validateSelector(action.selector), action.selector, "every offered selector passes the contract's own validation");
  }
});
