/**
 * The warm device through the compiled `serve` over real stdio and the simulated device (issue 24 items 2 and 3):
 * many session-less acts are served by one `POST /session` (counted in the sim's command log), observing reads
 * through that session, and a server killed with SIGKILL while its warm session is idle leaves it noted in the lock
 * file, so the next server's first call ends it (UiAutomator2 never holds two). The sim runs in this test's process,
 * so it outlives the killed server and keeps serving the dead client's session as Appium does.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { adbServerAddress } from "../../src/adapters/adb/mod.ts";
import { currentUserFacts, lockDirectory, lockFileName } from "../../src/adapters/evidence/mod.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { appiumSessions, type BatteryTarget, callTool, type Served, serveOn, sessionsAt } from "../support/act_battery.ts";
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

async function serve(warmSeconds: string): Promise<Served> {
  const served = await serveOn(target, { ANDROID_MCP_WARM_IDLE_TIMEOUT: warmSeconds });
  started.push(served);
  return served;
}

const sessionStarts = (from: number) =>
  target.sim.device.log.slice(from).filter((e) => e.source === "uia2" && e.command.startsWith("new session")).length;

function lockNote(): { pid: number; appium_session_id?: string } {
  const path = join(
    lockDirectory(currentUserFacts(process.platform, "")).path,
    lockFileName({ adbServer: adbServerAddress(target.sim.adbServerSocket), udid: target.sim.device.serial }),
  );
  return JSON.parse(readFileSync(path, "utf8")) as { pid: number; appium_session_id?: string };
}

test("one POST /session serves many session-less acts; SIGKILL of that server: the next one's first call ends its warm session", async () => {
  const before = await appiumSessions(sessionsAt(target));
  const from = target.sim.device.log.length;
  const warm = await serve("300");
  const calls: [string, Record<string, unknown>][] = [
    ["settings_open", {}],
    ["ui_tap", { selector: { text: "Network & internet" } }],
    ["ui_get_tree", {}],
    ["device_back", {}],
    ["ui_tap", { selector: { text: "Display" } }],
    ["device_back", {}],
  ];
  for (const [name, args] of calls) {
    const answer = await callTool(warm.server, name, args);
    assert.equal(answer.ok, true, `${name}: ${JSON.stringify(answer.error)}`);
  }
  assert.equal(sessionStarts(from), 1, "one session start for five acts");
  const live = (await appiumSessions(sessionsAt(target))).filter((id) => !before.includes(id));
  assert.equal(live.length, 1, "the warm session stays between acts");
  const note = lockNote();
  assert.equal(note.pid, warm.server.pid, "the warm session holds the device's lock");
  assert.equal(note.appium_session_id, live[0], "and the lock names it");

  process.kill(warm.server.pid!, "SIGKILL");
  if (!(await pidGoneWithin(warm.server.pid!, LOADED_WAIT_MS))) assert.fail("serve still runs after SIGKILL");
  assert.ok((await appiumSessions(sessionsAt(target))).includes(live[0]!), "the dead server's warm session is still there");
  const next = await serve("0");
  const status = await callTool(next.server, "device_status");
  assert.equal(status.ok, true, JSON.stringify(status.error));
  assert.deepEqual(await appiumSessions(sessionsAt(target)), before, "the takeover ended the dead owner's warm session");
  assert.match(next.server.stderr(), new RegExp(`ended the Appium session ${live[0]} left by dead process \\d+ \\(HTTP 200\\)`));
});
