/**
 * The load section: `clients` MCP clients, each with its own `serve` process, drive one simulated device at
 * once for a bounded time with a mix of observe and act calls. Invariants: every answer is `ok` or
 * EMULATOR_BUSY (any other code means two operations met on the device), EMULATOR_BUSY comes at once (no
 * queue), every call answers (no deadlock), the UiAutomator2 server never lists two sessions at once. The odd
 * lanes run one session per act, the even ones keep the warm device (the lock held from their first act on, so the
 * first even lane to act serves the rest of the run and the others meet EMULATOR_BUSY). Then the lock's holder is
 * killed with SIGKILL in the middle of a call: its adb child must die with it, the next call of another process
 * must succeed (the dead holder's lock is taken over, its warm session ended), and no session and no lock are
 * left afterwards.
 */
import { readdirSync, readFileSync } from "node:fs";
import { startSimDevice } from "../../src/sim/mod.ts";
import type { ToolCallParams } from "./invariants.ts";
import { Lane } from "./lane.ts";
import type { Tally } from "./tally.ts";

export interface LoadOptions {
  clients: number;
  seconds: number;
  seed: number;
}

const MIX: readonly ToolCallParams[] = [
  { name: "device_status", arguments: {} },
  { name: "ui_get_tree", arguments: {} },
  { name: "app_list", arguments: {} },
  { name: "ui_screenshot", arguments: {} },
  { name: "ui_scroll", arguments: { direction: "down" } },
  { name: "ui_scroll", arguments: { direction: "up" } },
  { name: "device_back", arguments: {} },
  { name: "settings_open", arguments: {} },
];

/** A small seeded generator (mulberry32), so a run can be replayed with --seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function runLoad(options: LoadOptions, tally: Tally): Promise<void> {
  const started = performance.now();
  const before = { calls: tally.callsMade, inputs: tally.inputsTried };
  const sim = await startSimDevice({});
  const lanes: Lane[] = [];
  try {
    for (let i = 0; i < options.clients; i++) {
      lanes.push(await Lane.open({ name: `load#${i}`, shared: sim, actionTimeoutS: 20, idleTimeoutS: 30, perAct: i % 2 === 1 }));
    }
    tally.concurrentClients = Math.max(tally.concurrentClients, options.clients);
    const baseline = await lanes[0]!.sessions();
    let maxSessions = baseline;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        maxSessions = Math.max(maxSessions, await lanes[0]!.sessions().catch(() => 0));
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const counts = new Map<string, number>();
    const busyMs: number[] = [];
    const end = Date.now() + options.seconds * 1000;
    await Promise.all(lanes.map(async (lane, index) => {
      const next = random(options.seed * 31 + index);
      while (Date.now() < end) {
        const params = MIX[Math.floor(next() * MIX.length)]!;
        tally.inputsTried++;
        const t0 = performance.now();
        const answer = await lane.call(params, tally);
        const ms = performance.now() - t0;
        if (answer.kind !== "envelope") continue; // counted by the lane
        const code = answer.envelope.error?.code ?? "ok";
        counts.set(code, (counts.get(code) ?? 0) + 1);
        if (code === "EMULATOR_BUSY") {
          busyMs.push(ms);
          if (ms > 2000) {
            tally.violation(
              "contention failures",
              `${lane.name} ${String(params.name)}: EMULATOR_BUSY after ${Math.round(ms)} ms, not at once`,
            );
          }
        } else if (code !== "ok") {
          tally.violation("contention failures", `${lane.name} ${String(params.name)}: ${code}: ${answer.envelope.error?.message}`);
        }
      }
    }));
    polling = false;
    await poller;
    if (maxSessions - baseline > 1) {
      tally.violation("contention failures", `the UiAutomator2 server listed ${maxSessions - baseline} sessions at once`);
    }
    busyMs.sort((a, b) => a - b);
    const pct = (p: number) => (busyMs.length === 0 ? 0 : Math.round(busyMs[Math.min(busyMs.length - 1, Math.floor(p * busyMs.length))]!));
    tally.figure(
      `load: ${options.clients} clients × ${options.seconds} s on one device: ${[...counts].map(([c, n]) => `${n} ${c}`).join(", ")}; ` +
        `EMULATOR_BUSY answered in p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${pct(1)} ms; at most ${
          maxSessions - baseline
        } session(s) listed at once`,
    );
    await killHolder(lanes, tally);
    for (const [i, lane] of lanes.entries()) await lane.finish(tally, { othersStopped: i === lanes.length - 1 });
  } catch (error) {
    tally.violation("campaign errors", `load: ${(error as Error).stack ?? String(error)}`);
    for (const lane of lanes) await lane.dispose();
  } finally {
    await sim.stop();
    tally.section("load", tally.callsMade - before.calls, tally.inputsTried - before.inputs, (performance.now() - started) / 1000);
  }
}

/**
 * SIGKILL of the server holding the device (the warm one, if a lane kept it) in a hung screencap: no adb child, the
 * device usable by the next call of another process, and after it no session and no lock left.
 */
async function killHolder(lanes: Lane[], tally: Tally): Promise<void> {
  const holder = lanes[0]!.lockNote()?.pid;
  const victim = lanes.find((lane) => lane.server.pid === holder) ?? lanes[0]!;
  const other = lanes.find((lane) => lane !== victim)!;
  const sim = victim.sim;
  // Its last act's PNG, taken behind that act's answer, is stored first: the SIGKILL is to land in this screenshot's
  // hung screencap, not in that capture (a server killed mid-capture cannot store what it named: docs/contract.md).
  await victim.settleEvidence(tally);
  sim.device.setFaults({ hangCommands: ["screencap"] });
  tally.faultsInjected++;
  const from = sim.device.log.length;
  const pending = victim.server.client.callTool({ name: "ui_screenshot", arguments: {} }).catch(() => null);
  const deadline = Date.now() + 10_000;
  while (!sim.device.log.slice(from).some((e) => e.command.includes("screencap")) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const held = victim.lockHeld();
  const children = adbChildrenOf(sim.adbServerSocket);
  process.kill(victim.server.pid!, "SIGKILL");
  await pending;
  const gone = Date.now() + 3000;
  while (adbChildrenOf(sim.adbServerSocket).some((pid) => children.includes(pid)) && Date.now() < gone) {
    await new Promise((r) => setTimeout(r, 20));
  }
  sim.device.setFaults({ hangCommands: [] });
  if (!held) tally.violation("campaign errors", "load: the victim did not hold the lock when it was killed");
  const orphans = adbChildrenOf(sim.adbServerSocket).filter((pid) => children.includes(pid));
  if (orphans.length > 0) {
    tally.violation("orphaned processes", `load: adb child(ren) ${orphans.join(", ")} outlived the SIGKILLed server`);
    for (const pid of orphans) process.kill(pid, "SIGKILL");
  }
  const next = await other.call({ name: "device_status", arguments: {} }, tally);
  if (next.kind !== "envelope" || !next.envelope.ok) {
    tally.violation(
      "leaked locks",
      `load: after the holder was killed, the next call answered ${
        next.kind === "envelope" ? `${next.envelope.error?.code}: ${next.envelope.error?.message}` : next.kind
      }`,
    );
  }
  await other.checkLeftovers(tally, "after the killed holder's lock was taken over and released", { warm: false });
  tally.figure(
    `load: holder SIGKILLed in a hung screencap: ${children.length} adb child(ren) before, ${orphans.length} left; the next call of another process: ${
      next.kind === "envelope" ? next.envelope.error?.code ?? "ok" : next.kind
    }`,
  );
  victim.server = await victim.spawnSibling();
}

/** Pids of running adb processes talking to this adb server socket (Linux /proc; empty elsewhere). */
function adbChildrenOf(socket: string): number[] {
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return pids;
  }
  for (const pid of entries) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!cmdline.includes("screencap")) continue;
      if (readFileSync(`/proc/${pid}/environ`, "utf8").includes(`ADB_SERVER_SOCKET=${socket}`)) pids.push(Number(pid));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}
