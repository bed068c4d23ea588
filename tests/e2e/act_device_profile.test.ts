/**
 * The act battery's promises with the device latency profile (issue 17): `serve` over real stdio against the
 * simulated device whose answers take a real phone's time, on a clock running ten times fast (a session start
 * 2 s instead of 20, a screencap 69 ms instead of 688) so the waits keep their proportions and the test its
 * pace. Navigation still arrives with evidence and the new screen; a hung act still frees the device within a
 * second of its timeout.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { assertEndedByDeadline } from "../support/time_bounds.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import {
  appiumSessions,
  type BatteryTarget,
  callTool,
  navigationArrivesWithEvidence,
  type Served,
  serveOn,
} from "../support/act_battery.ts";

const SPEED = 10;
const fastClock = { sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms / SPEED)) };

let target: BatteryTarget;
let served: Served;

before(async () => {
  const sim = await startSimDevice({ latency: "device", clock: fastClock });
  target = { sim, appiumUrl: sim.appiumUrl };
  served = await serveOn(target);
});

after(async () => {
  await served?.close();
  served?.home.remove();
  await target?.sim.stop();
});

test("with the device profile, navigation arrives where it says, leaves a PNG, and returns the new screen", () =>
  navigationArrivesWithEvidence(target, served));

test("with the device profile, an act in an open session answers the settled screen with its evidence", async () => {
  const s = served.server;
  const id = (await callTool(s, "ui_session_open")).data["session_id"];
  try {
    const tapped = await callTool(s, "ui_tap", { selector: { text: "Display" }, session_id: id });
    assert.equal(tapped.ok, true, JSON.stringify(tapped.error));
    assert.deepEqual([tapped.data["settled"], tapped.data["changed"], target.sim.device.screenId()], [true, true, "display"]);
    const observed = await callTool(s, "ui_get_tree");
    assert.deepEqual(tapped.data["screen"], observed.data, "the act's summary is the screen ui_get_tree sees next");
    const back = await callTool(s, "device_back", { session_id: id });
    assert.equal(back.ok, true, JSON.stringify(back.error));
    assert.equal(target.sim.device.screenId(), "settings_home");
  } finally {
    await callTool(s, "ui_session_close", { session_id: id });
  }
});

test("with the device profile, an act that hangs past its timeout frees the device within a second of it", async () => {
  const quick = await serveOn(target, { ANDROID_MCP_ACTION_TIMEOUT: "4" }, served.home);
  try {
    const sessionsBefore = await appiumSessions(target.appiumUrl);
    // The bound of "free within a second" on this machine now: a ui_get_tree measured in the same run.
    const baselineAt = Date.now();
    assert.equal((await callTool(served.server, "ui_get_tree")).ok, true);
    const baselineMs = Date.now() - baselineAt;
    target.sim.device.faults.hangCommands = ["screencap"]; // the evidence screenshot never comes
    const started = Date.now();
    const hung = await callTool(quick.server, "device_back");
    assert.equal(hung.error?.code, "OPERATION_TIMEOUT", JSON.stringify(hung));
    assertEndedByDeadline(Date.now() - started, 4000, "the hung act's OPERATION_TIMEOUT");
    target.sim.device.faults.hangCommands = [];
    const freedAt = Date.now();
    const next = await callTool(served.server, "ui_get_tree");
    assert.equal(next.ok, true, JSON.stringify(next.error));
    const nextMs = Date.now() - freedAt;
    assert.ok(
      nextMs < 3 * baselineMs + 1000,
      `the next call is served as fast as an unhindered one (${nextMs} ms, baseline ${baselineMs} ms)`,
    );
    assert.deepEqual(await appiumSessions(target.appiumUrl), sessionsBefore, "the timed-out act's session was deleted");
  } finally {
    target.sim.device.faults.hangCommands = [];
    await quick.close();
  }
});
