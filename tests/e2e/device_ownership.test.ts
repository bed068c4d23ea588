/**
 * One owner per device across processes, and no call can hang the harness: two `serve` processes share
 * one simulated device and one user state directory. While the first is stuck in a screencap that never
 * answers, the second gets EMULATOR_BUSY at once; the first answers OPERATION_TIMEOUT after
 * ANDROID_MCP_ACTION_TIMEOUT, its adb child is gone, and the device is usable again.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { after, before, test } from "node:test";
import { DEVICE_LOCK_DIRECTORY } from "../../src/adapters/adb/device_side_lock.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { envelopeOf, MAIN_JS, type SpawnedServer, spawnServe } from "../support/mcp_client.ts";
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

/** Waits (at most 5 s) until the device has received a screencap since log entry `from`: the hung call holds the device. */
async function untilScreencapSince(device: Sim["device"], from: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!device.log.slice(from).some((c) => c.command.includes("screencap")) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits (at most 5 s) until no process has this pid (the runner reaps its killed child). */
async function untilGone(pid: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

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
  await untilScreencapSince(sim.device, from);
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
      await untilScreencapSince(sim.device, from);
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

const OTHER_UID = 54_323; // no account; not lock_squat's nor the campaign's

/** Why a second local user cannot be simulated here, or false (root, Linux, the harness readable by others). */
function otherUserSkip(): string | false {
  if (process.platform !== "linux") return "Linux only";
  if (process.getuid?.() !== 0) return "needs root (to run serve as another uid)";
  for (let dir = dirname(MAIN_JS);; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return `another user cannot reach the harness: ${dir} is closed to others`;
    if (dirname(dir) === dir) return false;
  }
}

test("two users of one adb server: the other user's call gets EMULATOR_BUSY while root's holds the device (issue 25, 5)", {
  skip: otherUserSkip(),
  timeout: 60_000,
}, async (t) => {
  const shared = await startSimDevice({});
  t.after(() => shared.stop());
  const rootHome = makeServeHome();
  const otherHome = makeServeHome();
  t.after(() => (rootHome.remove(), otherHome.remove()));
  chmodSync(otherHome.root, 0o755);
  execFileSync("chown", ["-R", `${OTHER_UID}:${OTHER_UID}`, otherHome.root]);
  const env = (h: ServeHome) => ({ ...h.env, ADB_SERVER_SOCKET: shared.adbServerSocket, ANDROID_UDID: shared.device.serial });
  const holder = await spawnServe([], { ...env(rootHome), ANDROID_MCP_ACTION_TIMEOUT: "6" });
  t.after(() => holder.close());
  const other = await spawnServe([], env(otherHome), { runAs: { uid: OTHER_UID, gid: OTHER_UID } });
  t.after(() => other.close());
  shared.device.faults.hangCommands = ["screencap"];
  const from = shared.device.log.length;
  const hung = holder.client.callTool({ name: "ui_screenshot", arguments: {} });
  await untilScreencapSince(shared.device, from);
  const busy = envelopeOf(await other.client.callTool({ name: "device_status", arguments: {} }));
  shared.device.faults.hangCommands = [];
  assert.equal(busy.error?.code, "EMULATOR_BUSY", JSON.stringify(busy));
  assert.equal(busy.error?.details?.["holder_pid"], holder.pid, "it names root's server");
  assert.equal(busy.error?.details?.["holder_uid"], 0);
  assert.equal(envelopeOf(await hung).error?.code, "OPERATION_TIMEOUT");
  // Released with root's call: the other user's server now has the device.
  const free = envelopeOf(await other.client.callTool({ name: "device_status", arguments: {} }));
  assert.equal(free.ok, true, JSON.stringify(free.error));
  // Root SIGKILLed while holding: the other user takes the device over (the holder's process is gone on this host).
  shared.device.faults.hangCommands = ["screencap"];
  const killedFrom = shared.device.log.length;
  void holder.client.callTool({ name: "ui_screenshot", arguments: {} }).catch(() => {});
  await untilScreencapSince(shared.device, killedFrom);
  process.kill(holder.pid!, "SIGKILL");
  await untilGone(holder.pid!);
  shared.device.faults.hangCommands = [];
  const taken = envelopeOf(await other.client.callTool({ name: "device_status", arguments: {} }));
  assert.equal(taken.ok, true, JSON.stringify(taken.error));
});

test("a holder on another machine of the same adb server (its note on the device) is honoured until its lease, then taken over", {
  timeout: 60_000,
}, async (t) => {
  const shared = await startSimDevice({});
  t.after(() => shared.stop());
  const h = makeServeHome();
  t.after(() => h.remove());
  const server = await spawnServe([], { ...h.env, ADB_SERVER_SOCKET: shared.adbServerSocket, ANDROID_UDID: shared.device.serial });
  t.after(() => server.close());
  const plant = (leaseExpiresAt: string) => {
    shared.device.files.directories.add(DEVICE_LOCK_DIRECTORY);
    const note = {
      pid: 4242,
      host: "build-agent-7",
      uid: 1001,
      operation_id: "op-far",
      tool: "ui_tap",
      udid: shared.device.serial,
      acquired_at: "2026-12-03T20:00:00.000Z",
      lease_expires_at: leaseExpiresAt,
      token: "far-token",
    };
    shared.device.files.set(`${DEVICE_LOCK_DIRECTORY}/holder`, new TextEncoder().encode(JSON.stringify(note) + "\n"));
  };
  plant(new Date(Date.now() + 3_600_000).toISOString());
  const busy = envelopeOf(await server.client.callTool({ name: "device_status", arguments: {} }));
  assert.equal(busy.error?.code, "EMULATOR_BUSY", JSON.stringify(busy));
  assert.equal(busy.error?.details?.["holder_host"], "build-agent-7");
  assert.match(busy.error?.message ?? "", /ui_tap \(operation op-far\) of process 4242 of uid 1001 on build-agent-7/);
  plant(new Date(Date.now() - 1000).toISOString());
  const taken = envelopeOf(await server.client.callTool({ name: "device_status", arguments: {} }));
  assert.equal(taken.ok, true, JSON.stringify(taken.error));
  assert.equal(shared.device.files.directories.has(DEVICE_LOCK_DIRECTORY), false, "released after the call");
});
