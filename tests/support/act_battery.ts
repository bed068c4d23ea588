/**
 * The end-to-end battery of the act tools' promises (SPEC §10, issue 7), run over real stdio against a
 * simulated device through a given Appium endpoint: the simulated device's own UiAutomator2 server, or
 * the real Appium 3.8 + UiAutomator2 driver in front of it; or with none, through the direct backend (the
 * harness installs and starts the simulated device's UiAutomator2 server itself over adb). Each promise is a function the test files
 * call as their own test, so a failure names the promise and the endpoint.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import type { startSimDevice } from "../../src/sim/mod.ts";
import { join } from "node:path";
import { currentUserFacts, lockDirectory, lockFileName } from "../../src/adapters/evidence/mod.ts";
import { adbServerAddress } from "../../src/adapters/adb/mod.ts";
import { envelopeOf, type SpawnedServer, spawnServe } from "./mcp_client.ts";
import { assertEndedByDeadline, LOADED_WAIT_MS } from "./time_bounds.ts";
import { exitWithin, makeServeHome, pidGoneWithin, type ServeHome } from "./mcp_e2e.ts";

export type Sim = Awaited<ReturnType<typeof startSimDevice>>;

export interface BatteryTarget {
  sim: Sim;
  /** What the harness is told APPIUM_URL is; null: none, the direct backend (the harness starts the sim's server over adb). */
  appiumUrl: string | null;
}

/** Where the target's UiAutomator2 sessions are listed: the Appium endpoint, or the simulated device's own server. */
export const sessionsAt = (target: BatteryTarget): string => target.appiumUrl ?? target.sim.appiumUrl;

export interface Served {
  server: SpawnedServer;
  home: ServeHome;
  close(): Promise<void>;
}

/** A `serve` process on the simulated device through the target's Appium endpoint. */
export async function serveOn(target: BatteryTarget, env: Record<string, string> = {}, home = makeServeHome()): Promise<Served> {
  const server = await spawnServe([], {
    ...home.env,
    ADB_SERVER_SOCKET: target.sim.adbServerSocket,
    ANDROID_UDID: target.sim.device.serial,
    ...(target.appiumUrl === null ? {} : { APPIUM_URL: target.appiumUrl }),
    // Several servers take turns on one device here: none keeps it warm after its act (tests/e2e/warm_sim.test.ts does).
    ANDROID_MCP_WARM_IDLE_TIMEOUT: "0",
    ...env,
  });
  return { server, home, close: async () => void (await server.close()) };
}

export async function appiumSessions(appiumUrl: string): Promise<string[]> {
  const answer = await fetch(`${appiumUrl.replace(/\/$/, "")}/appium/sessions`).then((r) => r.json()) as { value: { id: string }[] };
  return answer.value.map((s) => s.id).sort();
}

export const callTool = async (s: SpawnedServer, name: string, args: Record<string, unknown> = {}) =>
  envelopeOf(await s.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }));

/** Navigation arrives where it says, leaves a PNG on disk, and the summary it returns is the new screen. */
export async function navigationArrivesWithEvidence(target: BatteryTarget, served: Served): Promise<void> {
  const s = served.server;
  const tapped = await callTool(s, "ui_tap", { selector: { text: "Network & internet" } });
  assert.equal(tapped.ok, true, JSON.stringify(tapped.error));
  assert.equal(target.sim.device.screenId(), "network");
  assert.equal(tapped.data["changed"], true);
  assert.equal(tapped.data["settled"], true);
  assert.ok(tapped.evidence!.path.startsWith(served.home.artifacts));
  // The PNG is taken behind the answer; the next call on the device waits for it (docs/contract.md, act fields).
  const observed = await callTool(s, "ui_get_tree");
  const png = readFileSync(tapped.evidence!.path);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "the evidence is a PNG on disk");
  assert.deepEqual(tapped.data["screen"], observed.data, "the act's summary is the screen ui_get_tree sees next");
  const back = await callTool(s, "device_back");
  assert.equal(back.ok, true, JSON.stringify(back.error));
  assert.equal(target.sim.device.screenId(), "settings_home");
  assert.notEqual(back.evidence!.artifact_id, tapped.evidence!.artifact_id);
}

/** After a batch of successes and failures, Appium holds exactly the sessions it held before. */
export async function noSessionLeftBehind(target: BatteryTarget, served: Served, appiumUrl = sessionsAt(target)): Promise<void> {
  const s = served.server;
  // An earlier act's session is kept until its evidence, taken behind its answer, is stored: a call waits for it.
  assert.equal((await callTool(s, "device_status")).ok, true);
  const before = await appiumSessions(appiumUrl);
  const outcomes: string[] = [];
  const note = async (name: string, args: Record<string, unknown> = {}) => {
    const e = await callTool(s, name, args);
    outcomes.push(e.error?.code ?? "ok");
    return e;
  };
  await note("ui_tap", { selector: { text: "Network & internet" } });
  await note("ui_type_text", { selector: { text: "Internet" }, text: "x" });
  await note("ui_tap", { selector: { text_contains: "n" } });
  const opened = await note("ui_session_open");
  const id = opened.data["session_id"] as string;
  await note("ui_scroll", { direction: "down", session_id: id });
  await note("device_back", { session_id: id });
  await note("ui_tap", { selector: { text: "Apps" } });
  await note("ui_session_close", { session_id: id });
  await note("app_launch", { package: "com.example.notinstalled" });
  await note("settings_open");
  // The last act's evidence is taken behind its answer, its session kept until then: the next call waits for it.
  assert.equal((await callTool(s, "device_status")).ok, true);
  assert.deepEqual(outcomes, [
    "ok",
    "INVALID_SELECTOR",
    "UI_ELEMENT_AMBIGUOUS",
    "ok",
    "ok",
    "ok",
    "EMULATOR_BUSY",
    "ok",
    "APP_NOT_FOUND",
    "ok",
  ]);
  assert.deepEqual(await appiumSessions(appiumUrl), before);
}

/**
 * SIGTERM (or SIGINT, or SIGHUP: a closed terminal) while a session is open: the server deletes it on the
 * Appium side, releases the device's lock file and exits.
 */
export async function sigtermDeletesTheSession(
  target: BatteryTarget,
  appiumUrl = sessionsAt(target),
  signal: "SIGTERM" | "SIGINT" | "SIGHUP" = "SIGTERM",
): Promise<void> {
  const served = await serveOn(target);
  const lockFile = join(
    lockDirectory(currentUserFacts(process.platform, "")).path,
    lockFileName({ adbServer: adbServerAddress(target.sim.adbServerSocket), udid: target.sim.device.serial }),
  );
  try {
    const before = await appiumSessions(appiumUrl);
    const opened = await callTool(served.server, "ui_session_open");
    assert.equal(opened.ok, true, JSON.stringify(opened.error));
    assert.equal((await appiumSessions(appiumUrl)).length, before.length + 1);
    assert.ok(existsSync(lockFile), "the open session holds the device's lock");
    const pid = served.server.pid!;
    process.kill(pid, signal);
    const exited = await pidGoneWithin(pid, 10_000);
    assert.ok(exited, `serve exits after ${signal}`);
    assert.equal(existsSync(lockFile), false, "the lock file was released");
    assert.deepEqual(await appiumSessions(appiumUrl), before, "the open session was deleted before exiting");
    assert.match(served.server.stderr(), /ended: the harness is stopping/);
  } finally {
    await served.close();
    served.home.remove();
  }
}

export { existsSync, exitWithin };

/**
 * An act that hangs past its timeout after its gesture (the device's facts, `wm` and `dumpsys` in one adb shell, never
 * come; the evidence screencap is taken behind the answer) answers ACT_UNCONFIRMED
 * (the back was done: never "cancelled … Retry") by the deadline, deletes its session, and the device is free at
 * once: the next call takes no longer than a bound measured in the same run (a ui_get_tree before the hang), never a
 * wall-clock figure.
 */
export async function hungActFreesTheDevice(target: BatteryTarget, served: Served, timeoutSeconds: number): Promise<void> {
  const quick = await serveOn(target, { ANDROID_MCP_ACTION_TIMEOUT: String(timeoutSeconds) }, served.home);
  try {
    // A first act loads the UiAutomator2 client (about a second): the hung act's limit is then spent after its gesture.
    const warmUp = await callTool(quick.server, "ui_session_open");
    assert.equal(warmUp.ok, true, JSON.stringify(warmUp.error));
    await callTool(quick.server, "ui_session_close", { session_id: warmUp.data["session_id"] });
    const sessionsBefore = await appiumSessions(sessionsAt(target));
    const measuredAt = Date.now();
    assert.equal((await callTool(served.server, "ui_get_tree")).ok, true);
    const treeMs = Date.now() - measuredAt;
    const sessionDeleted = uia2SessionDeleted(target.sim);
    target.sim.device.faults.hangCommands = ["wm"];
    const started = Date.now();
    const hung = await callTool(quick.server, "device_back");
    assert.equal(hung.error?.code, "ACT_UNCONFIRMED", JSON.stringify(hung));
    assertEndedByDeadline(Date.now() - started, timeoutSeconds * 1000, "the hung act's ACT_UNCONFIRMED");
    target.sim.device.faults.hangCommands = [];
    // The act's evidence is taken behind its answer, the device's lock released once it is stored (SPEC §3): another
    // client asking in between is EMULATOR_BUSY by design. Wait for that release (an event seen as the lock file
    // going), not for time; what is measured is that the hung act's cleanup does not hold the device.
    const lockFile = join(
      lockDirectory(currentUserFacts(process.platform, "")).path,
      lockFileName({ adbServer: adbServerAddress(target.sim.adbServerSocket), udid: target.sim.device.serial }),
    );
    const released = Date.now() + LOADED_WAIT_MS;
    while (existsSync(lockFile) && Date.now() < released) await new Promise((r) => setTimeout(r, 20));
    assert.equal(existsSync(lockFile), false, "the hung act's lock is released once its evidence is stored");
    const freedAt = Date.now();
    const next = await callTool(served.server, "ui_get_tree");
    assert.equal(next.ok, true, JSON.stringify(next.error));
    const nextMs = Date.now() - freedAt;
    // Served without waiting for the hung act's cleanup: a bound with a loaded machine's slack, not a figure.
    assertEndedByDeadline(nextMs, 3 * treeMs + 1000, `the next call after the hang (the one before it took ${treeMs} ms)`);
    // The deletion runs after the lock is released (the device is free at once): wait for it, not for time.
    assert.ok(await sessionDeleted.within(LOADED_WAIT_MS), "the timed-out act's session was deleted on the device");
    assert.deepEqual(await appiumSessions(sessionsAt(target)), sessionsBefore, "the timed-out act's session was deleted");
  } finally {
    target.sim.device.faults.hangCommands = [];
    await quick.close();
  }
}

/**
 * The next successful DELETE of a UiAutomator2 session on the simulated device (its server process quits),
 * subscribed now: `within(ms)` is true once it happened, false if it did not within `ms`.
 */
export function uia2SessionDeleted(sim: Sim): { within(ms: number): Promise<boolean> } {
  let seen!: () => void;
  const happened = new Promise<void>((resolve) => (seen = resolve));
  const unsubscribe = sim.device.onUia2ServerQuit(() => seen());
  return {
    within: async (ms) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
      try {
        return await Promise.race([happened.then(() => true as const), late]);
      } finally {
        clearTimeout(timer);
        unsubscribe();
      }
    },
  };
}
