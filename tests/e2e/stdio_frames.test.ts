/**
 * The stdio transport under hostile frames, end to end (compiled `serve` on real stdio, simulated device):
 * an oversized line is refused with a JSON-RPC error carrying the request's id and the server keeps
 * serving; malformed JSON and non-JSON-RPC lines get -32700 / -32600; stdout carries nothing else.
 * Oracle rows: docs/oracle/reliability.md R1, R2.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { after, before, test } from "node:test";
import { startSimDevice } from "../../src/sim/mod.ts";
import { makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";
import { type RawServer, spawnRawServe } from "../support/raw_stdio.ts";

let sim: Awaited<ReturnType<typeof startSimDevice>>;
let home: ServeHome;
let server: RawServer;

before(async () => {
  sim = await startSimDevice({});
  home = makeServeHome();
  server = await spawnRawServe([], { ...home.env, ADB_SERVER_SOCKET: sim.adbServerSocket, ANDROID_UDID: sim.device.serial });
});

after(async () => {
  await server?.close();
  await sim?.stop();
  home?.remove();
});

test("a frame over the size limit (an 11 MiB argument) is refused with its id, and the server keeps serving (R1)", async () => {
  for (const [id, size] of [[101, 11 * 1024 * 1024], [102, 2 * 1024 * 1024]] as const) {
    const huge = JSON.stringify({
      method: "tools/call",
      params: { name: "app_list", arguments: { filter: "a".repeat(size) } },
      jsonrpc: "2.0",
      id,
    });
    // Written in pieces, as a pipe delivers it.
    for (let at = 0; at < huge.length; at += 1024 * 1024) await server.write(huge.slice(at, at + 1024 * 1024));
    await server.write("\n");
    const refused = await server.answer((a) => a.id === id, 20_000);
    assert.equal(refused.error?.code, -32600, JSON.stringify(refused).slice(0, 300));
    assert.match(refused.error!.message, /over the \d+ MiB limit/);
    assert.ok(JSON.stringify(refused).length < 1000, "the refusal does not echo the frame");
  }
  // The id sent first (as some clients do) is found too.
  await server.write(
    `{"jsonrpc":"2.0","id":"head-id","method":"tools/call","params":{"name":"app_list","arguments":{"filter":"${
      "b".repeat(3 * 1024 * 1024)
    }"}}}\n`,
  );
  assert.equal((await server.answer((a) => a.id === "head-id", 20_000)).error?.code, -32600);
  const list = await server.request(103, "tools/list");
  assert.ok(Array.isArray(list.result?.["tools"]), "tools/list still answers");
  const call = await server.request(104, "tools/call", { name: "app_list", arguments: {} });
  assert.equal((call.result?.["structuredContent"] as { ok: boolean }).ok, true, JSON.stringify(call).slice(0, 300));
  assert.equal(server.exited(), false);
});

test("malformed frames: not JSON is -32700, JSON that is not JSON-RPC is -32600 (with its id when it has one); serving goes on (R2)", async () => {
  await server.write("this is not json\n");
  await server.write('{"jsonrpc":"2.0","id":7,"method":\n');
  const parseErrors = () => server.answers.filter((a) => a.error?.code === -32700).length;
  const before = parseErrors();
  await server.write("{]\n");
  await server.answer(() => parseErrors() > before);
  await server.write('{"jsonrpc":"1.0","id":8,"method":"tools/list"}\n');
  const wrongVersion = await server.answer((a) => a.id === 8);
  assert.equal(wrongVersion.error?.code, -32600);
  await server.write('[{"jsonrpc":"2.0","id":9,"method":"tools/list"}]\n');
  await server.write('{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}\n');
  await server.write('"just a string"\n\n   \r\n');
  await server.write(Buffer.from([0xff, 0xfe, 0x00, 0x0a]));
  const deep = `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"app_list","arguments":{"filter":${"[".repeat(200_000)}${
    "]".repeat(200_000)
  }}}}\n`;
  await server.write(deep);
  const deepAnswer = await server.answer((a) => a.id === 10, 20_000);
  assert.equal((deepAnswer.result?.["structuredContent"] as { error: { code: string } }).error.code, "INVALID_ARGUMENT");
  const list = await server.request(11, "tools/list");
  assert.ok(Array.isArray(list.result?.["tools"]));
  for (const a of server.answers) assert.equal(a.jsonrpc, "2.0");
  assert.deepEqual(server.strayLines, [], "stdout carries only JSON-RPC lines");
});

/** Inodes of the TCP sockets in LISTEN state on this machine (Linux /proc/net). */
function listeningInodes(): Set<string> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === "0A") inodes.add(fields[9]!);
    }
  }
  return inodes;
}

test("serve opens no port: its transport is stdio, not one listening socket (R25)", {
  skip: existsSync("/proc/net/tcp") ? false : "needs Linux /proc",
}, async () => {
  await server.request(201, "tools/call", { name: "device_status", arguments: {} });
  const listening = listeningInodes();
  const fds = readdirSync(`/proc/${server.child.pid}/fd`);
  const sockets = fds.map((fd) => {
    try {
      return readlinkSync(`/proc/${server.child.pid}/fd/${fd}`);
    } catch {
      return "";
    }
  })
    .map((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1]).filter((inode): inode is string => inode !== undefined);
  assert.deepEqual(sockets.filter((inode) => listening.has(inode)), [], "a listening socket of serve");
});
