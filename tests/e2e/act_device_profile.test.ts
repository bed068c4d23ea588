/**
 * The act battery's promises with the device latency profile (issue 17): `serve` over real stdio against the
 * simulated device whose answers take a real phone's time, on a clock running ten times fast (a session start
 * 2 s instead of 20, a screencap 69 ms instead of 688) so the waits keep their proportions and the test its
 * pace. Navigation still arrives with evidence and the new screen; a hung act still frees the device within a
 * second of its timeout.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startSimDevice } from "../../src/sim/mod.ts";
import {
  type BatteryTarget,
  callTool,
  hungActFreesTheDevice,
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
    assert.deepEqual(
      { ...(tapped.data["screen"] as object), fingerprint: undefined },
      { ...observed.data, fingerprint: undefined },
      "the act's summary is the screen ui_get_tree sees next (which takes no screenshot: no fingerprint)",
    );
    const back = await callTool(s, "device_back", { session_id: id });
    assert.equal(back.ok, true, JSON.stringify(back.error));
    assert.equal(target.sim.device.screenId(), "settings_home");
  } finally {
    await callTool(s, "ui_session_close", { session_id: id });
  }
});

test("with the device profile, an act that hangs past its timeout frees the device within a second of it", () =>
  hungActFreesTheDevice(target, served, 20));
