/**
 * The hardening section: issue 18's defects, tried again on every run so they stay fixed (reliability R29–R38).
 * On one lane (the login scenario): a typed password is in no answer nor audit line (1), a URL's token is in no
 * audit line (R38), a non-PNG and a hard-linked file planted under evidence names are neither listed nor served
 * (4), a cancelled call is audited `cancelled` (8), SIGHUP of a session holder leaves no session and no lock (5),
 * and the next server after a SIGKILLed session holder ends the session it left (9: its warm session, leased;
 * after that takeover no session and no lock remain). Beside it: two
 * `serve --record` on one path, the second refused (3); a FIFO path argument refused at once (6); as root, a
 * lock directory squatted by root does not block another user (7; skipped, with the reason, otherwise); a holder of
 * the device's own lock on another machine is honoured until its lease, then taken over (issue 25 defect 5). Then
 * issue 25's secrets defects (hardening_secrets.ts) and its leaks (leaks.ts).
 */
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DEVICE_LOCK_DIRECTORY } from "../../src/adapters/adb/device_side_lock.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { harnessCommand, MAIN_JS, spawnServe } from "../../tests/support/mcp_client.ts";
import { makeServeHome } from "../../tests/support/mcp_e2e.ts";
import { rawXmlMasking, recordedSecrets } from "./hardening_secrets.ts";
import { Lane, lockPathOf } from "./lane.ts";
import { runLeaks } from "./leaks.ts";
import type { Tally } from "./tally.ts";

const SECRET = "Hunter2-S3cr3t!pw";
const TOKEN = "tok-5ecr3t-Q9xv";
const PASSWORD = { resource_id: "com.example.shop:id/password" };
/** The longest a child may take to start, answer or exit on a loaded two-core machine before it counts as hung. */
const WAIT_MS = 60_000;

export async function runHardening(tally: Tally): Promise<void> {
  const started = performance.now();
  const before = { calls: tally.callsMade, inputs: tally.inputsTried };
  const done: string[] = [];
  try {
    await onOneLane(tally, done);
    await recordTwice(tally, done);
    await fifoArguments(tally, done);
    await squattedLocks(tally, done);
    await lockOnTheDevice(tally, done);
    await rawXmlMasking(tally, done);
    await recordedSecrets(tally, done);
    await runLeaks(tally, done);
  } catch (error) {
    tally.violation("campaign errors", `hardening: ${(error as Error).stack ?? String(error)}`);
  } finally {
    tally.figure(`hardening: ${done.join("; ")}`);
    tally.section("hardening", tally.callsMade - before.calls, tally.inputsTried - before.inputs, (performance.now() - started) / 1000);
  }
}

async function onOneLane(tally: Tally, done: string[]): Promise<void> {
  // A lease lives 60 s unused: spawning a second server on a loaded machine took past the default 5 s.
  const lane = await Lane.open({ name: "hardening", sim: { scenario: "login" }, idleTimeoutS: 60 });
  const audit = () => {
    const path = join(lane.home.artifacts, "audit.jsonl");
    return existsSync(path) ? readFileSync(path, "utf8") : "";
  };
  try {
    // 1: a typed password never comes back, and is in no audit line.
    const answers: string[] = [];
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      tally.inputsTried++;
      const answer = await lane.call({ name, arguments: args }, tally);
      answers.push(JSON.stringify(answer));
      return answer.kind === "envelope" ? answer.envelope : null;
    };
    const opened = await call("ui_session_open");
    const session = opened?.ok === true ? String(opened.data["session_id"]) : undefined;
    await call("ui_type_text", { selector: PASSWORD, text: SECRET, ...(session === undefined ? {} : { session_id: session }) });
    await call("ui_get_tree", { include_raw: true });
    if (session !== undefined) await call("ui_session_close", { session_id: session });
    // R38: a URL's token is in no audit line (whatever the link opens on this scenario).
    await call("app_open_url", { url: `https://shop.example/item?token=${TOKEN}#${TOKEN}` });
    const leaks = answers.filter((a) => a.includes(SECRET)).length;
    if (leaks > 0) tally.violation("secrets leaked", `hardening: the typed password is in ${leaks} answer(s)`);
    if (audit().includes(SECRET)) tally.violation("secrets leaked", "hardening: the typed password is in the audit log");
    if (audit().includes(TOKEN)) tally.violation("secrets leaked", "hardening: a URL's query or fragment is in the audit log");
    done.push("a typed password and a URL token in no answer or audit line");

    await plantedEvidence(lane, tally);
    done.push("planted evidence neither listed nor served");
    await cancelledCall(lane, tally);
    done.push("a cancelled call audited cancelled");
    await hangUp(lane, tally);
    done.push("SIGHUP of a session holder: no session, no lock");
    await killedHolderSession(lane, tally);
    done.push("the session a SIGKILLed holder left ended by the next server");
    await lane.finish(tally);
  } catch (error) {
    await lane.dispose();
    throw error;
  }
}

/** 4: a non-PNG and a hard link to a file outside, under evidence names: neither listed nor served. */
async function plantedEvidence(lane: Lane, tally: Tally): Promise<void> {
  tally.inputsTried++;
  const shot = await lane.call({ name: "ui_screenshot", arguments: {} }, tally);
  if (shot.kind !== "envelope" || shot.envelope.evidence === null) {
    tally.violation("campaign errors", "hardening: ui_screenshot named no evidence");
    return;
  }
  const outside = join(lane.home.root, "outside.png");
  writeFileSync(outside, readFileSync(shot.envelope.evidence.path)); // a real PNG, but not the harness's file
  const planted = ["20260101-000000-000008-ui-tap.png", "20260101-000000-000009-ui-tap.png"];
  writeFileSync(join(lane.home.artifacts, planted[0]!), "root:x:0:0:root:/root:/bin/bash\n");
  linkSync(outside, join(lane.home.artifacts, planted[1]!));
  tally.faultsInjected += planted.length;
  try {
    const listed = (await lane.server.client.listResources()).resources.map((r) => r.uri);
    if (!listed.includes(shot.envelope.evidence.uri)) {
      tally.violation("campaign errors", "hardening: resources/list left out real evidence");
    }
    for (const name of planted) {
      if (listed.includes(`artifact://${name}`)) {
        tally.violation("file rules broken", `hardening: resources/list lists the planted ${name}`);
      }
      const read = await lane.server.client.readResource({ uri: `artifact://${name}` }).then(() => true, () => false);
      if (read) tally.violation("file rules broken", `hardening: resources/read served the planted ${name}`);
    }
  } finally {
    for (const name of planted) rmSync(join(lane.home.artifacts, name), { force: true });
  }
}

/** 8: a call the client cancels (notifications/cancelled) is audited `cancelled`, not OPERATION_TIMEOUT. */
async function cancelledCall(lane: Lane, tally: Tally): Promise<void> {
  const path = join(lane.home.artifacts, "audit.jsonl");
  const lines = () => readFileSync(path, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as AuditLine);
  const from = lines().length;
  lane.sim.device.setFaults({ hangCommands: ["screencap"] });
  tally.faultsInjected++;
  const controller = new AbortController();
  const log = lane.sim.device.log.length;
  const pending = lane.server.client.callTool({ name: "ui_screenshot", arguments: {} }, undefined, { signal: controller.signal })
    .catch(() => null);
  await until(() => lane.sim.device.log.slice(log).some((e) => e.command.includes("screencap")));
  controller.abort("the campaign changed its mind");
  await pending;
  const line = await until(() => lines().slice(from).find((l) => l.tool === "ui_screenshot"));
  lane.sim.device.setFaults({ hangCommands: [] });
  if (line === undefined) {
    tally.violation("audit lines missing or extra", "hardening: no audit line for the cancelled call");
    return;
  }
  lane.operations.add(line.operation_id); // no envelope names it: the client cancelled it
  if (line.outcome !== "cancelled") tally.violation("cut-off calls misreported", `hardening: a cancelled call audited as ${line.outcome}`);
}

interface AuditLine {
  operation_id: string;
  tool: string;
  outcome: string;
}

/** 5: SIGHUP (a closed terminal) of a server holding a UI session: the session is deleted and the lock removed. */
async function hangUp(lane: Lane, tally: Tally): Promise<void> {
  tally.inputsTried++;
  const opened = await lane.call({ name: "ui_session_open", arguments: {} }, tally);
  if (opened.kind !== "envelope" || !opened.envelope.ok) return tally.violation("campaign errors", "hardening: ui_session_open failed");
  tally.faultsInjected++;
  process.kill(lane.server.pid!, "SIGHUP");
  if (!(await exited(lane.server.pid!))) tally.violation("hangs", "hardening: serve still runs 60 s after SIGHUP");
  await lane.checkLeftovers(tally, "after SIGHUP of a session holder", { warm: false });
  lane.server = await lane.spawnSibling();
}

/** 9: SIGKILL of a session holder; the next server's first call ends the session it left (its id is in the lock). */
async function killedHolderSession(lane: Lane, tally: Tally): Promise<void> {
  tally.inputsTried++;
  const opened = await lane.call({ name: "ui_session_open", arguments: {} }, tally);
  if (opened.kind !== "envelope" || !opened.envelope.ok) return tally.violation("campaign errors", "hardening: ui_session_open failed");
  const id = (JSON.parse(readFileSync(lockPathOf(lane.sim), "utf8")) as { appium_session_id?: string }).appium_session_id;
  if (id === undefined) return tally.violation("orphaned sessions", "hardening: the lock of an open session names no Appium session");
  await leaseExcludes(lane, tally);
  tally.faultsInjected++;
  process.kill(lane.server.pid!, "SIGKILL");
  await exited(lane.server.pid!);
  lane.server = await lane.spawnSibling();
  tally.inputsTried++;
  const next = await lane.call({ name: "device_status", arguments: {} }, tally);
  if (next.kind !== "envelope" || !next.envelope.ok) tally.violation("leaked locks", "hardening: the call after a SIGKILLed holder failed");
  const listed = await fetch(`${lane.sim.appiumUrl}/appium/sessions`).then((r) => r.json()) as { value: { id: string }[] };
  if (listed.value.some((s) => s.id === id)) {
    tally.violation("orphaned sessions", `hardening: the session ${id} of a SIGKILLed holder is still there after the next server's call`);
  }
  // The next server's call observed: it started no session of its own, so nothing may be left.
  await lane.checkLeftovers(tally, "after a SIGKILLed session holder's takeover", { warm: false });
}

/** The lease holds the device: a session-less act of its own server and any call of another process get EMULATOR_BUSY. */
async function leaseExcludes(lane: Lane, tally: Tally): Promise<void> {
  const other = await lane.spawnSibling();
  try {
    for (const [who, server] of [["its own server", lane.server], ["another process", other]] as const) {
      tally.inputsTried++;
      const answer = await lane.call({ name: "device_back", arguments: {} }, tally, server);
      const code = answer.kind === "envelope" ? answer.envelope.error?.code ?? "ok" : answer.kind;
      if (code !== "EMULATOR_BUSY") {
        tally.violation("contention failures", `hardening: a session-less device_back of ${who} during a lease answered ${code}`);
      }
    }
  } finally {
    await other.close();
  }
}

/** 3: two `serve --record` on one path, started together: one records, the other is refused at start. */
async function recordTwice(tally: Tally, done: string[]): Promise<void> {
  const home = makeServeHome();
  const path = join(home.root, "same.json");
  tally.inputsTried += 2;
  const servers = await Promise.allSettled([0, 1].map(() => spawnServe(["--device", "sim", "--record", path], home.env)));
  try {
    const started = servers.filter((s) => s.status === "fulfilled").length;
    if (started !== 1) tally.violation("file rules broken", `hardening: ${started} of two serve --record on one path started`);
    const refusal = servers.find((s) => s.status === "rejected");
    if (refusal !== undefined && !/--record: cannot create .*already exists/.test(String(refusal.reason))) {
      tally.violation("file rules broken", `hardening: the second --record was refused for another reason: ${String(refusal.reason)}`);
    }
    done.push("two serve --record on one path: the second refused");
  } finally {
    for (const s of servers) if (s.status === "fulfilled") await s.value.close();
    home.remove();
  }
}

/** 6: a FIFO as a path argument is refused at once with the usage code, never read. */
async function fifoArguments(tally: Tally, done: string[]): Promise<void> {
  if (process.platform === "win32") return void done.push("FIFO arguments: skipped (no FIFOs here)");
  const home = makeServeHome();
  try {
    const fifo = join(home.root, "f");
    execFileSync("mkfifo", [fifo]);
    for (const [args, code] of [[["tree", "--file", fifo], 2], [["flow", fifo, "--device", "sim"], 1]] as const) {
      tally.inputsTried++;
      const ran = await runBinary([...args], home.env);
      if (ran.code === null) tally.violation("hangs", `hardening: ${args[0]} on a FIFO still ran after ${WAIT_MS / 1000} s`);
      else if (ran.code !== code || !/FIFO/.test(ran.stderr)) {
        tally.violation("file rules broken", `hardening: ${args[0]} on a FIFO exited ${ran.code}: ${ran.stderr.slice(0, 200)}`);
      }
    }
    done.push("FIFO path arguments refused at once");
  } finally {
    home.remove();
  }
}

/** 7 (root only): root squats /tmp/android-mcp-harness-<uid>; that user's serve still answers, in a lock directory of its own. */
async function squattedLocks(tally: Tally, done: string[]): Promise<void> {
  const uid = 54_329; // no account; not the e2e test's
  const squatted = `/tmp/android-mcp-harness-${uid}`;
  const skip = process.platform !== "linux"
    ? "Linux only"
    : process.getuid?.() !== 0
    ? "needs root"
    : existsSync(squatted)
    ? `${squatted} already exists`
    : closedToOthers(MAIN_JS);
  if (skip !== null) return void done.push(`squatted lock directory: skipped (${skip})`);
  mkdirSync(squatted, { mode: 0o755 });
  chmodSync(squatted, 0o755);
  const home = makeServeHome();
  chmodSync(home.root, 0o755);
  chownSync(home.root, uid, uid);
  tally.faultsInjected++;
  tally.inputsTried++;
  try {
    const served = await spawnServe(["--device", "sim"], home.env, { runAs: { uid, gid: uid } });
    try {
      const status = await served.client.callTool({ name: "device_status", arguments: {} });
      const ok = (status.structuredContent as { ok?: unknown } | undefined)?.ok === true;
      if (!ok) tally.violation("file rules broken", `hardening: a squatted lock directory blocked device_status of uid ${uid}`);
      if (readdirSync(squatted).length > 0) {
        tally.violation("file rules broken", "hardening: a lock was written into root's squatted directory");
      }
    } finally {
      await served.close();
    }
    done.push("a lock directory squatted by root does not block another user");
  } finally {
    rmSync(squatted, { recursive: true, force: true });
    home.remove();
  }
}

/** Issue 25 defect 5: another machine's holder of the lock on the device (its note planted there, as every client of
 * the adb server sees it) keeps the device until its lease: EMULATOR_BUSY naming it; past the lease, taken over. */
async function lockOnTheDevice(tally: Tally, done: string[]): Promise<void> {
  const sim = await startSimDevice({});
  const home = makeServeHome();
  tally.faultsInjected++;
  try {
    const served = await spawnServe([], { ...home.env, ADB_SERVER_SOCKET: sim.adbServerSocket, ANDROID_UDID: sim.device.serial });
    const plant = (leaseMs: number) => {
      sim.device.files.directories.add(DEVICE_LOCK_DIRECTORY);
      const note = { pid: 4242, host: "campaign-other-machine", uid: 1001, operation_id: "op-far", tool: "ui_tap", token: "far" };
      const lease = new Date(Date.now() + leaseMs).toISOString();
      const text = JSON.stringify({ ...note, acquired_at: lease, lease_expires_at: lease });
      sim.device.files.set(`${DEVICE_LOCK_DIRECTORY}/holder`, new TextEncoder().encode(text));
    };
    const status = async () => {
      tally.inputsTried++;
      tally.callsMade++;
      const answer = await served.client.callTool({ name: "device_status", arguments: {} });
      return answer.structuredContent as { ok?: boolean; error?: { code?: string; details?: Record<string, unknown> } };
    };
    try {
      plant(3_600_000);
      const held = await status();
      if (held.error?.code !== "EMULATOR_BUSY" || held.error.details?.["holder_host"] !== "campaign-other-machine") {
        tally.violation(
          "contention failures",
          `hardening: another machine's live lock on the device was not honoured: ${JSON.stringify(held)}`,
        );
      }
      plant(-1000);
      if ((await status()).ok !== true) {
        tally.violation("contention failures", "hardening: a lock on the device past its lease was not taken over");
      }
      if (sim.device.files.directories.has(DEVICE_LOCK_DIRECTORY)) {
        tally.violation("leaked locks", "hardening: the lock on the device stayed after the call");
      }
    } finally {
      await served.close();
    }
    done.push("a lock on the device held by another machine is honoured until its lease, then taken over");
  } finally {
    await sim.stop();
    home.remove();
  }
}

/** Null when another user can run the harness from here; else why not (a folder on the way closed to others). */
function closedToOthers(file: string): string | null {
  if ((statSync(file).mode & 0o004) === 0) return `${file} is closed to other users`;
  for (let dir = dirname(file);; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return `${dir} is closed to other users`;
    if (dirname(dir) === dir) return null;
  }
}

function runBinary(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const [command, ...prefix] = harnessCommand();
  const child = spawn(command, [...prefix, ...args], { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => void (stderr += c.toString("utf8")));
  let hung = false;
  const killer = setTimeout(() => ((hung = true), child.kill("SIGKILL")), WAIT_MS);
  return new Promise((resolve) => child.on("close", (code) => (clearTimeout(killer), resolve({ code: hung ? null : code, stderr }))));
}

async function exited(pid: number): Promise<boolean> {
  return (await until(() => {
    try {
      process.kill(pid, 0);
      return undefined;
    } catch {
      return true;
    }
  })) === true;
}

/** Polls `probe` every 20 ms until it gives a value (not undefined/false), at most WAIT_MS. */
async function until<T>(probe: () => T | undefined | false): Promise<T | undefined> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}
