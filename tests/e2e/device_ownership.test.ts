/**
 * One owner per device across processes, and no call can hang the harness: two `serve` processes share
 * one simulated device and one user state directory. While the first is stuck in a screencap that never
 * answers, the second gets EMULATOR_BUSY at once; the first answers OPERATION_TIMEOUT after
 * ANDROID_MCP_ACTION_TIMEOUT, its adb child is gone, and the device is usable again.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import { startSimDevice } from "../../src/sim/mod.ts";
import { envelopeOf, type SpawnedServer, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";
import { holdsWithin, LOADED_WAIT_MS } from "../support/time_bounds.ts";

type Sim = Awaited<ReturnType<typeof startSimDevice>>;
let sim: Sim;
let home: ServeHome;
let first: SpawnedServer;
let second: SpawnedServer;

before(async () => {
  sim = await startSimDevice({});
  home = makeServeHome();
  const env = { ...home.env, ADB_SERVER_SOCKET: sim.adbServerSocket, ANDROID_UDID: sim.device.serial, ANDROID_MCP_ACTION_TIMEOUT: "6" };
  [first, second] = await Promise.all([spawnServe([], env), spawnServe([], env)]);
});

after(async () => {
  await Promise.all([first?.close(), second?.close()]);
  await sim?.stop();
  home?.remove();
});

/** Command lines of the direct children of a process (Linux /proc via ps); null where ps is missing. */
function childCommands(pid: number): string[] | null {
  if (!existsSync("/proc")) return null;
  try {
    return execFileSync("ps", ["-o", "args=", "--ppid", String(pid)], { encoding: "utf8" }).split("\n").filter(Boolean);
  } catch {
    return []; // ps exits 1 when there are no children
  }
}

test("a second process gets EMULATOR_BUSY at once; the hung first one times out and frees the device (R15 R18)", async () => {
  sim.device.faults.hangCommands = ["screencap"];
  const from = sim.device.log.length;
  let hungSettled = false;
  const hung = first.client.callTool({ name: "ui_screenshot", arguments: {} }).finally(() => void (hungSettled = true));
  const deadline = Date.now() + 5_000;
  while (!sim.device.log.slice(from).some((c) => c.command.includes("screencap")) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const busy = envelopeOf(await second.client.callTool({ name: "device_status", arguments: {} }));
  assert.equal(busy.error?.code, "EMULATOR_BUSY", JSON.stringify(busy));
  // "At once" measured against the holder, not a wall-clock figure: the answer came while the first call still hung.
  assert.equal(hungSettled, false, "EMULATOR_BUSY comes at once, not after waiting for the holder");

  const timedOut = envelopeOf(await hung);
  assert.equal(timedOut.error?.code, "OPERATION_TIMEOUT", JSON.stringify(timedOut));
  assert.equal(timedOut.evidence, null);
  sim.device.faults.hangCommands = [];

  // The runner kills the child's group after the answer (SIGTERM, SIGKILL after a grace): wait for it to be gone.
  const hungChildGone = () => (childCommands(first.pid!) ?? []).every((c) => !c.includes("screencap"));
  assert.ok(await holdsWithin(hungChildGone, LOADED_WAIT_MS), `the hung adb child was killed: ${childCommands(first.pid!)}`);
  const again = envelopeOf(await second.client.callTool({ name: "ui_screenshot", arguments: {} }));
  assert.equal(again.ok, true, JSON.stringify(again.error));
});

/**
 * R14: two processes on one machine always meet at one lock, whatever their environment and however they
 * spell the adb server (before: `tcp:127.1:PORT` next to `tcp:localhost:PORT`, or two XDG_STATE_HOME values,
 * gave two locks and two owners).
 */
test("two processes with different XDG_STATE_HOME and HOME and different spellings of one adb server exclude each other (R14)", async () => {
  const port = sim.adbPort;
  const spellings = [`tcp:127.1:${port}`, `tcp:localhost:${port}`, `tcp:0.0.0.0:${port}`];
  const homes = spellings.map(() => makeServeHome());
  const servers = await Promise.all(
    spellings.map((socket, i) =>
      spawnServe([], { ...homes[i]!.env, ADB_SERVER_SOCKET: socket, ANDROID_UDID: sim.device.serial, ANDROID_MCP_ACTION_TIMEOUT: "8" })
    ),
  );
  try {
    for (const [holder, holderIndex] of [[servers[0]!, 0], [servers[2]!, 2]] as const) {
      sim.device.faults.hangCommands = ["screencap"];
      const from = sim.device.log.length;
      const hung = holder.client.callTool({ name: "ui_screenshot", arguments: {} });
      const deadline = Date.now() + 5_000;
      while (!sim.device.log.slice(from).some((c) => c.command.includes("screencap")) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 10));
      }
      for (const [i, other] of servers.entries()) {
        if (i === holderIndex) continue;
        const busy = envelopeOf(await other.client.callTool({ name: "device_status", arguments: {} }));
        assert.equal(busy.error?.code, "EMULATOR_BUSY", `${spellings[i]} while ${spellings[holderIndex]} holds: ${JSON.stringify(busy)}`);
      }
      sim.device.faults.hangCommands = [];
      assert.equal(envelopeOf(await hung).error?.code, "OPERATION_TIMEOUT");
    }
    const free = envelopeOf(await servers[1]!.client.callTool({ name: "device_status", arguments: {} }));
    assert.equal(free.ok, true, JSON.stringify(free.error));
  } finally {
    sim.device.faults.hangCommands = [];
    await Promise.all(servers.map((s) => s.close()));
    for (const h of homes) h.remove();
  }
});
