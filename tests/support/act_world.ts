/**
 * A world for contract tests of the act tools: the real session layer (createUiSessions) and the real
 * tools over a scenario device of the simulated device, reached in process through a small UiDriver
 * (no HTTP) and an observer that reads the same device. Each driver call is recorded; `behaviour`
 * lets a test make the driver fail or hang. Evidence and audit are the recording fakes. Time is virtual
 * (virtual_clock.ts) unless a clock is given: a world with real I/O (tests/flow/scenario_world.ts) passes the real one.
 */
import { createPendingEvidence } from "../../src/mcp/pending_evidence.ts";
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import {
  DEFAULT_WAIT_FOR_IDLE_TIMEOUT_MS,
  IDLE_QUIET_MS,
  resolveScenario,
  type Scenario,
  ScenarioDevice,
  ScreenRecorder,
} from "../../src/sim/mod.ts";
import type { ScreenRecordings } from "../../src/ports/screen_recording.ts";
import { createUiSessions, type UiSessionLayer } from "../../src/device/ui_sessions.ts";
import { HarnessError } from "../../src/errors.ts";
import type { OperationDeps } from "../../src/mcp/run_operation.ts";
import type { Clock } from "../../src/ports/clock.ts";
import type { DeviceObserver } from "../../src/ports/device.ts";
import type { AuditRecord } from "../../src/ports/evidence.ts";
import type { DeviceKey, UiDriver, UiDriverFactory } from "../../src/ports/ui_driver.ts";

const KEYCODES: Record<DeviceKey, number> = { home: 3, back: 4, enter: 66, delete: 67, app_switch: 187 };
import { parseDump, type UiNode, type UiTree } from "../../src/screen/mod.ts";
import { type FakeEvidence, fakeEvidence, type FakeLock, fakeLock, operationId } from "./mcp_fakes.ts";
import { silentLogger } from "./silent_logger.ts";
import { prepareApk } from "../../src/adapters/apk/apk_file.ts";
import type { AppPackages } from "../../src/ports/app_packages.ts";
import { readFileSync } from "node:fs";
import { createVirtualClock } from "./virtual_clock.ts";

export interface DriverBehaviour {
  /** Replaces session start (e.g. to throw APPIUM_UNAVAILABLE or never answer). */
  open?: () => Promise<void>;
  /** Runs before every driver call with its name (throw or hang to inject a fault). */
  beforeCall?: (name: string) => Promise<void>;
  /** Runs when a session is deleted, before it is gone (delay it to play a slow Appium; throw: the server refused it). */
  delete?: () => Promise<void>;
}

export interface ActWorld {
  deps: OperationDeps;
  device: ScenarioDevice;
  layer: UiSessionLayer;
  evidence: FakeEvidence;
  lock: FakeLock;
  audit: AuditRecord[];
  /** Driver calls in order, as `name` or `name arg`. */
  calls: string[];
  /** Appium session ids opened and not yet deleted. */
  live: Set<string>;
  behaviour: DriverBehaviour;
  /** The world's time, also the device's (its timed screens): sleep on it to let time pass (a slow driver, an idle session). */
  clock: Clock;
  /** Ends a session as another client would (its DELETE): every later call on it answers SESSION_NOT_FOUND. */
  endSession(id: string): void;
}

export interface ActWorldOptions {
  scenario?: string | Scenario;
  actionTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** The warm driver's idle timeout (default 0: each session-less act starts and ends its own session). */
  warmIdleTimeoutMs?: number;
  maxActions?: number;
  clock?: Clock;
  /**
   * The UiAutomator2 waitForIdleTimeout the driver's sessions hold (default ACT_DEFAULTS.uiIdleTimeoutMs, as the
   * harness sets it); null: the harness could not learn it. Page sources and clicks wait, on the world's clock, for
   * the device's UI to be idle (ScenarioDevice.msUntilIdle, 500 ms quiet) at most this long, as UiAutomator2 does.
   */
  uiIdleTimeoutMs?: number | null;
}

export function actWorld(options: ActWorldOptions = {}): ActWorld {
  const clock = options.clock ?? createVirtualClock();
  // The device's timed screens (`after`) run on the world's clock too.
  const device = new ScenarioDevice(resolveScenario(options.scenario ?? "settings"), { now: () => clock.now() });
  const calls: string[] = [];
  const live = new Set<string>();
  const behaviour: DriverBehaviour = {};
  let sessions = 0;
  const endedElsewhere = new Set<string>();
  const idleTimeoutMs = options.uiIdleTimeoutMs === undefined ? ACT_DEFAULTS.uiIdleTimeoutMs : options.uiIdleTimeoutMs;
  const drivers: UiDriverFactory = {
    endpoint: "in-process",
    drain: async () => {}, // the in-process driver starts at once: nothing is ever abandoned mid-start
    async open() {
      calls.push("open");
      await behaviour.open?.();
      const id = `appium-${++sessions}`;
      live.add(id);
      return scenarioDriver(device, { id, calls, behaviour, onDelete: () => live.delete(id), clock, idleTimeoutMs, endedElsewhere });
    },
  };
  const lock = fakeLock();
  const layer = createUiSessions({
    drivers,
    lock,
    clock,
    logger: silentLogger,
    idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
    warmIdleTimeoutMs: options.warmIdleTimeoutMs ?? 0,
    ...(options.maxActions === undefined ? {} : { maxActions: options.maxActions }),
    newSessionId: () => `s-test${sessions + 1}`,
  });
  const evidence = fakeEvidence();
  const audit: AuditRecord[] = [];
  let next = 0;
  const deps: OperationDeps = {
    ports: {
      observer: deviceObserver(device),
      evidence,
      ui: layer.sessions,
      clock,
      apps: scenarioApps(device),
      recordings: scenarioRecordings(device),
    },
    lock: layer.lock,
    audit: { append: async (record) => void audit.push(record) },
    clock,
    logger: silentLogger,
    actionTimeoutMs: options.actionTimeoutMs ?? 10_000,
    newOperationId: () => operationId(++next),
    pending: createPendingEvidence({ clock, logger: silentLogger }),
  };
  const endSession = (id: string) => {
    endedElsewhere.add(id);
    live.delete(id);
  };
  return { deps, device, layer, evidence, lock, audit, calls, live, behaviour, clock, endSession };
}

/** An observer of the scenario device: what adb would read from it. */
function deviceObserver(device: ScenarioDevice): DeviceObserver {
  const context = () => ({
    screen: { width: device.width, height: device.height, density: device.density },
    keyboard: device.keyboard(),
    foregroundPackage: device.foregroundPackage(),
  });
  const observer: DeviceObserver = {
    adbServer: "tcp:127.0.0.1:5037",
    udid: device.serial,
    resolveDevice: async () => ({ udid: device.serial, devices: null }),
    devices: async () => ({ online: [{ udid: device.serial, model: device.model }], default: device.serial }),
    bind: () => observer,
    status: async () => ({
      udid: device.serial,
      online: true,
      model: device.model,
      api_level: device.apiLevel,
      screen: context().screen,
      foreground_package: device.foregroundPackage(),
      keyboard_open: device.keyboard().open,
    }),
    captureTree: async () => ({ xml: device.hierarchyXml(), ...context() }),
    screenContext: async () => context(),
    screenshot: async () => device.screenshotPng(),
    listPackages: async (query) =>
      device.installedPackages().filter((p) =>
        (query.includeSystem || !p.system) && (query.filter === undefined || p.name.includes(query.filter))
      )
        .map((p) => p.name).sort(),
  };
  return observer;
}

interface DriverWorld {
  id: string;
  calls: string[];
  behaviour: DriverBehaviour;
  onDelete: () => void;
  clock: Clock;
  /** The session's waitForIdleTimeout as the harness knows it (null: unknown; the device then waits the default). */
  idleTimeoutMs: number | null;
  /** Sessions another client ended. */
  endedElsewhere: ReadonlySet<string>;
}

function scenarioDriver(device: ScenarioDevice, world: DriverWorld): UiDriver {
  const { id, calls, behaviour, onDelete, clock } = world;
  // UiAutomator2's idle wait (src/sim/uia2/idle.ts): an unknown timeout is the server's default.
  const timeout = world.idleTimeoutMs ?? DEFAULT_WAIT_FOR_IDLE_TIMEOUT_MS;
  const idle = async () => {
    const ms = device.msUntilIdle(IDLE_QUIET_MS, timeout);
    if (ms > 0) await clock.sleep(ms);
  };
  let found: { tree: UiTree; nodes: Map<string, UiNode> } = { tree: parseDump(device.hierarchyXml()), nodes: new Map() };
  let deleted = false;
  const call = async (name: string) => {
    calls.push(name);
    if (deleted || world.endedElsewhere.has(id)) throw new HarnessError("SESSION_NOT_FOUND", "deleted");
    await behaviour.beforeCall?.(name);
  };
  const node = (elementId: string) => {
    const n = found.nodes.get(elementId);
    if (n === undefined) throw new HarnessError("APPIUM_UNAVAILABLE", `stale element ${elementId}`);
    return n;
  };
  const attrs = (n: UiNode) => ({
    bounds: `[${n.bounds!.left},${n.bounds!.top}][${n.bounds!.right},${n.bounds!.bottom}]`,
    class: n.className,
    text: n.text,
  });
  return {
    appiumSessionId: id,
    idleTimeoutMs: world.idleTimeoutMs,
    source: async () => (await call("source"), await idle(), device.hierarchyXml()),
    async findElements(xpath) {
      await call(`findElements ${xpath}`);
      await idle(); // a find from the root resets the accessibility cache, which waits for idle (AXWindowHelpers)
      const tree = parseDump(device.hierarchyXml());
      const steps = [...xpath.matchAll(/\*\[(\d+)\]/g)].map((m) => Number(m[1]));
      let level = tree.nodes.filter((n) => n.parent === null);
      let hit: UiNode | undefined;
      for (const step of steps) {
        hit = level[step - 1];
        if (hit === undefined) return [];
        level = hit.children.map((c) => tree.nodes[c]!);
      }
      if (hit === undefined) return [];
      const at = /\[@bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"\]$/.exec(xpath)?.slice(1).map(Number);
      const b = hit.bounds;
      if (at !== undefined && (b === null || at.join() !== [b.left, b.top, b.right, b.bottom].join())) return [];
      found = { tree, nodes: new Map([[`el-${hit.id}`, hit]]) };
      return [`el-${hit.id}`];
    },
    async click(elementId) {
      await call("click");
      device.tap(attrs(node(elementId)));
      await idle(); // Click.java waits for idle after the click
    },
    async replaceText(elementId, text) {
      await call("replaceText");
      device.setText(attrs(node(elementId)), text);
    },
    async appendText(elementId, text) {
      await call("appendText");
      const n = node(elementId);
      device.setText(attrs(n), (n.text === n.hint ? "" : n.text) + text);
    },
    async scroll(elementId, direction) {
      await call(`scroll ${direction}`);
      const container = attrs(node(elementId));
      device.scroll(direction, container);
      return device.canScroll(direction, container);
    },
    async longPress(elementId) {
      await call("longPress");
      device.longPress(attrs(node(elementId)));
    },
    async doubleTap(elementId) {
      await call("doubleTap");
      device.doubleTap(attrs(node(elementId)));
    },
    editorAction: async (action) => (await call(`editorAction ${action}`), device.editorAction(action)),
    pressKey: async (key) => (await call(`pressKey ${key}`), device.pressKey(KEYCODES[key])),
    openNotifications: async () => (await call("openNotifications"), device.openNotifications()),
    async deepLink(url, pkg) {
      await call(`deepLink ${url}`);
      if (device.openUrl(url, pkg) === null) throw new HarnessError("APP_NOT_FOUND", `Nothing on the device handles ${url}.`);
    },
    async terminateApp(pkg) {
      await call(`terminateApp ${pkg}`);
      const running = device.runningPackages().includes(pkg);
      device.forceStop(pkg);
      return running;
    },
    async clearApp(pkg) {
      await call(`clearApp ${pkg}`);
      if (!device.clearApp(pkg)) throw new HarnessError("APP_NOT_FOUND", `The application '${pkg}' is not installed on the device.`);
    },
    back: async () => (await call("back"), device.back()),
    async activateApp(pkg) {
      await call(`activateApp ${pkg}`);
      if (!device.launch(pkg)) throw new HarnessError("APP_NOT_FOUND", `The application '${pkg}' is not installed on the device.`);
    },
    async hideKeyboard() {
      await call("hideKeyboard");
      if (device.keyboard().open) device.back();
    },
    isKeyboardShown: async () => (await call("isKeyboardShown"), device.keyboard().open),
    currentPackage: async () => (await call("currentPackage"), device.foregroundPackage()),
    async delete() {
      if (deleted) return;
      calls.push("delete");
      deleted = true;
      try {
        await behaviour.delete?.();
      } catch (error) {
        deleted = false; // refused (a 5xx): the session stays, and a later delete is sent again
        throw error;
      }
      onDelete();
    },
  };
}

/** The product's APK check and copy, then the scenario device's package manager given the copy's bytes. */
/**
 * Screen recordings of the scenario device on its clock, with the port's rules (one a device; a stop needs a start):
 * the simulated `screenrecord`'s recorder, looked at when a recording starts and stops.
 */
function scenarioRecordings(device: ScenarioDevice): ScreenRecordings {
  const running = new Map<string, { recorder: ScreenRecorder; maxSeconds: number; startedAt: number }>();
  return {
    start: async (udid, maxSeconds) => {
      if (running.has(udid)) throw new HarnessError("EMULATOR_BUSY", `A screen recording already runs on ${udid}; stop it first.`);
      running.set(udid, {
        recorder: new ScreenRecorder(() => device.screenshotPng(), () => device.now()),
        maxSeconds,
        startedAt: device.now(),
      });
    },
    stop: async (udid) => {
      const entry = running.get(udid);
      if (entry === undefined) throw new HarnessError("INVALID_ARGUMENT", `No screen recording runs on ${udid}; start one first.`);
      running.delete(udid);
      entry.recorder.look();
      const seconds = Math.min(entry.maxSeconds, (device.now() - entry.startedAt) / 1000);
      return { udid, segments: [entry.recorder.finish(entry.maxSeconds * 1000)], seconds, reachedLimit: seconds >= entry.maxSeconds };
    },
    running: () => [...running.keys()],
  };
}

function scenarioApps(device: ScenarioDevice): AppPackages {
  return {
    prepare: prepareApk,
    install: async (_udid, apk) => void device.installApk(readFileSync(apk.file)),
    uninstall: async (_udid, packageName) => {
      if (!device.removePackage(packageName)) throw new HarnessError("APP_NOT_FOUND", `${packageName} is not installed.`);
    },
  };
}
