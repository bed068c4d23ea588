/**
 * An act whose evidence screenshot hangs until the call's own time limit: the screenshot was given the rest of
 * the call's time, so the call ran out of time after its act (ACT_UNCONFIRMED, the deadline's own answer for an act
 * that took place), whichever of the two timers fires first; a screenshot that fails with time to spare leaves the act answered ok with
 * `data.evidence_error`. On the virtual clock, the screenshot's timer set to end a few ms before the deadline, as
 * a loaded machine's timers may (the e2e battery met both answers for the same hang).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { HarnessError } from "../../src/errors.ts";
import { callEnvelope as call, withActServer } from "../support/act_calls.ts";
import { actWorld } from "../support/act_world.ts";

/** adb screencap that never answers, stopped by its own timeout `earlyMs` before the wait it was given ends. */
function hangScreenshots(world: ReturnType<typeof actWorld>, earlyMs: number, capMs = Infinity): void {
  world.deps.ports.observer.screenshot = async (wait) => {
    const ms = Math.min(capMs, Math.max(0, wait.timeoutMs - earlyMs));
    await world.clock.sleep(ms);
    throw new HarnessError("OPERATION_TIMEOUT", `adb screencap did not answer within ${ms} ms and was stopped`);
  };
}

for (const earlyMs of [0, 3, 40]) {
  test(`an act whose screenshot runs to the call's limit (its timer ${earlyMs} ms early) answers the deadline's ACT_UNCONFIRMED`, async () => {
    const world = actWorld({ actionTimeoutMs: 4_000 });
    hangScreenshots(world, earlyMs);
    await withActServer(world, async (c) => {
      const back = await call(c, "device_back");
      assert.equal(back.ok, false, JSON.stringify(back));
      assert.equal(back.error?.code, "ACT_UNCONFIRMED");
      assert.match(
        back.error!.message,
        /^The device_back act was sent to the device and took place, .* within 4 s \(ANDROID_MCP_ACTION_TIMEOUT\)/,
      );
    });
  });
}

test("an act whose screenshot fails with time to spare is answered ok, the act done, with data.evidence_error", async () => {
  const world = actWorld({ actionTimeoutMs: 4_000 });
  hangScreenshots(world, 0, 1_000);
  await withActServer(world, async (c) => {
    const back = await call(c, "device_back");
    assert.equal(back.ok, true, JSON.stringify(back.error));
    assert.equal(back.evidence, null);
    const why = back.data["evidence_error"] as { code: string; message: string };
    assert.equal(why.code, "OPERATION_TIMEOUT");
    assert.match(why.message, /^The device_back act took place; do not repeat it\./);
  });
});
