/**
 * The harness the bench's device sections (first use, act, mcp) measure, built once here: a started simulated
 * device reached through the real adb client (its runner given, so a section can time it), the real UI session layer
 * over the driver factory the section chooses (Appium's over the device's UiAutomator2 server, or the direct
 * backend), the evidence store, device lock and audit log in a temporary folder, and the real MCP server over the
 * in-memory transport. `close` ends the client, the sessions, then `stop` (a direct backend's instrumentation), the
 * device, and removes the folder.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import { type AdbClient, createAdbClient, createAdbObserver, findAdbProgram } from "../../src/adapters/adb/mod.ts";
import { createAdbScreenRecordings } from "../../src/adapters/adb/screen_recordings.ts";
import { createAdbAppPackages } from "../../src/adapters/adb/app_packages.ts";
import { createPendingEvidence, type PendingEvidence } from "../../src/mcp/pending_evidence.ts";
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
import type { DeviceObserver } from "../../src/ports/device.ts";
import type { ProcessRunner } from "../../src/ports/process_runner.ts";
import type { UiDriverFactory } from "../../src/ports/ui_driver.ts";
import type { RunningSim } from "../../src/sim/mod.ts";
import { connectInMemory } from "../../tests/support/mcp_client.ts";
import { silentLogger } from "../../tests/support/silent_logger.ts";

export interface BenchHarnessOptions {
  /** The temporary folder's name prefix. */
  folder: string;
  /** Default: the system clock. */
  clock?: Clock;
  /** The adb client's process runner. Default: node's. */
  runner?: ProcessRunner;
  /** The UI driver factory, given the adb client, the observer and the clock. */
  drivers(adb: AdbClient, observer: DeviceObserver, clock: Clock): UiDriverFactory;
  /** An explicit session's idle timeout (ANDROID_MCP_FLOW_IDLE_TIMEOUT). */
  idleTimeoutMs: number;
  /** The warm device's idle timeout (0: a session per act). */
  warmIdleTimeoutMs: number;
  /** ANDROID_MCP_ACTION_TIMEOUT. */
  actionTimeoutMs: number;
  /** Stopped after the sessions and before the device (a direct backend's factory). */
  stop?: () => Promise<void>;
}

export interface BenchHarness {
  client: Awaited<ReturnType<typeof connectInMemory>>["client"];
  /** The evidence captures behind the answers (a timed call drains them first). */
  pending: PendingEvidence;
  /** A tools/call that must succeed: its envelope's data. */
  call(name: string, args: Record<string, unknown>): Promise<{ data: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function openBenchHarness(sim: RunningSim, options: BenchHarnessOptions): Promise<BenchHarness> {
  const root = mkdtempSync(join(tmpdir(), options.folder));
  const clock = options.clock ?? createSystemClock();
  const fs = createNodeFileSystem();
  const adb = createAdbClient({
    runner: options.runner ?? createNodeProcessRunner(),
    program: findAdbProgram({ ADB: process.env["ADB"] }, { exists: () => false }),
    serverSocket: sim.adbServerSocket,
  });
  const observer = createAdbObserver({ adb, clock, requestedUdid: sim.device.serial, simulated: true });
  const hands = createUiSessions({
    drivers: options.drivers(adb, observer, clock),
    lock: createDeviceLock({ directory: join(root, "locks"), fs, clock, probe: createNodeProcessProbe() }),
    clock,
    logger: silentLogger,
    idleTimeoutMs: options.idleTimeoutMs,
    warmIdleTimeoutMs: options.warmIdleTimeoutMs,
    newSessionId: () => `s-${randomUUID()}`,
  });
  const pending = createPendingEvidence({ clock, logger: silentLogger });
  const server = createHarnessServer({
    ports: {
      observer,
      evidence: createEvidenceStore({ directory: join(root, "artifacts"), fs, clock }),
      ui: hands.sessions,
      clock,
      apps: createAdbAppPackages(adb),
      recordings: createAdbScreenRecordings({ adb, clock }),
    },
    lock: hands.lock,
    audit: createAuditLog({ directory: join(root, "artifacts"), fs }),
    clock,
    logger: silentLogger,
    actionTimeoutMs: options.actionTimeoutMs,
    newOperationId: randomUUID,
    pending,
  });
  const connected = await connectInMemory(server);
  return {
    client: connected.client,
    pending,
    async call(name, args) {
      // The client waits as long as the harness may work (the SDK's own 60 s cut a first use on a loaded machine short).
      const result = await connected.client.callTool({ name, arguments: args }, undefined, { timeout: options.actionTimeoutMs + 10_000 });
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
      return result.structuredContent as { data: Record<string, unknown> };
    },
    async close() {
      try {
        // The last call's capture and audit line finish after its answer: removing the directory under them failed
        // the bench once (ENOTEMPTY), so wait for them as serve does at a stop.
        await pending.drain();
        await connected.close();
        await hands.closeAll("bench over");
        await options.stop?.();
        await sim.stop();
      } finally {
        rmSync(root, { recursive: true, force: true, maxRetries: 3 });
      }
    },
  };
}

/** Appium's driver factory over the simulated device's own UiAutomator2 server, with serve's settle rule. */
export function simAppiumDrivers(sim: RunningSim, newCommandTimeoutS: number) {
  return (_adb: AdbClient, observer: DeviceObserver): UiDriverFactory =>
    createAppiumDriverFactory({
      appiumUrl: sim.appiumUrl,
      adbServer: observer.adbServer,
      requestTimeoutMs: 30_000,
      newCommandTimeoutS,
      uiIdleTimeoutMs: ACT_DEFAULTS.uiIdleTimeoutMs, // as composition.ts: the settle rule serve runs
    });
}
