/**
 * End to end over real stdio (SPEC §10): `serve` processes act on a simulated device through its own
 * UiAutomator2 endpoint. Navigation arrives where it says and leaves evidence; the returned summary is the
 * new screen; two simultaneous acts never share the device (two calls on one server, two server
 * processes); no session is left behind; a hung act frees the device at once after its timeout;
 * SIGTERM during an open session deletes it.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { DEVICE_LOCK_DIRECTORY } from "../../src/adapters/adb/device_side_lock.ts";
import { type LogEntry, startSimDevice } from "../../src/sim/mod.ts";
import { assertEndedByDeadline } from "../support/time_bounds.ts";
import {
  type BatteryTarget,
  callTool,
  hungActFreesTheDevice,
  navigationArrivesWithEvidence,
  noSessionLeftBehind,
  type Served,
  serveOn,
  sigtermDeletesTheSession,
} from "../support/act_battery.ts";

/** The device-side lock's takes and frees, in the device's order (the lock's own shell lines, device_side_lock.ts). */
function deviceLockSteps(entries: readonly LogEntry[]): string[] {
  return entries.filter((e) => e.source === "adb" && e.command.includes(DEVICE_LOCK_DIRECTORY)).flatMap((e) =>
    /\bmkdir\b/.test(e.command) ? ["take"] : /\brm -r\b/.test(e.command) ? ["free"] : []
  );
}

let target: BatteryTarget;
let served: Served;

before(async () => {
  const sim = await startSimDevice({});
  target = { sim, appiumUrl: sim.appiumUrl };
  served = await serveOn(target);
});

after(async () => {
  await served?.close();
  served?.home.remove();
  await target?.sim.stop();
});

test("navigation arrives where it says, leaves a PNG, and returns the new screen", () => navigationArrivesWithEvidence(target, served));

test("after a batch of successes and failures the UiAutomator2 server holds what it held before (R20)", () =>
  noSessionLeftBehind(target, served));

test("two simultaneous acts on one server: exactly one gets EMULATOR_BUSY, at once (R15)", async () => {
  const s = served.server;
  const [a, b] = await Promise.all([
    callTool(s, "ui_scroll", { direction: "down" }),
    callTool(s, "ui_scroll", { direction: "up" }),
  ]);
  const codes = [a.error?.code ?? "ok", b.error?.code ?? "ok"].sort();
  assert.deepEqual(codes, ["EMULATOR_BUSY", "ok"]);
});

test("two server processes on one device: exactly one of two simultaneous acts gets EMULATOR_BUSY (R15)", async () => {
  const other = await serveOn(target, {}, served.home);
  try {
    let holder = served.server;
    let waiting = other.server;
    // Two calls sent together are simultaneous only if their acts overlap on the device: on a loaded machine one
    // server may finish before the other even asks (round 0 under load: the second server's first act loads its
    // modules). Such a round (both ok, one device lock after the other, in the device's own log) proves nothing and
    // is sent again; two acts holding the device at once fail the test.
    let contested = 0;
    for (let round = 0; round < 12 && contested < 3; round++) {
      const from = target.sim.device.log.length;
      const [a, b] = await Promise.all([
        callTool(served.server, "ui_scroll", { direction: round % 2 === 0 ? "down" : "up" }),
        callTool(other.server, "ui_scroll", { direction: round % 2 === 0 ? "down" : "up" }),
      ]);
      const codes = [a.error?.code ?? "ok", b.error?.code ?? "ok"].sort();
      if (codes[0] === "ok" && codes[1] === "ok") {
        // One after the other: takes and frees alternate (the second free may still be behind its answer's PNG).
        const steps = deviceLockSteps(target.sim.device.log.slice(from));
        assert.ok(
          steps.length >= 3 && steps.every((step, i) => step === (i % 2 === 0 ? "take" : "free")),
          `round ${round}: both acted, the device lock went ${steps.join(", ")}`,
        );
        continue;
      }
      assert.deepEqual(codes, ["EMULATOR_BUSY", "ok"], `round ${round}`);
      contested++;
      [holder, waiting] = a.ok ? [served.server, other.server] : [other.server, served.server];
    }
    assert.ok(contested > 0, "no round of the two servers' acts overlapped on the device in 12 tries");
    // The winner keeps the device warm between calls (ANDROID_MCP_WARM_IDLE_TIMEOUT), so the session opens there.
    const opened = await callTool(holder, "ui_session_open");
    assert.equal(opened.ok, true, JSON.stringify(opened.error));
    const busy = await callTool(waiting, "device_back");
    assert.equal(busy.error?.code, "EMULATOR_BUSY");
    assert.match(busy.error!.message, /open UI session of process \d+ .* until at least 20\d\d-/);
    assert.ok(typeof busy.error!.details?.["session_expires_at"] === "string");
    await callTool(holder, "ui_session_close", { session_id: opened.data["session_id"] });
    assert.equal((await callTool(waiting, "device_back")).ok, true, "free again once the session closed");
  } finally {
    await other.close();
  }
});

test("an act that hangs past ANDROID_MCP_ACTION_TIMEOUT after its gesture answers ACT_UNCONFIRMED and the device is free as fast as before the hang (R18)", () =>
  hungActFreesTheDevice(target, served, 8));

test("SIGTERM during an open session deletes it on the UiAutomator2 side (R20)", () => sigtermDeletesTheSession(target));

test("SIGHUP (a closed terminal) during an open session deletes it and releases the lock, like SIGTERM", () =>
  sigtermDeletesTheSession(target, target.sim.appiumUrl, "SIGHUP"));

test("nothing listening at APPIUM_URL is APPIUM_UNAVAILABLE at once, not after a timeout, with the lock released", async () => {
  const nowhere = await serveOn({ ...target, appiumUrl: "http://127.0.0.1:9" }, {}, served.home);
  try {
    const started = Date.now();
    const down = await callTool(nowhere.server, "device_back");
    assert.equal(down.error?.code, "APPIUM_UNAVAILABLE");
    assert.match(down.error!.message, /Nothing answers at the Appium URL http:\/\/127\.0\.0\.1:9/);
    assertEndedByDeadline(Date.now() - started, 2_000, "APPIUM_UNAVAILABLE (not a wait for a timeout)");
    assert.equal((await callTool(served.server, "ui_get_tree")).ok, true, "the lock was released");
  } finally {
    await nowhere.close();
  }
});

test("an act that happened is answered ok when only its evidence failed: the next answer says so, not to repeat it", async () => {
  const opened = await callTool(served.server, "settings_open");
  assert.equal(opened.ok, true, JSON.stringify(opened.error));
  target.sim.device.faults.blankScreencap = true; // the screenshot is refused (one colour): EVIDENCE_WRITE_FAILED
  try {
    const tapped = await callTool(served.server, "ui_tap", { selector: { text: "Network & internet" } });
    assert.equal(tapped.ok, true, JSON.stringify(tapped.error));
    const texts = JSON.stringify(tapped.data["screen"]);
    assert.ok(texts.includes("Internet"), "the answer is the new screen");
    // Its evidence is taken behind the answer: the next answer on the device says it could not be stored.
    const next = await callTool(served.server, "device_status");
    const said = next.previous_evidence_error!;
    assert.equal(said.artifact_id, tapped.evidence!.artifact_id);
    assert.equal(said.code, "EVIDENCE_WRITE_FAILED");
    assert.match(said.message, /That act took place; do not repeat it/);
  } finally {
    target.sim.device.faults.blankScreencap = false;
    await callTool(served.server, "device_back");
  }
});
