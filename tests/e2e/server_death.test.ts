/**
 * A server killed with SIGKILL in the middle of a call leaves no adb child behind (oracle reliability R16):
 * the compiled `serve` on real stdio is stuck in a screencap the simulated device never answers; SIGKILL of
 * the server must take its adb child with it. Linux only (/proc and the parent-death signal).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { join } from "node:path";
import { adbServerAddress } from "../../src/adapters/adb/adb_server_address.ts";
import { currentUserFacts, lockDirectory, lockFileName } from "../../src/adapters/evidence/mod.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { envelopeOf, type SpawnedServer, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";

const skip = process.platform === "linux" && existsSync("/proc") ? false : "needs Linux /proc to find the adb child";
let sim: Awaited<ReturnType<typeof startSimDevice>>;
let home: ServeHome;
let served: SpawnedServer | undefined;

before(async () => {
  sim = await startSimDevice({});
  home = makeServeHome();
});

after(async () => {
  await served?.close();
  await sim?.stop();
  home?.remove();
});

/**
 * Pids of every live screencap process on this test's simulated device, with its parent. Every simulated
 * device is `emulator-5554`, so the serial alone would also match (and this test would kill) another test's
 * screencap: a process is this test's when its environment names this device's adb socket.
 */
function screencapProcesses(): { pid: number; ppid: number; args: string }[] {
  const out = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" });
  return out.split("\n").map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line)).filter((m) => m !== null)
    .map((m) => ({ pid: Number(m![1]), ppid: Number(m![2]), args: m![3]! }))
    .filter((p) => p.args.includes("screencap") && p.args.includes(sim.device.serial) && !p.args.includes("ps -eo"))
    .filter((p) => onThisSim(p.pid));
}

/** Whether the process's environment holds ADB_SERVER_SOCKET for this test's simulated device. */
function onThisSim(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`ADB_SERVER_SOCKET=${sim.adbServerSocket}`);
  } catch {
    return false; // gone, or another user's
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+\s+\S+\s+Z/.test(execFileSync("ps", ["-o", "pid=,ppid=,stat=", "-p", String(pid)], { encoding: "utf8" }).trim());
  } catch {
    return false;
  }
}

test(
  "SIGKILL of the server mid-call leaves no orphaned adb child, and its lock is taken over by the next server (R16 R17)",
  { skip },
  async () => {
    served = await spawnServe([], {
      ...home.env,
      ADB_SERVER_SOCKET: sim.adbServerSocket,
      ANDROID_UDID: sim.device.serial,
      ANDROID_MCP_ACTION_TIMEOUT: "60",
    });
    sim.device.faults.hangCommands = ["screencap"];
    const pending = served.client.callTool({ name: "ui_screenshot", arguments: {} }).catch(() => null);
    const deadline = Date.now() + 10_000;
    let children: { pid: number; ppid: number; args: string }[] = [];
    while (Date.now() < deadline) {
      children = screencapProcesses();
      if (children.some((c) => /\badb\b/.test(c.args)) && sim.device.log.slice(-5).some((e) => e.command.includes("screencap"))) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(children.length > 0, "the adb screencap child is running");
    process.kill(served.pid!, "SIGKILL");
    const gone = Date.now() + 3_000;
    while (children.some((c) => alive(c.pid)) && Date.now() < gone) await new Promise((r) => setTimeout(r, 20));
    sim.device.faults.hangCommands = [];
    const left = children.filter((c) => alive(c.pid));
    for (const c of left) process.kill(c.pid, "SIGKILL"); // clean up what the defect left
    assert.deepEqual(left.map((c) => c.args), [], "adb children outlived the server");
    await pending;
    // The dead holder's lock is taken over by the next server on this device, which leaves none behind (R17).
    const lockFile = join(
      lockDirectory(currentUserFacts(process.platform, "")).path,
      lockFileName({ adbServer: adbServerAddress(sim.adbServerSocket), udid: sim.device.serial }),
    );
    assert.ok(existsSync(lockFile), "the killed holder's lock is still there");
    const next = await spawnServe([], { ...home.env, ADB_SERVER_SOCKET: sim.adbServerSocket, ANDROID_UDID: sim.device.serial });
    try {
      const status = envelopeOf(await next.client.callTool({ name: "device_status", arguments: {} }));
      assert.equal(status.ok, true, JSON.stringify(status.error));
    } finally {
      await next.close();
    }
    assert.equal(existsSync(lockFile), false, "no lock is left");
  },
);
