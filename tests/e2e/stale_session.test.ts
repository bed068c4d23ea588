/**
 * A takeover after SIGKILL ends the dead owner's Appium session (issue 18 defect 9, oracle reliability R37):
 * a compiled `serve` holding a UI session is killed with SIGKILL; the simulated device runs in this test
 * process, so it outlives the server and keeps serving the dead client's session as Appium does until its
 * newCommandTimeout. Right after the next server's first call, that session is no longer listed nor alive.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { adbServerAddress } from "../../src/adapters/adb/mod.ts";
import { currentUserFacts, lockDirectory, lockFileName } from "../../src/adapters/evidence/mod.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { appiumSessions, type BatteryTarget, callTool, type Served, serveOn } from "../support/act_battery.ts";
import { pidGoneWithin } from "../support/mcp_e2e.ts";
import { LOADED_WAIT_MS } from "../support/time_bounds.ts";

let target: BatteryTarget;
const started: Served[] = [];

before(async () => {
  const sim = await startSimDevice({});
  target = { sim, appiumUrl: sim.appiumUrl };
});

after(async () => {
  for (const s of started) {
    await s.close(); // kills the process by its PID if it is still alive
    s.home.remove();
  }
  await target?.sim.stop();
});

async function serve(): Promise<Served> {
  const served = await serveOn(target);
  started.push(served);
  return served;
}

function lockFile(): string {
  return join(
    lockDirectory(currentUserFacts(process.platform, "")).path,
    lockFileName({ adbServer: adbServerAddress(target.sim.adbServerSocket), udid: target.sim.device.serial }),
  );
}

/** Whether the UiAutomator2 endpoint still serves a command in this session (a page source read). */
async function serves(sessionId: string): Promise<boolean> {
  const answer = await fetch(`${target.sim.appiumUrl}/session/${sessionId}/source`);
  await answer.arrayBuffer();
  return answer.status === 200;
}

async function waitForExit(pid: number): Promise<void> {
  if (!(await pidGoneWithin(pid, LOADED_WAIT_MS))) assert.fail(`serve ${pid} still runs after SIGKILL`);
}

/** A serve opens a UI session and is killed with SIGKILL: its Appium session id, still served by the device. */
async function killedHolder(): Promise<string> {
  const holder = await serve();
  const opened = await callTool(holder.server, "ui_session_open");
  assert.equal(opened.ok, true, JSON.stringify(opened.error));
  const noted = JSON.parse(readFileSync(lockFile(), "utf8")) as { appium_session_id?: string; pid: number };
  assert.equal(noted.pid, holder.server.pid, "the lock is the holder's");
  const id = noted.appium_session_id;
  assert.ok(typeof id === "string", "the lock notes the Appium session id");
  process.kill(holder.server.pid!, "SIGKILL");
  await waitForExit(holder.server.pid!);
  // The precondition the test stands on: the dead client's session is still there and served, as on Appium.
  assert.ok((await appiumSessions(target.sim.appiumUrl)).includes(id), "the dead holder's session is still listed");
  assert.equal(await serves(id), true, "the dead holder's session is still served");
  return id;
}

test("SIGKILL of a server holding a UI session: the next server's first call ends that session (R37)", async () => {
  const left = await killedHolder();
  const next = await serve();
  const status = await callTool(next.server, "device_status");
  assert.equal(status.ok, true, JSON.stringify(status.error));
  assert.equal((await appiumSessions(target.sim.appiumUrl)).includes(left), false, "the dead owner's session is no longer listed");
  assert.equal(await serves(left), false, "the dead owner's session is no longer served");
  assert.match(next.server.stderr(), new RegExp(`ended the Appium session ${left} left by dead process \\d+ \\(HTTP 200\\)`));
});

test("a takeover that opens a session of its own ends the dead owner's first, so it is not merely replaced (R37)", async () => {
  const before = await appiumSessions(target.sim.appiumUrl);
  const left = await killedHolder();
  const next = await serve();
  const opened = await callTool(next.server, "ui_session_open");
  assert.equal(opened.ok, true, JSON.stringify(opened.error));
  const now = await appiumSessions(target.sim.appiumUrl);
  assert.equal(now.includes(left), false, "the dead owner's session is no longer listed");
  assert.equal(now.length, before.filter((id) => id !== left).length + 1, `only the new session is added: ${JSON.stringify(now)}`);
  await callTool(next.server, "ui_session_close", { session_id: opened.data["session_id"] });
  assert.deepEqual(await appiumSessions(target.sim.appiumUrl), before, "nothing is left behind");
});
