import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { assertEndedByDeadline } from "../support/time_bounds.ts";
import { createDeviceLock, lockFileName, type LockHolder, sweepStaleLocks } from "../../src/adapters/evidence/device_lock.ts";
import { createNodeFileSystem } from "../../src/adapters/evidence/node_file_system.ts";
import { createNodeProcessProbe, type ProcessProbe } from "../../src/adapters/evidence/process_probe.ts";
import { HarnessError } from "../../src/errors.ts";
import type { FileSystem } from "../../src/ports/evidence.ts";
import { tempDir } from "./temp_dir.ts";

const clock = { now: () => Date.now(), sleep: async () => {} };
const owner = (operationId: string, tool = "ui_tap") => ({ operationId, tool });
const dev = (udid: string, adbServer = "tcp:127.0.0.1:5037") => ({ adbServer, udid });

function busy(error: unknown): error is HarnessError {
  return error instanceof HarnessError && error.code === "EMULATOR_BUSY";
}

test("second acquire on the same device is EMULATOR_BUSY at once, naming the holder; release frees it", async (t) => {
  const dir = tempDir(t);
  const lock = createDeviceLock({ directory: dir, fs: createNodeFileSystem(), clock, probe: createNodeProcessProbe() });
  const lease = await lock.acquire(dev("emulator-5554"), owner("op-1", "ui_tap"));
  const started = Date.now();
  await assert.rejects(lock.acquire(dev("emulator-5554"), owner("op-2")), (e: unknown) =>
    busy(e) &&
    e.message.includes(`ui_tap (operation op-1) in process ${process.pid}`) && e.details?.["holder_operation_id"] === "op-1");
  assertEndedByDeadline(Date.now() - started, 0, "EMULATOR_BUSY: no queue, no waiting");
  // Another device is independent.
  const other = await lock.acquire(dev("127.0.0.1:5555"), owner("op-3"));
  assert.ok(existsSync(join(dir, lockFileName(dev("127.0.0.1:5555")))));
  await lease.release();
  await lease.release(); // idempotent
  const again = await lock.acquire(dev("emulator-5554"), owner("op-4"));
  await again.release();
  await other.release();
});

test("a lock left by a dead process is stale and taken over; a live one on another host is respected (R17)", async (t) => {
  const dir = tempDir(t);
  const path = join(dir, lockFileName(dev("emulator-5554")));
  const probe: ProcessProbe = {
    pid: 100,
    hostName: "here",
    isProcessAlive: (pid) => pid === 100 || pid === 200,
    startStamp: (pid) => `start-${pid}`,
  };
  const lock = createDeviceLock({ directory: dir, fs: createNodeFileSystem(), clock, probe });
  writeFileSync(
    path,
    JSON.stringify({ pid: 999999, host: "here", operation_id: "old", tool: "ui_tap", udid: "emulator-5554", acquired_at: "x", token: "t" }),
  );
  const lease = await lock.acquire(dev("emulator-5554"), owner("op-new"));
  assert.equal(JSON.parse(readFileSync(path, "utf8")).operation_id, "op-new");
  await lease.release();
  assert.ok(!existsSync(path));

  writeFileSync(
    path,
    JSON.stringify({
      pid: 999999,
      host: "elsewhere",
      operation_id: "remote",
      tool: "ui_scroll",
      udid: "emulator-5554",
      acquired_at: "x",
      token: "t",
    }),
  );
  await assert.rejects(lock.acquire(dev("emulator-5554"), owner("op-x")), (e: unknown) => busy(e) && e.message.includes("on elsewhere"));

  // pid 200 is alive but started after the holder wrote its lock: the pid was reused, the lock is stale.
  writeFileSync(
    path,
    JSON.stringify({
      pid: 200,
      pid_start: "earlier",
      host: "here",
      operation_id: "reused",
      tool: "ui_tap",
      udid: "emulator-5554",
      acquired_at: "x",
      token: "t",
    }),
  );
  await (await lock.acquire(dev("emulator-5554"), owner("op-reuse"))).release();
  writeFileSync(
    path,
    JSON.stringify({
      pid: 200,
      pid_start: "start-200",
      host: "here",
      operation_id: "live",
      tool: "ui_tap",
      udid: "emulator-5554",
      acquired_at: "x",
      token: "t",
    }),
  );
  await assert.rejects(lock.acquire(dev("emulator-5554"), owner("op-z")), (e: unknown) => busy(e) && e.message.includes("operation live"));

  writeFileSync(path, "garbage that is not JSON");
  await (await lock.acquire(dev("emulator-5554"), owner("op-y"))).release();
});

test("release never removes a lock that another owner took over", async (t) => {
  const dir = tempDir(t);
  const lock = createDeviceLock({ directory: dir, fs: createNodeFileSystem(), clock, probe: createNodeProcessProbe() });
  const lease = await lock.acquire(dev("emulator-5554"), owner("op-1"));
  const path = join(dir, lockFileName(dev("emulator-5554")));
  writeFileSync(
    path,
    JSON.stringify({
      pid: process.pid,
      host: "h",
      operation_id: "thief",
      tool: "x",
      udid: "emulator-5554",
      acquired_at: "x",
      token: "other",
    }),
  );
  await lease.release();
  assert.equal(JSON.parse(readFileSync(path, "utf8")).operation_id, "thief");
});

test("a session-expiry note in flight when the lease is released never writes the lock back", async (t) => {
  const dir = tempDir(t);
  const real = createNodeFileSystem();
  let entered!: () => void;
  const inReplace = new Promise<void>((resolve) => (entered = resolve));
  let letReplace!: () => void;
  const replaceGate = new Promise<void>((resolve) => (letReplace = resolve));
  const slowReplace: FileSystem = {
    ...real,
    replaceFile: async (path, bytes) => {
      entered();
      await replaceGate; // the note's write is slow (a busy disk), the release's remove is not
      return real.replaceFile(path, bytes);
    },
  };
  const lock = createDeviceLock({ directory: dir, fs: slowReplace, clock, probe: createNodeProcessProbe() });
  const lease = await lock.acquire(dev("emulator-5554"), owner("op-1", "ui_session_open"));
  const path = join(dir, lockFileName(dev("emulator-5554")));
  const noted = lease.noteSessionExpiry!("2026-01-01T00:00:00.000Z");
  await Promise.race([inReplace, new Promise((r) => setTimeout(r, 200))]);
  const released = lease.release();
  setTimeout(letReplace, 50);
  await Promise.all([noted, released]);
  assert.equal(existsSync(path), false, "the released lock file stays removed");
  await (await lock.acquire(dev("emulator-5554"), owner("op-2"))).release();
});

/** A child node process that takes the lock, says so on stdout, and holds it until killed. */
function spawnHolder(dir: string): { child: ChildProcess; ready: Promise<string> } {
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const mod = (name: string) => new URL(`../../src/adapters/evidence/${name}${ext}`, import.meta.url).href;
  const script = `
    const { createDeviceLock } = await import(${JSON.stringify(mod("device_lock"))});
    const { createNodeFileSystem } = await import(${JSON.stringify(mod("node_file_system"))});
    const { createNodeProcessProbe } = await import(${JSON.stringify(mod("process_probe"))});
    const lock = createDeviceLock({ directory: process.argv[1], fs: createNodeFileSystem(),
      clock: { now: () => Date.now(), sleep: async () => {} }, probe: createNodeProcessProbe() });
    try {
      await lock.acquire({ adbServer: "tcp:127.0.0.1:5037", udid: "emulator-5554" }, { operationId: "child-op", tool: "ui_get_tree" });
      process.stdout.write("LOCKED\\n");
    } catch (error) {
      process.stdout.write("BUSY " + error.code + "\\n");
    }
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script, dir], { stdio: ["ignore", "pipe", "inherit"] });
  const ready = new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.trim());
    });
    child.on("exit", (code) => reject(new Error(`child exited with ${code} before answering: ${out}`)));
  });
  return { child, ready };
}

test("two real processes: the second is EMULATOR_BUSY; when the holder dies the lock is taken over", async (t) => {
  const dir = tempDir(t);
  const holder = spawnHolder(dir);
  const children: ChildProcess[] = [holder.child];
  t.after(() => {
    for (const child of children) {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });
  assert.equal(await holder.ready, "LOCKED");

  const lock = createDeviceLock({ directory: dir, fs: createNodeFileSystem(), clock, probe: createNodeProcessProbe() });
  await assert.rejects(lock.acquire(dev("emulator-5554"), owner("parent-op")), (e: unknown) =>
    busy(e) &&
    e.details?.["holder_pid"] === holder.child.pid && e.message.includes("ui_get_tree (operation child-op)"));

  const exited = new Promise((resolve) => holder.child.once("exit", resolve));
  process.kill(holder.child.pid!, "SIGKILL");
  await exited;
  const lease = await lock.acquire(dev("emulator-5554"), owner("parent-op"));

  // Now the parent holds it: a new process is refused.
  const second = spawnHolder(dir);
  children.push(second.child);
  assert.equal(await second.ready, "BUSY EMULATOR_BUSY");
  await lease.release();
});

test("simultaneous acquires never both win: a lock file is never seen empty and taken for stale", async (t) => {
  const dir = tempDir(t);
  for (let round = 0; round < 25; round++) {
    const udid = `emulator-${5554 + round * 2}`;
    const contenders = Array.from(
      { length: 4 },
      () => createDeviceLock({ directory: dir, fs: createNodeFileSystem(), clock, probe: createNodeProcessProbe() }),
    );
    const outcomes = await Promise.allSettled(contenders.map((lock, i) => lock.acquire(dev(udid), owner(`op-${round}-${i}`))));
    const winners = outcomes.filter((o) => o.status === "fulfilled");
    assert.equal(winners.length, 1, `round ${round}: ${winners.length} owners of one device`);
    for (const o of outcomes) if (o.status === "rejected") assert.ok(busy(o.reason), String(o.reason));
  }
  assert.deepEqual(readdirSync(dir).filter((name) => name.endsWith(".draft")), [], "no draft file is left behind");
});

test("lock files: one per adb server and serial, with safe names", () => {
  const names = [
    lockFileName(dev("emulator-5554")),
    lockFileName(dev("emulator-5554", "tcp:127.0.0.1:41001")),
    lockFileName(dev("emulator-5554", "tcp:farm-a:5037")),
    lockFileName(dev("127.0.0.1:5555")),
    lockFileName(dev("127.0.0.1_5555")),
    lockFileName(dev("adb-R5CT-x._adb-tls-connect._tcp")),
  ];
  assert.equal(new Set(names).size, names.length, names.join(" "));
  for (const name of names) assert.match(name, /^[A-Za-z0-9._-]+\.lock$/);
  assert.match(lockFileName(dev("emulator-5554")), /^emulator-5554-[0-9a-f]{16}\.lock$/);
});

/** The real file system with a random pause (0-2 ms) before each operation: contenders interleave as processes do. */
function jitteryFileSystem(): FileSystem {
  const real = createNodeFileSystem();
  const pause = () => new Promise((r) => setTimeout(r, Math.floor(Math.random() * 3)));
  const wrapped = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(real)) {
    wrapped[name] = async (...args: unknown[]) => {
      await pause();
      return (fn as (...a: unknown[]) => Promise<unknown>)(...args);
    };
  }
  return wrapped as unknown as FileSystem;
}

test("many contenders on one stale lock: exactly one takes it over, the rest are EMULATOR_BUSY", async (t) => {
  const dir = tempDir(t);
  const probe: ProcessProbe = { pid: 100, hostName: "here", isProcessAlive: (pid) => pid === 100, startStamp: () => null };
  for (let round = 0; round < 40; round++) {
    const device = dev(`emulator-${5554 + round * 2}`);
    writeFileSync(
      join(dir, lockFileName(device)),
      JSON.stringify({
        pid: 999999,
        host: "here",
        operation_id: "crashed",
        tool: "ui_tap",
        udid: device.udid,
        acquired_at: "x",
        token: "dead",
      }),
    );
    const contenders = Array.from({ length: 8 }, () => createDeviceLock({ directory: dir, fs: jitteryFileSystem(), clock, probe }));
    const outcomes = await Promise.allSettled(contenders.map((lock, i) => lock.acquire(device, owner(`op-${round}-${i}`))));
    const winners = outcomes.filter((o) => o.status === "fulfilled");
    assert.equal(winners.length, 1, `round ${round}: ${winners.length} owners of one device`);
    for (const o of outcomes) if (o.status === "rejected") assert.ok(busy(o.reason), String(o.reason));
    const holder = JSON.parse(readFileSync(join(dir, lockFileName(device)), "utf8"));
    assert.notEqual(holder.operation_id, "crashed");
  }
  assert.deepEqual(readdirSync(dir).filter((name) => !name.endsWith(".lock")), [], "no draft, takeover or tombstone file is left");
});

test("a takeover left by a crashed taker does not block the device; a live taker's is respected", async (t) => {
  const dir = tempDir(t);
  const probe: ProcessProbe = { pid: 100, hostName: "here", isProcessAlive: (pid) => pid === 100 || pid === 300, startStamp: () => null };
  const lock = createDeviceLock({ directory: dir, fs: createNodeFileSystem(), clock, probe });
  const device = dev("emulator-5554");
  const path = join(dir, lockFileName(device));
  const stale = JSON.stringify({
    pid: 999999,
    host: "here",
    operation_id: "crashed",
    tool: "ui_tap",
    udid: device.udid,
    acquired_at: "x",
    token: "dead",
  });

  writeFileSync(path, stale);
  writeFileSync(`${path}.takeover`, JSON.stringify({ pid: 300, host: "here", token: "live-taker" }));
  await assert.rejects(lock.acquire(device, owner("op-wait")), (e: unknown) => busy(e));
  assert.equal(readFileSync(path, "utf8"), stale, "the stale lock is left to the live taker");

  writeFileSync(`${path}.takeover`, JSON.stringify({ pid: 999998, host: "here", token: "crashed-taker" }));
  const lease = await lock.acquire(device, owner("op-after"));
  assert.equal(JSON.parse(readFileSync(path, "utf8")).operation_id, "op-after");
  assert.ok(!existsSync(`${path}.takeover`));
  await lease.release();
});

test("an open session's expiry is written into the lock for others to read; a note racing the release never puts the lock back", async (t) => {
  const dir = tempDir(t);
  const lock = createDeviceLock({ directory: dir, fs: createNodeFileSystem(), clock, probe: createNodeProcessProbe() });
  const lease = await lock.acquire(dev("emulator-5554"), owner("op-1", "ui_session_open"));
  await lease.noteSessionExpiry!("2026-11-30T23:00:00.000Z");
  const path = join(dir, lockFileName(dev("emulator-5554")));
  assert.equal(JSON.parse(readFileSync(path, "utf8")).session_expires_at, "2026-11-30T23:00:00.000Z");
  const other = createDeviceLock({ directory: dir, fs: createNodeFileSystem(), clock, probe: createNodeProcessProbe() });
  await assert.rejects(
    other.acquire(dev("emulator-5554"), owner("op-2")),
    (e: unknown) => busy(e) && /until at least 2026-11-30T23:00:00.000Z/.test(e.message),
  );
  for (let i = 0; i < 20; i++) {
    void lease.noteSessionExpiry!(`2026-11-30T23:00:${String(i).padStart(2, "0")}.000Z`); // not awaited: a timer re-arming
    if (i === 10) void lease.release();
  }
  await lease.release();
  assert.equal(existsSync(path), false, "released means gone, whatever notes were in flight");
  const again = await other.acquire(dev("emulator-5554"), owner("op-3"));
  await again.release();
});

test("the lock directory is private: created 0700, a group-readable one of ours narrowed, a symlink, a file or another user's refused (R14)", async (t) => {
  const root = tempDir(t);
  const fs = createNodeFileSystem();
  const acquireIn = (directory: string) =>
    createDeviceLock({ directory, fs, clock, probe: createNodeProcessProbe() }).acquire(dev("emulator-5554"), owner("op"));
  const fresh = join(root, "fresh");
  await (await acquireIn(fresh)).release();
  assert.equal(statSync(fresh).mode & 0o777, 0o700);
  const open = join(root, "open");
  mkdirSync(open, { mode: 0o777 });
  chmodSync(open, 0o777);
  await (await acquireIn(open)).release();
  assert.equal(statSync(open).mode & 0o777, 0o700, "narrowed to 0700");
  const target = join(root, "elsewhere");
  mkdirSync(target);
  symlinkSync(target, join(root, "link"));
  writeFileSync(join(root, "file"), "");
  const refused = [join(root, "link"), join(root, "file")];
  if (process.getuid?.() === 0) {
    const foreign = join(root, "foreign");
    mkdirSync(foreign, { mode: 0o700 });
    chownSync(foreign, 12345, 12345);
    refused.push(foreign);
  }
  for (const directory of refused) {
    await assert.rejects(
      acquireIn(directory),
      (e: unknown) =>
        e instanceof HarnessError && e.code === "INTERNAL_ERROR" && /symbolic link or a file|belongs to user 12345/.test(e.message),
      directory,
    );
  }
  assert.deepEqual(readdirSync(target), [], "nothing written through the symlink");
});

test("a session's note records its Appium URL and id; taking over the dead holder's lock hands them to endStaleSession (defect 9)", async (t) => {
  const dir = tempDir(t);
  const path = join(dir, lockFileName(dev("emulator-5554")));
  const ended: unknown[] = [];
  const probe: ProcessProbe = { pid: 100, hostName: "here", isProcessAlive: (pid) => pid === 100, startStamp: (pid) => `start-${pid}` };
  const lock = createDeviceLock({
    directory: dir,
    fs: createNodeFileSystem(),
    clock,
    probe,
    endStaleSession: async (h) => void ended.push(h.appium_session_id),
  });
  const lease = await lock.acquire(dev("emulator-5554"), owner("op-1"));
  await lease.noteSessionExpiry?.("2030-01-01T00:00:00.000Z", { url: "http://127.0.0.1:4723", sessionId: "abc" });
  const noted = JSON.parse(readFileSync(path, "utf8"));
  assert.equal(noted.appium_session_id, "abc");
  assert.equal(noted.appium_url, "http://127.0.0.1:4723");
  writeFileSync(path, JSON.stringify({ ...noted, pid: 999999 }));
  const taken = await lock.acquire(dev("emulator-5554"), owner("op-2"));
  assert.deepEqual(ended, ["abc"]);
  await taken.release();
  // A dead holder whose adb server ran inside it left no session: its noted port may be anyone's now, so no DELETE.
  writeFileSync(path, JSON.stringify({ ...noted, pid: 999999, adb_server_in_process: true, appium_session_id: "def" }));
  await (await lock.acquire(dev("emulator-5554"), owner("op-3"))).release();
  assert.deepEqual(ended, ["abc"], "nothing sent for the in-process holder's session");
});

test("the sweep removes only dead holders' locks with their adb server in process or untouched for 24 h, ending nothing (R41)", async (t) => {
  const dir = tempDir(t);
  const probe: ProcessProbe = { pid: 100, hostName: "here", isProcessAlive: (pid) => pid === 100, startStamp: (pid) => `start-${pid}` };
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
  const holder = (pid: number, host: string, inProcess: boolean, sessionId: string, times: { at?: string; expires?: string } = {}) =>
    JSON.stringify({
      pid,
      host,
      operation_id: `op-${sessionId}`,
      tool: "ui_session_open",
      udid: "emulator-5554",
      adb_server: "tcp:127.0.0.1:40001",
      ...(inProcess ? { adb_server_in_process: true } : {}),
      acquired_at: times.at ?? hoursAgo(1),
      ...(times.expires === undefined ? {} : { session_expires_at: times.expires }),
      token: sessionId,
      appium_url: "http://127.0.0.1:4723",
      appium_session_id: sessionId,
    });
  const planted = {
    "dead-sim.lock": holder(999999, "here", true, "s1"),
    "dead-outside.lock": holder(999998, "here", false, "s2"), // left to that device's next acquire, which ends s2
    "dead-old.lock": holder(999995, "here", false, "s6", { at: hoursAgo(30), expires: hoursAgo(25) }), // untouched 24 h
    "dead-old-renoted.lock": holder(999994, "here", false, "s7", { at: hoursAgo(30), expires: hoursAgo(2) }), // left
    "dead-unreadable-time.lock": holder(999993, "here", false, "s8", { at: "x" }), // left: no time to judge by
    "live-sim.lock": holder(100, "here", true, "s3"),
    "elsewhere-sim.lock": holder(999997, "elsewhere", true, "s4"),
    "garbage.lock": "not JSON",
    "dead-sim.lock.takeover": holder(999996, "here", true, "s5"), // a dead taker's: cleared, not a lock ended
  };
  for (const [name, text] of Object.entries(planted)) writeFileSync(join(dir, name), text);
  const ended: unknown[] = [];
  const sweep = { directory: dir, fs: createNodeFileSystem(), clock, probe };
  // Even handed a session ender (composition does not), the sweep ends nothing: it opens no connection.
  const swept = await sweepStaleLocks(
    { ...sweep, endStaleSession: async (h: LockHolder) => void ended.push(h.appium_session_id) } as never,
  );
  assert.deepEqual(swept, { removed: 2 });
  assert.deepEqual(ended, []);
  const kept = Object.keys(planted).filter((name) => !name.startsWith("dead-sim") && name !== "dead-old.lock");
  assert.deepEqual(readdirSync(dir).sort(), kept.sort());
  // A directory that is not there yet sweeps nothing.
  assert.deepEqual(await sweepStaleLocks({ ...sweep, directory: join(dir, "missing") }), { removed: 0 });
});

test("a lock taken by a harness whose adb server runs in its own process says so; any other does not", async (t) => {
  const dir = tempDir(t);
  for (const inProcess of [true, false]) {
    const lock = createDeviceLock({
      directory: dir,
      fs: createNodeFileSystem(),
      clock,
      probe: createNodeProcessProbe(),
      adbServerInProcess: inProcess,
    });
    const lease = await lock.acquire(dev("emulator-5554"), owner("op-1"));
    const [name] = readdirSync(dir).filter((n) => n.endsWith(".lock"));
    assert.equal(JSON.parse(readFileSync(join(dir, name!), "utf8")).adb_server_in_process, inProcess ? true : undefined);
    await lease.release();
  }
});
