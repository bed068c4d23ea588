/**
 * What `serve` says at start-up, over real stdio: an artifacts path that cannot be created fails at once
 * with one line (no endless mkdir under /proc); a device adb does not list and an adb that cannot be run
 * are warned about on stderr while the server still answers; a line on stdin that is not JSON-RPC gets one
 * stderr line and the server goes on; evidence older than the retention is pruned at start.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { LOADED_WAIT_MS } from "../support/time_bounds.ts";
import { AVAILABLE_TOOL_NAMES } from "../../contracts/tools.ts";
import { evidenceId } from "../../src/adapters/evidence/evidence_id.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { harnessCommand, spawnServe } from "../support/mcp_client.ts";
import { exitWithin, killQuietly, makeServeHome } from "../support/mcp_e2e.ts";

const ADB = process.env["ADB"] ?? "/usr/bin/adb";
const noAdb = existsSync(ADB) ? false : `the real adb client is not installed at ${ADB}`;

async function eventually(check: () => boolean, what: string, ms = LOADED_WAIT_MS): Promise<void> {
  for (const start = Date.now(); !check(); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() - start > ms) assert.fail(`${what} within ${ms} ms`);
  }
}

test("--artifacts /proc/nope fails at once with one line (no 100 % CPU mkdir loop)", {
  skip: existsSync("/proc/self") ? false : "no /proc here",
}, async () => {
  const home = makeServeHome();
  const [command, ...prefix] = harnessCommand();
  const child = spawn(command, [...prefix, "serve", "--artifacts", "/proc/nope"], { env: home.env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => void (stderr += c.toString()));
  try {
    assert.equal(await exitWithin(child, LOADED_WAIT_MS), 1, `still running or wrong exit: ${stderr}`);
    assert.match(
      stderr,
      /^serve: EVIDENCE_WRITE_FAILED: The artifacts directory "\/proc\/nope" \(from --artifacts\) cannot be created or written/m,
    );
    assert.equal(stderr.trimEnd().split("\n").filter((l) => l.startsWith("serve:")).length, 1, stderr);
  } finally {
    killQuietly(child.pid);
    home.remove();
  }
});

test("--device bogus123 starts, warns on stderr that adb does not list it, and still answers", { skip: noAdb }, async () => {
  const sim = await startSimDevice({});
  const home = makeServeHome();
  const served = await spawnServe(["--device", "bogus123"], { ...home.env, ADB, ADB_SERVER_SOCKET: sim.adbServerSocket });
  try {
    const { tools } = await served.client.listTools();
    assert.deepEqual(tools.map((t) => t.name), AVAILABLE_TOOL_NAMES);
    await eventually(
      () => /warning: EMULATOR_UNAVAILABLE: Cannot find device "bogus123"/.test(served.stderr()),
      "a start-up warning naming bogus123",
    );
    assert.match(served.stderr(), /The server is running; device tools answer with this error until it is fixed\./);
  } finally {
    await served.close();
    home.remove();
    await sim.stop();
  }
});

test("an adb that cannot be run is warned about at start; the server still answers", async () => {
  const home = makeServeHome();
  const served = await spawnServe([], { ...home.env, ADB: "/nonexistent/adb" });
  try {
    const { tools } = await served.client.listTools();
    assert.deepEqual(tools.map((t) => t.name), AVAILABLE_TOOL_NAMES);
    await eventually(() => /warning: EMULATOR_UNAVAILABLE: .*\/nonexistent\/adb/.test(served.stderr()), "a start-up warning about adb");
  } finally {
    await served.close();
    home.remove();
  }
});

test("a line on stdin that is not JSON-RPC gets one stderr line and a JSON-RPC error, and the server goes on (reliability R2)", async () => {
  const home = makeServeHome();
  const [command, ...prefix] = harnessCommand();
  const child = spawn(command, [...prefix, "serve", "--device", "sim"], { env: home.env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => void (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => void (stderr += c.toString()));
  try {
    await eventually(() => stderr.includes("serving MCP on stdio"), "serve started");
    child.stdin.write("hello there\n");
    child.stdin.write(`{"not":"json-rpc"}\n`);
    child.stdin.write(
      `${
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
        })
      }\n`,
    );
    await eventually(() => stdout.includes(`"id":1`), "the initialize answer");
    const refused = stderr.split("\n").filter((l) => l.includes("a line on stdin"));
    assert.equal(refused.length, 2, stderr);
    assert.match(
      refused[0]!,
      /^android-mcp-harness: warning: answered a line on stdin that is not JSON \(.*\) with JSON-RPC -32700; MCP clients send one JSON-RPC message per line\.$/,
    );
    assert.match(refused[1]!, /answered a line on stdin that is JSON but not a JSON-RPC message with JSON-RPC -32600;/);
    // Issue 12: a malformed line is answered (JSON-RPC 2.0: parse error / invalid request), never dropped in silence.
    const lines = stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number } });
    assert.deepEqual(lines.map((l) => l.error?.code ?? l.id), [-32700, -32600, 1], "stdout carries the two errors, then the answer");
  } finally {
    child.stdin.end();
    if ((await exitWithin(child, LOADED_WAIT_MS)) === null) killQuietly(child.pid);
    home.remove();
  }
});

test("evidence older than ANDROID_MCP_EVIDENCE_RETENTION_DAYS is pruned at start, said on stderr; reports and the audit log stay", async () => {
  const home = makeServeHome();
  mkdirSync(join(home.artifacts, "reports"), { recursive: true });
  const old = evidenceId((Date.now() - 40 * 86_400_000) * 1000, "ui_tap");
  const recent = evidenceId((Date.now() - 2 * 86_400_000) * 1000, "ui_tap");
  for (const name of [old, recent, "audit.jsonl", join("reports", "old-report.json")]) writeFileSync(join(home.artifacts, name), "x");
  const served = await spawnServe(["--device", "sim"], { ...home.env, ANDROID_MCP_EVIDENCE_RETENTION_DAYS: "30" });
  try {
    await eventually(
      () => /artifacts: removed 1 evidence file\(s\) older than 30 days \(ANDROID_MCP_EVIDENCE_RETENTION_DAYS\)/.test(served.stderr()),
      "the prune line",
    );
    assert.deepEqual(readdirSync(home.artifacts).sort(), [recent, "audit.jsonl", "reports"].sort());
    assert.deepEqual(readdirSync(join(home.artifacts, "reports")), ["old-report.json"]);
  } finally {
    await served.close();
    home.remove();
  }
});
