/**
 * No network access but the configured endpoints (no telemetry, no update check): `serve` is traced with
 * strace (every connect(2) of the harness and of the adb processes it starts) while an MCP client calls
 * every tool. With ADB_SERVER_SOCKET and APPIUM_URL on two loopback ports, every IP connection goes to one
 * of them; with `--device sim`, every IP connection stays on loopback. Skipped where strace cannot run.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { harnessCommand } from "../support/mcp_client.ts";
import { killQuietly, makeServeHome } from "../support/mcp_e2e.ts";
import { freePort } from "../support/outcomes.ts";

function straceSkip(): string | false {
  const probe = spawnSync("strace", ["-f", "-qq", "-e", "trace=connect", "-o", "/dev/null", "true"], { encoding: "utf8" });
  if (probe.error !== undefined) return "strace is not installed (apt-get install strace)";
  return probe.status === 0 ? false : `strace cannot trace here: ${probe.stderr.trim().split("\n")[0]}`;
}
const skip = straceSkip();

interface Connection {
  family: string;
  address: string;
  port: number;
  /** The program that made it: the last execve of its process or thread, e.g. `adb devices -l` (diagnostics). */
  by: string;
}

/**
 * The IP connections in an strace log (AF_UNIX and others are listed with an empty address), each with the
 * program that made it: `strace -f` prefixes every line with the process (or thread) id, execve lines name
 * the program, and a clone/fork's child (a thread, or a process before its execve) is named as its parent.
 */
function connections(log: string): Connection[] {
  const out: Connection[] = [];
  const programs = new Map<string, string>();
  const pendingExec = new Map<string, string>(); // an execve strace split into `<unfinished ...>` and `resumed`
  const argv = (list: string) => list.replaceAll('", "', " ").replaceAll('"', "").slice(0, 120);
  for (const line of log.split("\n")) {
    const pid = /^(\d+)\s/.exec(line)?.[1] ?? "?";
    const exec = /execve\("[^"]*", \[(.*?)\]/.exec(line);
    if (exec !== null && / = 0$/.test(line)) programs.set(pid, argv(exec[1]!));
    else if (exec !== null && /<unfinished \.\.\.>$/.test(line)) pendingExec.set(pid, argv(exec[1]!));
    else if (/<\.\.\. execve resumed>.* = 0$/.test(line) && pendingExec.has(pid)) programs.set(pid, pendingExec.get(pid)!);
    const child = /(?:^\d+\s+|<\.\.\. )(?:clone3?|v?fork)\b.*= (\d+)$/.exec(line)?.[1];
    // A child that already ran its execve (its lines can come before its parent's resumed clone) keeps its name.
    if (child !== undefined && !programs.has(child)) programs.set(child, programs.get(pid) ?? `a child of process ${pid}`);
    // A connect strace split (`… 16 <unfinished ...>`) is counted from its first half, which holds the address.
    const call = /connect\(\d+, \{sa_family=(AF_\w+)(.*?)\}, \d+(?:\)| <unfinished)/.exec(line);
    if (call === null) continue;
    const port = /sin6?_port=htons\((\d+)\)/.exec(call[2]!)?.[1];
    const address = /inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)"/.exec(call[2]!);
    const by = programs.get(pid) ?? `process ${pid}`;
    out.push({ family: call[1]!, address: address?.[1] ?? address?.[2] ?? "", port: Number(port ?? 0), by });
  }
  return out;
}

/** Runs `serve ARGS` under strace, calls every published tool, returns the connections made. */
async function tracedServe(args: string[], env: Record<string, string>, root: string): Promise<Connection[]> {
  const log = join(root, "connect.log");
  const [command, ...prefix] = harnessCommand();
  const transport = new StdioClientTransport({
    command: "strace",
    args: ["-f", "-qq", "-e", "trace=connect,execve,clone,clone3,fork,vfork", "-o", log, command, ...prefix, "serve", ...args],
    // Under `npm run test:deno` the harness runs in Deno, whose own once-a-day update check (a DNS query for
    // dl.deno.land) is the runtime's, not the harness's; `deno task start` turns it off the same way.
    env: { ...env, DENO_NO_UPDATE_CHECK: "1" },
    cwd: root,
    stderr: "pipe",
  });
  const client = new Client({ name: "network-test", version: "0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    for (const tool of tools) await client.callTool({ name: tool.name, arguments: {} });
  } finally {
    await client.close().catch(() => {});
    killQuietly(transport.pid);
  }
  return connections(readFileSync(log, "utf8"));
}

test("with configured adb and Appium endpoints, every IP connection goes to one of them", { skip }, async () => {
  const home = makeServeHome();
  const root = mkdtempSync(join(tmpdir(), "amh-net-"));
  try {
    const adbPort = await freePort();
    const appiumPort = await freePort();
    const made = await tracedServe([], {
      ...home.env,
      ADB_SERVER_SOCKET: `tcp:127.0.0.1:${adbPort}`,
      APPIUM_URL: `http://127.0.0.1:${appiumPort}`,
    }, root);
    const ip = made.filter((c) => c.family === "AF_INET" || c.family === "AF_INET6");
    assert.ok(ip.length > 0, "the tools tried the adb server");
    for (const c of ip) {
      assert.ok(
        c.address === "127.0.0.1" && [adbPort, appiumPort].includes(c.port),
        `unexpected connection to ${c.address}:${c.port} by ${c.by}`,
      );
    }
  } finally {
    home.remove();
    rmSync(root, { recursive: true, force: true });
  }
});

test("with --device sim, every IP connection stays on loopback", { skip }, async () => {
  const home = makeServeHome();
  const root = mkdtempSync(join(tmpdir(), "amh-net-"));
  try {
    const made = await tracedServe(["--device", "sim"], home.env, root);
    const ip = made.filter((c) => c.family === "AF_INET" || c.family === "AF_INET6");
    assert.ok(ip.length > 0, "the real adb client reached the simulated device");
    for (const c of ip) {
      assert.ok(c.address === "127.0.0.1" || c.address === "::1", `unexpected connection to ${c.address}:${c.port} by ${c.by}`);
    }
  } finally {
    home.remove();
    rmSync(root, { recursive: true, force: true });
  }
});
