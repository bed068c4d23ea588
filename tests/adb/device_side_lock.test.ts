/**
 * The lock on the device (issue 25 defect 5) through the real adb client and the simulated device's shell:
 * clients that share nothing but the adb server (another user on this host, another host) see one another's
 * hold; a stale holder is taken over; a device that keeps no lock leaves only the per-user one.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import { createAdbClient } from "../../src/adapters/adb/adb_client.ts";
import {
  createDeviceSideLock,
  DEVICE_LEASE_MS,
  DEVICE_LOCK_DIRECTORY,
  type DeviceSideLockOptions,
  withDeviceSideLock,
} from "../../src/adapters/adb/device_side_lock.ts";
import type { ProcessProbe } from "../../src/adapters/evidence/process_probe.ts";
import { createNodeProcessRunner } from "../../src/adapters/node_process_runner.ts";
import { HarnessError } from "../../src/errors.ts";
import type { DeviceLease, DeviceLock } from "../../src/ports/evidence.ts";
import { type RunningSim, startSimDevice } from "../../src/sim/mod.ts";
import { silentLogger } from "../support/silent_logger.ts";

const ADB = process.env["ADB"] ?? "/usr/bin/adb";
const skip = existsSync(ADB) ? false : `the real adb client is not installed at ${ADB}`;
const HOLDER = `${DEVICE_LOCK_DIRECTORY}/holder`;

let sim: RunningSim | undefined;
before(async () => {
  if (skip === false) sim = await startSimDevice({});
});
after(async () => {
  await sim?.stop();
});

/** A client of the sim's adb server as process `pid` of `uid` on `host`; `alive` says which pids live there. */
/** `ended`: collects the operation ids of the holders whose Appium session a takeover ended. */
function client(
  who: { host: string; uid: number; pid: number; alive?: number[]; leaseMs?: number; ended?: string[] },
  now: () => number = Date.now,
) {
  const probe: ProcessProbe = {
    pid: who.pid,
    hostName: who.host,
    isProcessAlive: (pid) => (who.alive ?? [who.pid]).includes(pid),
    startStamp: (pid) => `start-${pid}`,
  };
  const options: DeviceSideLockOptions = {
    adb: createAdbClient({
      runner: createNodeProcessRunner(),
      program: { program: ADB, source: "ADB" },
      serverSocket: sim!.adbServerSocket,
    }),
    clock: { now, sleep: async () => {} },
    probe,
    uid: who.uid,
    logger: silentLogger,
    ...(who.leaseMs === undefined ? {} : { leaseMs: who.leaseMs }),
    endStaleSession: async (holder) => void who.ended?.push(holder.operation_id),
  };
  return createDeviceSideLock(options);
}

const address = () => ({ adbServer: sim!.adbServerSocket, udid: sim!.device.serial });
const owner = (operationId: string) => ({ operationId, tool: "ui_tap" });
const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));

function busy(error: unknown): error is HarnessError {
  return error instanceof HarnessError && error.code === "EMULATOR_BUSY";
}

test("another user on this host gets EMULATOR_BUSY naming the holder while it lives; release frees the device", { skip }, async () => {
  const root = client({ host: "here", uid: 0, pid: 100, alive: [100, 200] });
  const alice = client({ host: "here", uid: 1000, pid: 200, alive: [100, 200] });
  const lease = (await root.acquire(address(), owner("op-root")))!;
  assert.ok(lease !== null, "the simulated device keeps a lock");
  assert.match(text(sim!.device.files.get(HOLDER)) ?? "", /"operation_id":"op-root"/);
  await assert.rejects(
    alice.acquire(address(), owner("op-alice")),
    (e: unknown) =>
      busy(e) && e.message.includes("ui_tap (operation op-root) of process 100 of uid 0 on here") &&
      e.details?.["holder_uid"] === 0 && e.details?.["holder_pid"] === 100,
  );
  await lease.release();
  assert.equal(sim!.device.files.get(HOLDER), undefined);
  assert.equal(sim!.device.files.directories.has(DEVICE_LOCK_DIRECTORY), false);
  const hers = (await alice.acquire(address(), owner("op-alice")))!;
  await hers.release();
});

test("a holder whose process died on this host is taken over (SIGKILL of another user's server)", { skip }, async () => {
  const dead = client({ host: "here", uid: 0, pid: 100 });
  await dead.acquire(address(), owner("op-dead")); // never released: its process is gone for the next client
  const ended: string[] = [];
  const alice = client({ host: "here", uid: 1000, pid: 200, alive: [200], ended });
  const lease = (await alice.acquire(address(), owner("op-alice")))!;
  assert.match(text(sim!.device.files.get(HOLDER)) ?? "", /"operation_id":"op-alice"/);
  assert.deepEqual(ended, ["op-dead"], "the dead holder's Appium session is ended by the takeover");
  await lease.release();
});

test("this user's own leftover (it holds the per-user lock) is taken over; a reused pid is not its holder", { skip }, async () => {
  await client({ host: "here", uid: 1000, pid: 300 }).acquire(address(), owner("op-left"));
  const ended: string[] = [];
  const again = client({ host: "here", uid: 1000, pid: 301, alive: [300, 301], ended });
  await (await again.acquire(address(), owner("op-again")))!.release();
  assert.deepEqual(ended, [], "this user's leftover's session was the file lock takeover's to end");
  // Another user's pid 400 is alive but its start stamp differs from the note's: a later process, not the holder.
  const before = client({ host: "here", uid: 0, pid: 400 });
  await before.acquire(address(), owner("op-before"));
  const probe = client({ host: "here", uid: 1000, pid: 401, alive: [400, 401] });
  sim!.device.files.set(HOLDER, new TextEncoder().encode(text(sim!.device.files.get(HOLDER))!.replace("start-400", "start-earlier")));
  await (await probe.acquire(address(), owner("op-after")))!.release();
});

test("this user's holder through another adb server is judged by its process: alive, the device is busy; dead, its session is ended", {
  skip,
}, async () => {
  // The same phone behind two adb servers (two file locks): the per-user file lock proves nothing across them.
  const elsewhere = { ...address(), adbServer: "tcp:127.0.0.1:5037" };
  const first = (await client({ host: "here", uid: 1000, pid: 500, alive: [500, 501] }).acquire(elsewhere, owner("op-first")))!;
  await assert.rejects(
    client({ host: "here", uid: 1000, pid: 501, alive: [500, 501] }).acquire(address(), owner("op-second")),
    busy,
    "a live holder of this user through another adb server keeps the phone (before: both owned it)",
  );
  void first; // never released: its process dies
  const ended: string[] = [];
  const next = client({ host: "here", uid: 1000, pid: 502, alive: [502], ended });
  await (await next.acquire(address(), owner("op-next")))!.release();
  assert.deepEqual(ended, ["op-first"], "the dead holder's session is ended: no file lock takeover of this server did it");
});

test("a holder on another host is honoured until the lease in its note, then taken over", { skip }, async () => {
  let now = Date.UTC(2026, 11, 3, 20, 0, 0);
  const far = client({ host: "elsewhere", uid: 0, pid: 100 }, () => now);
  const near = client({ host: "here", uid: 1000, pid: 200 }, () => now);
  await far.acquire(address(), owner("op-far"));
  now += DEVICE_LEASE_MS - 1000;
  await assert.rejects(
    near.acquire(address(), owner("op-near")),
    (e: unknown) => busy(e) && e.details?.["holder_host"] === "elsewhere" && e.details?.["lease_expires_at"] === "2026-12-03T20:05:00.000Z",
  );
  now += 2000;
  await (await near.acquire(address(), owner("op-near")))!.release();
});

test("a lease longer than the default (a long ANDROID_MCP_ACTION_TIMEOUT) keeps another host's holder that long", { skip }, async () => {
  let now = Date.UTC(2026, 11, 3, 22, 0, 0);
  const far = client({ host: "elsewhere", uid: 0, pid: 100, leaseMs: 20 * 60_000 }, () => now);
  const near = client({ host: "here", uid: 1000, pid: 200 }, () => now);
  await far.acquire(address(), owner("op-far"));
  now += 19 * 60_000;
  await assert.rejects(
    near.acquire(address(), owner("op-near")),
    (e: unknown) => busy(e) && e.details?.["lease_expires_at"] === "2026-12-03T22:20:00.000Z",
  );
  now += 2 * 60_000;
  await (await near.acquire(address(), owner("op-near")))!.release();
});

test("a holder pushes its lease on while it holds (a warm device outlives the first lease); few rewrites", { skip }, async () => {
  let now = Date.UTC(2026, 11, 3, 21, 0, 0);
  const far = client({ host: "elsewhere", uid: 0, pid: 100 }, () => now);
  const near = client({ host: "here", uid: 1000, pid: 200 }, () => now);
  const lease = (await far.acquire(address(), owner("op-far")))!;
  const from = sim!.device.log.length;
  for (let minute = 1; minute <= 12; minute++) {
    now += 60_000;
    await lease.noteSessionExpiry!(new Date(now + 30_000).toISOString());
  }
  const rewrites = sim!.device.log.slice(from).filter((c) => c.command.includes("echo")).length;
  assert.ok(rewrites >= 2 && rewrites <= 4, `12 notes over 12 minutes: ${rewrites} rewrites on the device`);
  await assert.rejects(near.acquire(address(), owner("op-near")), busy);
  await lease.release();
});

test("every word on the lock's shell line is quoted: a hostile tool or operation name stays data", { skip }, async () => {
  const root = client({ host: "here", uid: 0, pid: 100 });
  const from = sim!.device.log.length;
  const lease = (await root.acquire(address(), { operationId: "op; rm -rf /sdcard *", tool: "x' $(id) `id` ?" }))!;
  const line = sim!.device.log.slice(from).map((c) => c.command).join("\n");
  assert.ok(line.includes(`'{"pid":100`), line);
  assert.match(text(sim!.device.files.get(HOLDER)) ?? "", /"operation_id":"op; rm -rf \/sdcard \*"/);
  await lease.release();
});

test("a device whose /data/local/tmp cannot be written keeps only the per-user lock; a refused device lock frees the file lock", {
  skip,
}, async () => {
  const fileLeases: string[] = [];
  const fileLock: DeviceLock = {
    acquire: async (_device, who) => {
      fileLeases.push(who.operationId);
      return { release: async () => void fileLeases.splice(fileLeases.indexOf(who.operationId), 1) } satisfies DeviceLease;
    },
  };
  sim!.device.faults.readOnlyDirectories = ["/data/local/tmp"];
  const unwritable = address();
  const both = withDeviceSideLock(fileLock, client({ host: "here", uid: 0, pid: 100 }));
  const lease = await both.acquire(unwritable, owner("op-1"));
  assert.deepEqual(fileLeases, ["op-1"]);
  assert.equal(sim!.device.files.directories.has(DEVICE_LOCK_DIRECTORY), false);
  delete sim!.device.faults.readOnlyDirectories;
  await lease.release();
  const held = await withDeviceSideLock(fileLock, client({ host: "here", uid: 0, pid: 100, alive: [100, 200] })).acquire(
    address(),
    owner("op-1"),
  );
  const other = withDeviceSideLock(fileLock, client({ host: "here", uid: 1000, pid: 200, alive: [100, 200] }));
  await assert.rejects(other.acquire(address(), owner("op-2")), busy);
  assert.deepEqual(fileLeases, ["op-1"], "the refused acquire gave its file lease back");
  await held.release();
  assert.deepEqual(fileLeases, []);
});
