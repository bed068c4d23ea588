/**
 * Bench section "act": per act tool against the simulated device (real adb client, webdriverio against
 * the simulated UiAutomator2 endpoint, in-memory MCP transport): total time, and the harness's own time —
 * total minus the time spent in adb processes, in UiAutomator2 requests and in the published waits (the
 * settle interval and the polls), counted once where they overlap — as median/p95, with adb processes
 * and UiAutomator2 requests per call. Acts run in an open session (session start is its own row); a row's
 * `setup` (untimed) puts the device where the row starts. Issue 16's hands run on the 'shop' scenario.
 * Targets (issue 17): harness-own time under 10 ms median per act, at most 2 adb processes per act in a session;
 * a verdict line per act row after the tables says met or MISSED.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import { createAdbClient, createAdbObserver, findAdbProgram } from "../../src/adapters/adb/mod.ts";
import { createAppiumDriverFactory } from "../../src/adapters/appium/mod.ts";
import {
  createAuditLog,
  createDeviceLock,
  createEvidenceStore,
  createNodeFileSystem,
  createNodeProcessProbe,
} from "../../src/adapters/evidence/mod.ts";
import { createNodeProcessRunner } from "../../src/adapters/node_process_runner.ts";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import { createUiSessions } from "../../src/device/ui_sessions.ts";
import { createHarnessServer } from "../../src/mcp/server.ts";
import type { Clock } from "../../src/ports/clock.ts";
import type { ProcessRunner } from "../../src/ports/process_runner.ts";
import type { UiDriver, UiDriverFactory } from "../../src/ports/ui_driver.ts";
import { type ScenarioDevice as SimDevice, startSimDevice } from "../../src/sim/mod.ts";
import { connectInMemory } from "../../tests/support/mcp_client.ts";
import { silentLogger } from "../../tests/support/silent_logger.ts";
import { type BenchIO, type BenchSection, median, p95, unionLength } from "./section.ts";
import { createPendingEvidence } from "../../src/mcp/pending_evidence.ts";

type Interval = [number, number];

export const actSection: BenchSection = {
  name: "act: per act tool against the simulated device, total and harness-own time",
  async run(io: BenchIO) {
    const verdicts: Verdict[] = [];
    io.print(
      `simulated device, real adb client, webdriverio → simulated UiAutomator2, in-memory MCP, ${io.repetitions} calls per row (ms)`,
    );
    io.print("tool                              total med/p95    own med/p95      adb runs/call  UiA2 requests/call");
    await measure(io, verdicts, "settings", [
      ["ui_tap", () => ({ selector: { text: "Network & internet" } })],
      ["device_back", () => ({})],
      ["ui_scroll", (i) => ({ direction: i % 2 === 0 ? "down" : "up" })],
      ["settings_open", () => ({})],
      ["app_launch", () => ({ package: "com.android.settings" })],
    ]);
    await measure(io, verdicts, "login", [[
      "ui_type_text",
      (i) => ({ selector: { resource_id: "com.example.shop:id/email" }, text: `שלום ${i}` }),
    ]]);
    /** The shop's home, signed in (again, after app_clear's row). */
    const home = (sim: SimDevice) => {
      sim.launch(SHOP);
      if (sim.screenId() === "shop_login") sim.tap({ "resource-id": `${SHOP}:id/sign_in` });
    };
    await measure(io, verdicts, "shop", [
      ["ui_tap", () => ({ selector: { text: "Rain jacket" }, gesture: "long_press" }), { label: "ui_tap long_press", setup: home }],
      ["ui_tap", () => ({ selector: { content_desc: "Canvas sneakers photo" }, gesture: "double_tap" }), {
        label: "ui_tap double_tap",
        setup: (sim) => void sim.openUrl("shop://product/42"),
      }],
      ["ui_scroll", (i) => ({ direction: i % 2 === 0 ? "right" : "left", container: { resource_id: `${SHOP}:id/chips` } }), {
        label: "ui_scroll container",
        setup: home,
      }],
      ["ui_scroll", () => ({ direction: "down", until: { text: "Daypack" } }), {
        label: "ui_scroll until (2 swipes)",
        setup: (sim) => {
          sim.forceStop(SHOP);
          home(sim);
        },
      }],
      [
        "ui_type_text",
        (i) => ({ selector: { resource_id: `${SHOP}:id/search_field` }, text: i % 2 === 0 ? "boots" : "Boots", submit: "search" }),
        {
          label: "ui_type_text submit",
          setup: (sim) => {
            home(sim);
            sim.tap({ "content-desc": "Search" });
          },
        },
      ],
      ["device_press", (i) => ({ key: i % 2 === 0 ? "home" : "app_switch" })],
      ["app_open_url", (i) => ({ url: i % 2 === 0 ? "shop://product/42" : "https://shop.example/checkout" })],
      ["app_launch", () => ({ package: SHOP, restart: true }), { label: "app_launch restart" }],
      ["ui_wait", () => ({ visible: { text: "Canvas sneakers" } }), { label: "ui_wait (holds at once)", setup: home }],
      ["app_clear", () => ({ package: SHOP })],
    ]);
    io.print(`targets (issue 17): harness-own time per act < ${OWN_TARGET_MS} ms median; adb runs per act ≤ 2 (in a session)`);
    const verdict = (ms: number, target: number) => (ms < target ? "met" : "MISSED");
    for (const row of verdicts) {
      io.print(
        `  ${row.label.padEnd(34)}own ${row.ownMs.toFixed(1)} ms (< ${OWN_TARGET_MS}: ${verdict(row.ownMs, OWN_TARGET_MS)})` +
          `, adb runs ${row.adbRuns.toFixed(1)}${
            row.label.endsWith("(own session)") ? " (no session: + adb devices)" : ` (≤ 2: ${verdict(row.adbRuns, 2.01)})`
          }`,
      );
    }
  },
};

const SHOP = "com.example.shop";
/** Issue 17's target for the harness's own time per act (median, device waits excluded). */
export const OWN_TARGET_MS = 10;
/** A row's own-time median and adb runs per call, for the verdict lines printed after the tables. */
interface Verdict {
  label: string;
  ownMs: number;
  adbRuns: number;
}
/** The tools that read beside a session (ui_wait among them) and refuse a session_id. */
const OBSERVE = new Set(["ui_wait", "ui_get_tree", "ui_screenshot", "device_status", "app_list"]);

type Row = [tool: string, args: (i: number) => Record<string, unknown>, options?: { label?: string; setup?: (sim: SimDevice) => void }];

async function measure(io: BenchIO, verdicts: Verdict[], scenario: string, rows: Row[]): Promise<void> {
  const sim = await startSimDevice({ scenario });
  const root = mkdtempSync(join(tmpdir(), "amh-bench-act-"));
  const waits: Interval[] = [];
  const busy: Interval[] = [];
  let adbRuns = 0;
  let requests = 0;
  const clock = timedClock(createSystemClock(), waits);
  const fs = createNodeFileSystem();
  const adb = createAdbClient({
    runner: timedRunner(createNodeProcessRunner(), busy, () => adbRuns++),
    program: findAdbProgram({ ADB: process.env["ADB"] }, { exists: () => false }),
    serverSocket: sim.adbServerSocket,
  });
  const observer = createAdbObserver({ adb, clock, requestedUdid: sim.device.serial, simulated: true });
  const hands = createUiSessions({
    drivers: timedDrivers(
      createAppiumDriverFactory({
        appiumUrl: sim.appiumUrl,
        adbServer: observer.adbServer,
        requestTimeoutMs: 30_000,
        newCommandTimeoutS: 600,
        uiIdleTimeoutMs: ACT_DEFAULTS.uiIdleTimeoutMs, // as composition.ts: the settle rule serve runs
      }),
      busy,
      () => requests++,
    ),
    lock: createDeviceLock({ directory: join(root, "locks"), fs, clock, probe: createNodeProcessProbe() }),
    clock,
    logger: silentLogger,
    idleTimeoutMs: 600_000,
    warmIdleTimeoutMs: 0, // every act its own session, as measured before the warm device
    newSessionId: () => `s-${randomUUID()}`,
  });
  const server = createHarnessServer({
    ports: { observer, evidence: createEvidenceStore({ directory: join(root, "artifacts"), fs, clock }), ui: hands.sessions, clock },
    lock: hands.lock,
    audit: createAuditLog({ directory: join(root, "artifacts"), fs }),
    clock,
    logger: silentLogger,
    actionTimeoutMs: 50_000,
    newOperationId: randomUUID,
    pending: createPendingEvidence({ clock, logger: silentLogger }),
  });
  const connected = await connectInMemory(server);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await connected.client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
    return result.structuredContent as { data: Record<string, unknown> };
  };
  try {
    /** ui_session_open, each one closed again (not timed). */
    const timedOpen = async () => {
      const totals: number[] = [];
      for (let i = 0; i < io.repetitions; i++) {
        const start = performance.now();
        const id = (await call("ui_session_open", {})).data["session_id"];
        totals.push(performance.now() - start);
        await call("ui_session_close", { session_id: id });
      }
      io.print(`${"ui_session_open".padEnd(34)}${`${median(totals).toFixed(1)}/${p95(totals).toFixed(1)}`}`);
    };
    const timed = async (
      label: string,
      name: string,
      args: (i: number) => Record<string, unknown>,
      extra: Record<string, unknown>,
      setup = (_: SimDevice) => {},
    ) => {
      const totals: number[] = [];
      const own: number[] = [];
      let runs = 0;
      let asked = 0;
      setup(sim.device);
      const send = (a: Record<string, unknown>) => call(name, OBSERVE.has(name) ? a : { ...a, ...extra }); // an observe tool takes no session_id
      await send(args(io.repetitions)); // warm-up: the JIT's first pass is not the harness's cost
      if (name === "ui_tap") await call("device_back", extra);
      for (let i = 0; i < io.repetitions; i++) {
        setup(sim.device);
        waits.length =
          busy.length =
          adbRuns =
          requests =
            0;
        const start = performance.now();
        await send(args(i));
        const total = performance.now() - start;
        totals.push(total);
        own.push(total - unionLength([...waits, ...busy].map(([a, b]) => [Math.max(a, start), Math.min(b, start + total)] as Interval)));
        runs += adbRuns;
        asked += requests;
        if (name === "ui_tap") await call("device_back", extra); // back to where the row starts (not timed)
      }
      const pair = (v: number[]) => `${median(v).toFixed(1)}/${p95(v).toFixed(1)}`.padEnd(17);
      if (!OBSERVE.has(name)) verdicts.push({ label, ownMs: median(own), adbRuns: runs / io.repetitions });
      io.print(
        `${label.padEnd(34)}${pair(totals)}${pair(own)}${(runs / io.repetitions).toFixed(1).padEnd(15)}${
          (asked / io.repetitions).toFixed(1)
        }`,
      );
    };
    await timedOpen();
    const session = (await call("ui_session_open", {})).data["session_id"] as string;
    for (const [tool, args, options] of rows) await timed(options?.label ?? tool, tool, args, { session_id: session }, options?.setup);
    await call("ui_session_close", { session_id: session });
    await timed(`${rows[0]![2]?.label ?? rows[0]![0]} (own session)`, rows[0]![0], rows[0]![1], {}, rows[0]![2]?.setup);
  } finally {
    await connected.close();
    await hands.closeAll("bench over");
    await sim.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

function timedClock(inner: Clock, waits: Interval[]): Clock {
  return {
    now: () => inner.now(),
    async sleep(ms, signal) {
      const start = performance.now();
      try {
        await inner.sleep(ms, signal);
      } finally {
        // The published act waits only: a session's idle timer (minutes) is not time the act spends.
        if (ms <= ACT_DEFAULTS.settleMaxMs) waits.push([start, performance.now()]);
      }
    },
  };
}

function timedRunner(inner: ProcessRunner, busy: Interval[], count: () => void): ProcessRunner {
  return {
    async run(program, args, options) {
      count();
      const start = performance.now();
      try {
        return await inner.run(program, args, options);
      } finally {
        busy.push([start, performance.now()]);
      }
    },
  };
}

/** A session start: new session, then waitForIdleTimeout set and read back (webdriverio_driver.ts). */
const SESSION_START_REQUESTS = 3;

/** Times every driver call (one UiAutomator2 request each; replaceText is two; a session start three). */
function timedDrivers(inner: UiDriverFactory, busy: Interval[], count: () => void): UiDriverFactory {
  const timed = <T>(work: () => Promise<T>, n = 1): Promise<T> => {
    for (let i = 0; i < n; i++) count();
    const start = performance.now();
    return work().finally(() => void busy.push([start, performance.now()]));
  };
  return {
    endpoint: inner.endpoint,
    drain: () => inner.drain(),
    async open(udid, options) {
      const driver = await timed(() => inner.open(udid, options), SESSION_START_REQUESTS);
      const wrapped = {} as Record<string, unknown>;
      for (const key of Object.keys(driver) as (keyof UiDriver)[]) {
        const value = driver[key];
        wrapped[key] = typeof value === "function"
          ? (...args: unknown[]) => timed(() => (value as (...a: unknown[]) => Promise<unknown>)(...args), key === "replaceText" ? 2 : 1)
          : value;
      }
      return wrapped as unknown as UiDriver;
    },
  };
}
