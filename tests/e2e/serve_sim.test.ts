/**
 * End to end over real stdio: the SDK client spawns the compiled `main.js serve --device sim` (the
 * simulated device in process, the real adb client underneath) and gets the declared catalog and real
 * results from all four observe tools; the process exits cleanly on stdin EOF and on SIGTERM.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { LOADED_WAIT_MS } from "../support/time_bounds.ts";
import { AVAILABLE_TOOL_NAMES } from "../../contracts/tools.ts";
import { envelopeOf, harnessCommand, type SpawnedServer, spawnServe } from "../support/mcp_client.ts";
import { exitWithin, killQuietly, makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";

let home: ServeHome;

function spawnHarness(args: string[], options: Parameters<typeof spawn>[2]) {
  const [command, ...prefix] = harnessCommand();
  return spawn(command, [...prefix, ...args], options);
}
let served: SpawnedServer;

before(async () => {
  home = makeServeHome();
  served = await spawnServe(["--device", "sim"], home.env);
});

after(async () => {
  await served?.close();
  home?.remove();
});

test("the server publishes exactly the contract's available tools", async () => {
  const { tools } = await served.client.listTools();
  assert.deepEqual(tools.map((t) => t.name), AVAILABLE_TOOL_NAMES);
});

test("stderr names the artifacts directory and says the device is simulated; stdout is protocol only", () => {
  assert.match(served.stderr(), new RegExp(`artifacts: ${home.artifacts.replaceAll("/", "\\/")}`));
  assert.match(served.stderr(), /SIMULATED/);
});

test("device_status reports the simulated device", async () => {
  const envelope = envelopeOf(await served.client.callTool({ name: "device_status", arguments: {} }));
  assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
  assert.equal(envelope.data["online"], true);
  assert.equal(envelope.data["simulated"], true);
  const screen = envelope.data["screen"] as { width: number; height: number; density: number };
  assert.ok(screen.width > 0 && screen.height > 0 && screen.density > 0);
  assert.equal(typeof envelope.data["foreground_package"], "string");
  assert.notEqual(envelope.data["foreground_package"], "");
});

test("ui_get_tree returns a summary with actions, and raw XML only when asked", async () => {
  const plain = envelopeOf(await served.client.callTool({ name: "ui_get_tree", arguments: {} }));
  assert.equal(plain.ok, true, JSON.stringify(plain.error));
  assert.ok((plain.data["actions"] as unknown[]).length > 0);
  assert.equal("raw" in plain.data, false);
  const raw = envelopeOf(await served.client.callTool({ name: "ui_get_tree", arguments: { include_raw: true } }));
  assert.match(String(raw.data["raw"]), /^<\?xml|<hierarchy/);
});

test("ui_screenshot writes a PNG file, returns an image and a link that reads back the same bytes", async () => {
  const result = await served.client.callTool({ name: "ui_screenshot", arguments: {} });
  const envelope = envelopeOf(result);
  assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
  const evidence = envelope.evidence!;
  assert.ok(evidence.path.startsWith(home.artifacts + "/"), evidence.path);
  assert.ok(existsSync(evidence.path));
  const file = readFileSync(evidence.path);
  assert.equal(file.subarray(1, 4).toString("latin1"), "PNG");
  const content = result.content as { type: string; uri?: string; data?: string }[];
  assert.deepEqual(content.map((c) => c.type), ["text", "image", "resource_link"]);
  assert.equal(content[2]!.uri, evidence.uri);
  const read = await served.client.readResource({ uri: evidence.uri });
  const blob = (read.contents[0] as { blob: string }).blob;
  assert.deepEqual(Buffer.from(blob, "base64"), file);
  const listed = await served.client.listResources();
  assert.ok(listed.resources.some((r) => r.uri === evidence.uri));
});

test("app_list returns installed packages", async () => {
  const envelope = envelopeOf(await served.client.callTool({ name: "app_list", arguments: { include_system: true } }));
  assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
  assert.ok((envelope.data["packages"] as string[]).length > 0);
});

test("every call so far left one audit line with its operation id", () => {
  const lines = readFileSync(`${home.artifacts}/audit.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.tool, l.outcome]), [
    ["device_status", "ok"],
    ["ui_get_tree", "ok"],
    ["ui_get_tree", "ok"],
    ["ui_screenshot", "ok"],
    ["app_list", "ok"],
  ]);
  for (const line of lines) assert.match(line.operation_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.match(lines[3].evidence_id, /^\d{8}-\d{6}-\d{6}-ui-screenshot(-\d+)?\.png$/);
  assert.equal(new Set(lines.map((l) => l.operation_id)).size, lines.length);
});

for (
  const [how, stop] of [
    ["stdin EOF", (child: ReturnType<typeof spawn>) => child.stdin!.end()],
    ["SIGTERM", (child: ReturnType<typeof spawn>) => child.kill("SIGTERM")],
  ] as const
) {
  test(`serve exits 0 on ${how}`, async () => {
    const own = makeServeHome();
    const child = spawnHarness(["serve", "--device", "sim"], { env: own.env, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => void (stderr += c.toString()));
    let stdout = "";
    child.stdout!.on("data", (c: Buffer) => void (stdout += c.toString()));
    try {
      const deadline = Date.now() + LOADED_WAIT_MS;
      while (!/serving MCP/.test(stderr) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
      assert.match(stderr, /serving MCP/);
      stop(child);
      assert.equal(await exitWithin(child, LOADED_WAIT_MS), 0, stderr);
      assert.equal(stdout, "", "nothing but protocol on stdout");
    } finally {
      killQuietly(child.pid);
      own.remove();
    }
  });
}

test("stdout carries only JSON-RPC messages, one per line, during real work", async () => {
  const own = makeServeHome();
  const child = spawnHarness(["serve", "--device", "sim"], { env: own.env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  child.stdout!.on("data", (c: Buffer) => void (stdout += c.toString()));
  child.stderr!.resume();
  try {
    const send = (message: object) => child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
    send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    send({ method: "notifications/initialized" });
    for (const [id, name] of [[2, "device_status"], [3, "ui_get_tree"], [4, "ui_screenshot"], [5, "app_list"]] as const) {
      send({ id, method: "tools/call", params: { name, arguments: {} } });
    }
    const deadline = Date.now() + LOADED_WAIT_MS;
    while (stdout.split("\n").filter(Boolean).length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    child.stdin!.end();
    assert.equal(await exitWithin(child, LOADED_WAIT_MS), 0);
    const lines = stdout.split("\n").filter((l) => l !== "");
    assert.equal(lines.length, 5, stdout.slice(0, 500));
    type Reply = { jsonrpc: string; id: number; result?: { structuredContent?: { ok: boolean; error: { code: string } | null } } };
    const messages = lines.map((l) => JSON.parse(l) as Reply).sort((a, b) => a.id - b.id);
    assert.deepEqual(messages.map((m) => [m.jsonrpc, m.id]), [["2.0", 1], ["2.0", 2], ["2.0", 3], ["2.0", 4], ["2.0", 5]]);
    // The four calls were sent without waiting, so they overlap: each is done or refused at once, never queued.
    for (const m of messages.slice(1)) {
      const envelope = m.result!.structuredContent!;
      assert.ok(envelope.ok || envelope.error?.code === "EMULATOR_BUSY", JSON.stringify(envelope));
    }
    assert.ok(messages.slice(1).some((m) => m.result!.structuredContent!.ok));
  } finally {
    killQuietly(child.pid);
    own.remove();
  }
});
