/**
 * An act whose gesture went to the device is never answered "cancelled … Retry" (issue 24 item 4): when the time
 * limit passes after the gesture (during its own answer, the settle read, the evidence or the device's facts), the
 * answer is ACT_UNCONFIRMED ("took place; do not repeat it; read the screen"), not retryable. A limit that passes
 * before any gesture stays OPERATION_TIMEOUT. On the virtual clock over the settings scenario's Airplane mode switch.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ERROR_CODES } from "../../contracts/error_codes.ts";
import { callEnvelope as call, withActServer } from "../support/act_calls.ts";
import { type ActWorld, actWorld } from "../support/act_world.ts";

const AIRPLANE = { selector: { text: "Airplane mode" } };

/** Whether the Airplane mode switch is on, on the device itself. */
function airplaneOn(world: ActWorld): boolean {
  const node = /<[^>]*bounds="\[880,750\]\[1017,850\]"[^>]*>/.exec(world.device.hierarchyXml());
  assert.notEqual(node, null, "the switch is on screen");
  return /\schecked="true"/.test(node![0]);
}

/** Opens Network & internet, where the Airplane mode switch is (off). */
async function onNetworkPage(world: ActWorld, c: Parameters<Parameters<typeof withActServer>[1]>[0]) {
  assert.equal((await call(c, "ui_tap", { selector: { text: "Network & internet" } })).ok, true);
  assert.equal(airplaneOn(world), false);
}

/** Every driver call named `hung` after the first `after` call never answers. */
function hangAfter(world: ActWorld, after: string, hung: string): void {
  let seen = false;
  world.behaviour.beforeCall = (name) => {
    if (name === after) seen = true;
    else if (seen && name === hung) return new Promise(() => {});
    return Promise.resolve();
  };
}

test("the limit passing during the settle read after a tap answers ACT_UNCONFIRMED (done), the switch flipped once", async () => {
  const world = actWorld({ actionTimeoutMs: 4000 });
  await withActServer(world, async (c) => {
    await onNetworkPage(world, c);
    hangAfter(world, "click", "source");
    const started = world.clock.now();
    const tap = await call(c, "ui_tap", AIRPLANE);
    assert.equal(world.clock.now() - started, 4000, "answered at the limit");
    assert.equal(tap.ok, false);
    assert.equal(tap.error?.code, "ACT_UNCONFIRMED");
    assert.match(tap.error!.message, /^The ui_tap act was sent to the device and took place, but the screen it led to .* 4 s/);
    assert.match(tap.error!.message, /Do not repeat it: read the screen with ui_get_tree/);
    assert.doesNotMatch(tap.error!.message, /cancelled|Retry/);
    assert.deepEqual(tap.error!.details, { act: "done", unconfirmed: "screen", timeout_s: 4 });
    assert.equal(airplaneOn(world), true, "the act took place");
    assert.equal(ERROR_CODES.ACT_UNCONFIRMED.retryable, false);
    assert.equal(world.audit.at(-1)?.outcome, "ACT_UNCONFIRMED");
    delete world.behaviour.beforeCall;
    assert.equal(world.lock.held.size, 0, "the device is free");
    assert.equal((await call(c, "ui_get_tree")).ok, true);
  });
});

test("the limit passing while the gesture itself is unanswered answers ACT_UNCONFIRMED (sent)", async () => {
  const world = actWorld({ actionTimeoutMs: 4000 });
  await withActServer(world, async (c) => {
    await onNetworkPage(world, c);
    world.behaviour.beforeCall = (name) => name === "click" ? new Promise(() => {}) : Promise.resolve();
    const tap = await call(c, "ui_tap", AIRPLANE);
    assert.equal(tap.error?.code, "ACT_UNCONFIRMED");
    assert.match(tap.error!.message, /^The ui_tap act was sent to the device \(most likely it took place\), but the device's answer/);
    assert.deepEqual(tap.error!.details, { act: "sent", unconfirmed: "gesture", timeout_s: 4 });
  });
});

test("the limit passing before any gesture (the element wait, the read before) stays OPERATION_TIMEOUT", async () => {
  const world = actWorld({ actionTimeoutMs: 4000 });
  await withActServer(world, async (c) => {
    await onNetworkPage(world, c);
    world.behaviour.beforeCall = (name) => name.startsWith("findElements") ? new Promise(() => {}) : Promise.resolve();
    const tap = await call(c, "ui_tap", AIRPLANE);
    assert.equal(tap.error?.code, "OPERATION_TIMEOUT");
    assert.match(tap.error!.message, /was cancelled/);
    assert.equal(airplaneOn(world), false, "nothing was done");
  });
});

test("ui_wait under a short action limit never refuses its own default nor timeout_ms 0: it reads the screen once", async () => {
  const world = actWorld({ actionTimeoutMs: 1500 });
  await withActServer(world, async (c) => {
    const byDefault = await call(c, "ui_wait", { visible: { text: "Network & internet" } });
    assert.equal(byDefault.ok, true, JSON.stringify(byDefault.error));
    assert.equal(byDefault.data["waited_ms"], 0);
    const zero = await call(c, "ui_wait", { visible: { text: "Network & internet" }, timeout_ms: 0 });
    assert.equal(zero.ok, true, JSON.stringify(zero.error));
    const more = await call(c, "ui_wait", { visible: { text: "Network & internet" }, timeout_ms: 1 });
    assert.equal(more.error?.code, "INVALID_ARGUMENT");
    assert.match(more.error!.message, /send at most 0, or raise the limit/);
  });
});
