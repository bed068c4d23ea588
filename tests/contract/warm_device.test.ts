/**
 * The warm device (issue 24 item 2): one UiAutomator2 session per device, started by the first act and held until it
 * has been idle for ANDROID_MCP_WARM_IDLE_TIMEOUT; session-less acts share it, observing reads through it and never
 * starts it, ui_session_open is a lease on it (others still get EMULATOR_BUSY), a session another client ended is
 * started again once and the act says so. The real session layer and tools over the settings scenario, on the
 * virtual clock (the idle expiry is exact).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { callEnvelope as call, withActServer } from "../support/act_calls.ts";
import { actWorld } from "../support/act_world.ts";
import { HarnessError } from "../../src/errors.ts";

const WARM_MS = 300_000;
const opens = (calls: string[]) => calls.filter((n) => n === "open").length;

test("session-less acts share one warm session, which holds the device until idle for the warm timeout, then ends", async () => {
  const world = actWorld({ warmIdleTimeoutMs: WARM_MS });
  await withActServer(world, async (c) => {
    const tree = await call(c, "ui_get_tree");
    assert.equal(tree.ok, true);
    assert.equal(opens(world.calls), 0, "observing never starts it");
    for (const act of [["ui_tap", { selector: { text: "Network & internet" } }], ["device_back", {}], ["settings_open", {}]] as const) {
      const answer = await call(c, act[0], act[1]);
      assert.equal(answer.ok, true, `${act[0]}: ${JSON.stringify(answer.error)}`);
      assert.equal(answer.data["session_restarted"], undefined);
    }
    assert.equal(opens(world.calls), 1, "one session start served every act");
    assert.deepEqual([...world.live], ["appium-1"]);
    assert.equal(world.lock.held.size, 1, "the warm session holds the device's lock");
    assert.deepEqual(world.lock.notes.at(-1)?.appium, { url: "in-process", sessionId: "appium-1" }, "the lock names it");
    world.calls.length = 0;
    assert.equal((await call(c, "ui_get_tree")).ok, true);
    assert.ok(world.calls.includes("source"), "observing reads through it while it is warm");
    await world.clock.sleep(WARM_MS - 1000);
    assert.deepEqual([...world.live], ["appium-1"], "still warm before its idle timeout");
    assert.equal((await call(c, "device_back")).ok, true, "a use restarts its idle time");
    await world.clock.sleep(WARM_MS - 1000);
    assert.deepEqual([...world.live], ["appium-1"]);
    await world.clock.sleep(2000);
    assert.deepEqual([...world.live], [], "ended after idling for the warm timeout");
    assert.equal(world.lock.held.size, 0, "and the device released");
    world.calls.length = 0;
    assert.equal((await call(c, "ui_get_tree")).ok, true);
    assert.deepEqual(world.calls, [], "observing does not start it again");
    assert.equal((await call(c, "device_back")).ok, true);
    assert.equal(opens(world.calls), 1, "the next act starts it again");
  });
});

test("a warm session another client ended is started again once, transparently, and the act says so", async () => {
  const world = actWorld({ warmIdleTimeoutMs: WARM_MS });
  await withActServer(world, async (c) => {
    assert.equal((await call(c, "settings_open")).ok, true);
    world.endSession("appium-1");
    const tap = await call(c, "ui_tap", { selector: { text: "Network & internet" } });
    assert.equal(tap.ok, true, JSON.stringify(tap.error));
    assert.equal(world.device.screenId(), "network", "the tap was done once, on the new session");
    assert.match(tap.data["session_restarted"] as string, /^the UiAutomator2 session appium-1 had ended/);
    assert.equal(opens(world.calls), 2);
    assert.deepEqual([...world.live], ["appium-2"]);
    assert.deepEqual(world.lock.notes.at(-1)?.appium?.sessionId, "appium-2", "the lock names the new session");
    const next = await call(c, "device_back");
    assert.equal(next.data["session_restarted"], undefined);
    assert.equal(opens(world.calls), 2);
  });
});

test("a warm session whose DELETE the server refused (a 5xx) keeps the lock naming it, and is deleted again before the next start and at stop", async () => {
  const world = actWorld({ warmIdleTimeoutMs: WARM_MS });
  const refused = () => Promise.reject(new HarnessError("APPIUM_UNAVAILABLE", "HTTP 500 (simulated)"));
  await withActServer(world, async (c) => {
    assert.equal((await call(c, "device_back")).ok, true);
    Object.assign(world.behaviour, { beforeCall: refused, open: refused, delete: refused }); // the server answers 500 to all
    assert.equal((await call(c, "device_back")).error?.code, "APPIUM_UNAVAILABLE");
    assert.deepEqual([...world.live], ["appium-1"], "its DELETE was refused: the session is still there");
    assert.equal(world.lock.held.size, 1, "its lock kept, still naming it, until it is gone");
    assert.deepEqual(world.lock.notes.at(-1)?.appium?.sessionId, "appium-1");
    for (const key of ["beforeCall", "open", "delete"] as const) delete world.behaviour[key];
    world.calls.length = 0;
    assert.equal((await call(c, "device_back")).ok, true);
    assert.deepEqual(world.calls.slice(0, 2), ["delete", "open"], "the old session deleted before the new one starts");
    assert.deepEqual([...world.live], ["appium-2"]);
    assert.equal(world.lock.held.size, 1, "one lock: the new warm session's");
    Object.assign(world.behaviour, { beforeCall: refused, open: refused, delete: refused });
    assert.equal((await call(c, "device_back")).error?.code, "APPIUM_UNAVAILABLE");
    delete world.behaviour.delete;
    await world.layer.closeAll("stopping");
    assert.deepEqual([...world.live], [], "stopping deletes it again");
    assert.equal(world.lock.held.size, 0, "and releases the lock it kept");
  });
});

test("ui_session_open is a lease on the warm driver: no second session; others get EMULATOR_BUSY; close gives it back", async () => {
  const world = actWorld({ warmIdleTimeoutMs: WARM_MS });
  await withActServer(world, async (c) => {
    assert.equal((await call(c, "device_back")).ok, true);
    const opened = await call(c, "ui_session_open");
    assert.equal(opened.ok, true, JSON.stringify(opened.error));
    const id = opened.data["session_id"] as string;
    assert.equal(opens(world.calls), 1, "the lease is on the warm driver, not a second session");
    const other = await call(c, "device_back");
    assert.equal(other.error?.code, "EMULATOR_BUSY");
    assert.match(other.error!.message, new RegExp(`held by UI session ${id}`));
    assert.equal((await call(c, "ui_session_open")).error?.code, "EMULATOR_BUSY");
    assert.equal((await call(c, "ui_get_tree")).ok, true, "observing passes");
    assert.equal((await call(c, "device_back", { session_id: id })).ok, true);
    assert.equal((await call(c, "ui_session_close", { session_id: id })).data["closed"], true);
    assert.deepEqual([...world.live], ["appium-1"], "closing the lease leaves the warm session");
    assert.equal((await call(c, "device_back")).ok, true);
    assert.equal(opens(world.calls), 1);
  });
});

test("an act that runs past its limit in the warm session ends it and frees the device at once", async () => {
  const world = actWorld({ warmIdleTimeoutMs: WARM_MS, actionTimeoutMs: 1500 });
  await withActServer(world, async (c) => {
    assert.equal((await call(c, "device_back")).ok, true);
    world.behaviour.beforeCall = (name) => name === "source" ? new Promise(() => {}) : Promise.resolve();
    assert.equal((await call(c, "device_back")).error?.code, "OPERATION_TIMEOUT");
    delete world.behaviour.beforeCall;
    await world.clock.sleep(50);
    assert.deepEqual([...world.live], [], "the warm session was deleted");
    assert.equal(world.lock.held.size, 0);
    assert.equal((await call(c, "device_back")).ok, true, "the next act starts a new one");
    assert.deepEqual([...world.live], ["appium-2"]);
  });
});

test("with a warm timeout of 0 every session-less act starts and ends its own session", async () => {
  const world = actWorld({ warmIdleTimeoutMs: 0 });
  await withActServer(world, async (c) => {
    assert.equal((await call(c, "device_back")).ok, true);
    assert.deepEqual([...world.live], []);
    assert.equal(world.lock.held.size, 0);
    assert.equal((await call(c, "device_back")).ok, true);
    assert.equal(opens(world.calls), 2);
  });
});
