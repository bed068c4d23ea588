/**
 * The composition module: the one place that builds real adapters. `realProcessAdapters()` gives the
 * process runner, clock and logger main.ts puts into the CLI context; `openHarness(config, ctx)` builds
 * everything a device needs (adb observer, evidence store, audit log, device lock, Appium UI sessions)
 * and the served tools, for `serve`, `tree` and `flow`; `doctorPorts(ctx)` what `doctor` asks
 * through (HTTP, a TCP probe, a file probe, the runtime, adb clients). The simulated device is loaded only for
 * `--device sim`, the tools when a harness is opened, and the Appium adapter on the first UI session,
 * so a command loads only what it uses. Throws HarnessError (INVALID_ARGUMENT for a bad scenario, INTERNAL_ERROR
 * for an unusable directory).
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { homedir, platform } from "node:os";
import { ACT_DEFAULTS } from "../contracts/act_defaults.ts";
import { createAdbClient } from "./adapters/adb/adb_client.ts";
import { findAdbProgram } from "./adapters/adb/adb_program.ts";
import type { PlatformFacts, RetentionResult } from "./adapters/evidence/mod.ts";
import type { AppiumDriverFactoryOptions } from "./adapters/appium/mod.ts";
import type { DirectDriverFactory, DirectDriverFactoryOptions } from "./adapters/uia2_direct/mod.ts";
import { createFetchHttpClient } from "./adapters/fetch_http_client.ts";
import { createNodeFileProbe } from "./adapters/node_file_probe.ts";
import { createNodeProcessRunner, type NodeProcessRunner } from "./adapters/node_process_runner.ts";
import { createStderrLogger } from "./adapters/stderr_logger.ts";
import { currentRuntime } from "./adapters/runtime_facts.ts";
import { createSystemClock } from "./adapters/system_clock.ts";
import { createTcpSocketProbe } from "./adapters/tcp_socket_probe.ts";
import type { CliContext } from "./cli/context.ts";
import { appiumTarget } from "./appium_url.ts";
import type { HarnessConfig } from "./config.ts";
import type { DoctorPorts } from "./doctor/types.ts";
import type { OperationDeps } from "./mcp/run_operation.ts";
import type { Clock } from "./ports/clock.ts";
import type { EvidenceStore, FileSystem } from "./ports/evidence.ts";
import type { Logger } from "./ports/logger.ts";
import type { ProcessRunner } from "./ports/process_runner.ts";
import type { ScreenRecordings } from "./ports/screen_recording.ts";
import type { UiDriverFactory } from "./ports/ui_driver.ts";
import type { RunningSim, SimDeviceOptions } from "./sim/mod.ts";
import type { AnyToolHandler } from "./ports/operation.ts";

export interface ProcessAdapters {
  runner: ProcessRunner;
  clock: Clock;
  logger: Logger;
}

/** The real process runner, system clock and stderr logger (main.ts hands them to every command; it
 * also ends the runner's children when the harness is stopped: `runner.killAll()`). */
export function realProcessAdapters(): ProcessAdapters & { runner: NodeProcessRunner } {
  return { runner: createNodeProcessRunner(), clock: createSystemClock(), logger: createStderrLogger() };
}

export interface Harness {
  /** What runOperation needs: ports, lock, audit, clock, logger, time limit, operation ids. */
  deps: OperationDeps;
  /** The served tools, in publication order. */
  tools: readonly AnyToolHandler[];
  /** For stderr: which device, and whether it is simulated. */
  description: string;
  simulated: boolean;
  /** Where evidence and the audit log go, and why there. */
  artifacts: { path: string; reason: string };
  /** The file system port, for what a command writes next to the evidence (flow reports, recordings). */
  fs: FileSystem;
  /** The Appium endpoint the UI sessions use (the simulated device's own for `--device sim`). */
  appiumUrl: string;
  /** Removes evidence older than ANDROID_MCP_EVIDENCE_RETENTION_DAYS from the artifacts directory (reports
   * and the audit log stay); `serve` calls it at start. Never throws. */
  pruneOldEvidence(): Promise<RetentionResult>;
  /** Finishes the evidence captures still under way, closes every open UI session (deleting it on the Appium side)
   * and stops an in-process simulated device. */
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Options for the simulated device `--device sim` starts (scenario, screen, faults). */
  sim?: SimDeviceOptions;
}

/** Starts the built-in simulated device: `openHarness` for `--device sim`, `doctor --device sim` and the `sim`
 * command all start it here. Loaded only then (a dynamic import): a real phone never pays for its code. */
export async function startSimulatedDevice(options: SimDeviceOptions = {}): Promise<RunningSim> {
  const { startSimDevice } = await import("./sim/mod.ts");
  return await startSimDevice(options);
}

export function platformFacts(ctx: Pick<CliContext, "cwd" | "env">): PlatformFacts {
  return { platform: platform(), homeDir: homedir(), cwd: ctx.cwd, env: ctx.env };
}

/** The real ports and facts the doctor's checks ask through (the `doctor` command and doctor://report). */
export function doctorPorts(ctx: Pick<CliContext, "cwd" | "env" | "runner" | "clock">): DoctorPorts {
  const facts = platformFacts(ctx);
  return {
    env: ctx.env,
    platform: facts.platform,
    cwd: ctx.cwd,
    homeDir: facts.homeDir,
    runtime: currentRuntime(),
    runner: ctx.runner,
    http: createFetchHttpClient(),
    socket: createTcpSocketProbe(),
    files: createNodeFileProbe(),
    clock: ctx.clock,
    openAdb: (program, serverSocket) => createAdbClient({ runner: ctx.runner, program, serverSocket }),
  };
}

export async function openHarness(config: HarnessConfig, ctx: CliContext, options: HarnessOptions = {}): Promise<Harness> {
  const program = findAdbProgram({ ADB: config.adb.path, ANDROID_HOME: config.adb.androidHome }, {
    exists: existsSync,
    platform: platform(),
  });
  let serverSocket = config.adb.serverSocket;
  let appiumUrl = config.appiumUrl;
  let requestedUdid = config.device.kind === "udid" ? config.device.udid : undefined;
  let description = requestedUdid === undefined ? "the only online device" : `device ${requestedUdid}`;
  let stopSim = async (): Promise<void> => {};
  let missingPackageHint: ((packageName: string) => string) | undefined;
  // Loaded here, not at start: the evidence store (and its PNG work), the lock and the audit are for a device.
  const {
    createAuditLog,
    createDeviceLock,
    createEvidenceStore,
    createNodeFileSystem,
    createNodeProcessProbe,
    createStaleSessionEnder,
    currentUserFacts,
    lockDirectory,
    othersCanWrite,
    pruneOldEvidence,
    resolveArtifactsDirectory,
    sweepDrafts,
    sweepStaleLocks,
  } = await import("./adapters/evidence/mod.ts");
  // Before any device starts: an artifacts directory that cannot be used is refused at once, the only line said.
  const fs = createNodeFileSystem();
  const probe = createNodeFileProbe();
  const disk = {
    isWritableDirectory: fs.isWritableDirectory,
    exists: async (path: string) => (await probe.kindOf(path)) !== "missing",
    othersCanWrite: async (path: string) => othersCanWrite(path),
  };
  const artifacts = await resolveArtifactsDirectory(platformFacts(ctx), disk, config.artifactsDir);
  if (config.device.kind === "sim") {
    const sim = await startSimulatedDevice(options.sim ?? {});
    stopSim = () => sim.stop();
    missingPackageHint = (await import("./sim/mod.ts")).missingPackageHint;
    serverSocket = sim.adbServerSocket;
    if (config.backend === "appium") appiumUrl = sim.appiumUrl;
    // Several simulated devices are served as adb lists several: none bound, each call names its device.
    const serials = sim.devices.map((d) => `${d.serial} (${d.model})`).join(", ");
    if (sim.devices.length === 1) requestedUdid = sim.device.serial;
    description = sim.devices.length === 1 ? `simulated device ${sim.device.serial}` : `${sim.devices.length} simulated devices`;
    ctx.logger.info(
      `${
        sim.devices.length === 1 ? "the device is" : "the devices are"
      } SIMULATED: ${serials} at ADB_SERVER_SOCKET=${sim.adbServerSocket}` +
        (config.backend === "appium" ? `, APPIUM_URL=${sim.appiumUrl}` : " (UI sessions: direct, the harness's own UiAutomator2 server)"),
    );
  }
  try {
    // Loaded here, not at start: the observer and the UI sessions are for a device.
    const { createAdbObserver } = await import("./adapters/adb/observer.ts");
    const { openLinkThroughAdb } = await import("./adapters/adb/open_link.ts");
    const { createAdbAppPackages } = await import("./adapters/adb/app_packages.ts");
    const { createUiSessions } = await import("./device/ui_sessions.ts");
    const { createPendingEvidence } = await import("./mcp/pending_evidence.ts");
    const { createAdbScreenRecordings } = await import("./adapters/adb/screen_recordings.ts");
    const adb = createAdbClient({ runner: ctx.runner, program, ...(serverSocket === undefined ? {} : { serverSocket }) });
    const observer = createAdbObserver({
      adb,
      clock: ctx.clock,
      ...(requestedUdid === undefined ? {} : { requestedUdid }),
      ...(config.device.kind === "sim" ? { simulated: true } : {}),
      ...(missingPackageHint === undefined ? {} : { missingPackageHint }),
    });
    // This user's lock directory on this machine, the same whatever the environment (state_directories.ts).
    const user = currentUserFacts(platform(), homedir());
    const locks = lockDirectory(user).path;
    // A takeover of a dead holder's lock ends the Appium session it noted (issue 18 defect 9).
    const endStaleSession = createStaleSessionEnder({ http: createFetchHttpClient(), logger: ctx.logger, appiumUrl });
    const lockOptions = {
      directory: locks,
      fs,
      clock: ctx.clock,
      probe: createNodeProcessProbe(),
      endStaleSession,
      // The simulated device's adb server runs in this process: its locks say so, for the sweep below.
      ...(config.device.kind === "sim" ? { adbServerInProcess: true } : {}),
    };
    // Locks of dead holders no later acquire would take over (a SIGKILLed `serve --device sim`'s, keyed by a random
    // adb port; any untouched for 24 h): removed without a connection (device_lock.ts sweepStaleLocks).
    await sweepStaleLocks({ directory: locks, fs, clock: ctx.clock, probe: lockOptions.probe });
    // Drafts a killed writer left (issue 25 item 7): this user's, older than any live write (draft_sweep.ts).
    const drafts = await sweepDrafts({ directories: [artifacts.path, locks], fs, nowMs: ctx.clock.now() });
    if (drafts.removed > 0) ctx.logger.info(`removed ${drafts.removed} draft file(s) killed processes left (older than 2 h)`);
    // The per-user file lock, then the lock on the device every user of its adb server sees (issue 25 defect 5).
    const { createDeviceSideLock, DEVICE_LEASE_MS, withDeviceSideLock } = await import("./adapters/adb/device_side_lock.ts");
    const fileLock = withDeviceSideLock(
      createDeviceLock(lockOptions),
      createDeviceSideLock({
        adb,
        clock: ctx.clock,
        probe: lockOptions.probe,
        uid: user.uid,
        logger: ctx.logger,
        // An operation renotes nothing: another host's holder must keep the device for the longest one.
        leaseMs: Math.max(DEVICE_LEASE_MS, config.actionTimeoutSeconds * 1000 + 60_000),
        endStaleSession,
      }),
    );
    // Without an Appium URL the harness starts the device's UiAutomator2 server itself (only adb needed).
    const drivers = config.backend === "appium"
      ? lazyAppiumDriverFactory({
        appiumUrl,
        adbServer: observer.adbServer,
        requestTimeoutMs: config.actionTimeoutSeconds * 1000,
        // Appium ends a session idle past this: the warm one must outlive its own idle timeout.
        newCommandTimeoutS: Math.max(config.flowIdleTimeoutSeconds, config.warmIdleTimeoutSeconds) + 30,
        uiIdleTimeoutMs: ACT_DEFAULTS.uiIdleTimeoutMs,
        // Deep links through our adb, the URL quoted (issue 25 item 9): the driver's shell line escapes only `&`.
        openLink: (link, limits) => openLinkThroughAdb(adb, link, limits),
      })
      : lazyDirectDriverFactory({
        adb,
        clock: ctx.clock,
        apks: async () => {
          const direct = await import("./adapters/uia2_direct/mod.ts");
          return await direct.serverApksIn(direct.apkCacheDirectory(platform(), homedir(), ctx.env));
        },
        requestTimeoutMs: config.actionTimeoutSeconds * 1000,
        uiIdleTimeoutMs: ACT_DEFAULTS.uiIdleTimeoutMs,
        onProgress: (progress) => ctx.logger.info(progress.message),
      });
    const ui = createUiSessions({
      drivers,
      lock: fileLock,
      clock: ctx.clock,
      logger: ctx.logger,
      idleTimeoutMs: config.flowIdleTimeoutSeconds * 1000,
      warmIdleTimeoutMs: config.warmIdleTimeoutSeconds * 1000,
      newSessionId: () => `s-${randomUUID().replaceAll("-", "")}`,
    });
    const evidence = createEvidenceStore({ directory: artifacts.path, fs, clock: ctx.clock });
    const recordings = createAdbScreenRecordings({ adb, clock: ctx.clock });
    const deps: OperationDeps = {
      ports: {
        observer,
        evidence,
        ui: ui.sessions,
        clock: ctx.clock,
        apps: createAdbAppPackages(adb),
        recordings,
      },
      lock: ui.lock,
      audit: createAuditLog({ directory: artifacts.path, fs }),
      clock: ctx.clock,
      logger: ctx.logger,
      actionTimeoutMs: config.actionTimeoutSeconds * 1000,
      newOperationId: randomUUID,
      pending: createPendingEvidence({ clock: ctx.clock, logger: ctx.logger }),
    };
    // The handlers load on the first tool call (a server that only lists its tools never loads them).
    const { SERVED_TOOLS_ON_DEMAND } = await import("./tools/on_demand.ts");
    return {
      deps,
      tools: SERVED_TOOLS_ON_DEMAND,
      description,
      simulated: config.device.kind === "sim",
      artifacts: { path: artifacts.path, reason: artifacts.reason },
      fs,
      appiumUrl,
      pruneOldEvidence: () =>
        pruneOldEvidence({ directory: artifacts.path, fs, nowMs: ctx.clock.now(), maxAgeDays: config.evidenceRetentionDays }),
      close: async () => {
        try {
          await deps.pending.drain(); // evidence still being captured behind its answers is stored first
          await keepRunningRecordings(recordings, evidence, ctx.logger);
          await ui.closeAll("the harness is stopping");
          await drivers.stop();
        } finally {
          await stopSim();
        }
      },
    };
  } catch (error) {
    await stopSim();
    throw error;
  }
}

/** A normal stop keeps every running screen recording as evidence, each said on stderr with its artifact:// URI. */
async function keepRunningRecordings(recordings: ScreenRecordings, evidence: EvidenceStore, logger: Logger): Promise<void> {
  if (recordings.running().length === 0) return;
  const { keepRecording } = await import("./device/recording_evidence.ts");
  for (const udid of recordings.running()) {
    try {
      const finished = await recordings.stop(udid, { timeoutMs: 30_000 });
      const { refs } = await keepRecording(evidence, finished.segments);
      logger.info(`the screen recording of ${udid} was stopped and kept: ${refs.map((ref) => `${ref.uri} (${ref.path})`).join(", ")}`);
    } catch (error) {
      logger.warn(`the screen recording of ${udid} could not be kept: ${(error as Error).message}`);
    }
  }
}

/** A UiDriverFactory that can also end what it started on the device (the direct backend's instrumentations). */
type StoppableFactory = UiDriverFactory & { stop(): Promise<void> };

/**
 * The direct UiDriverFactory (the harness's own UiAutomator2 server over adb), loaded on its first `open` like the
 * Appium one: webdriverio is for the first UI session. Its endpoint is the server's forwarded URL once started.
 */
function lazyDirectDriverFactory(options: DirectDriverFactoryOptions): StoppableFactory {
  let loaded: Promise<DirectDriverFactory> | undefined;
  // `await import("…")` as written: the single executable's build makes exactly this form static.
  const real = () => loaded ??= (async () => (await import("./adapters/uia2_direct/mod.ts")).createDirectDriverFactory(options))();
  let endpoint = DIRECT_BACKEND;
  return {
    get endpoint() {
      return endpoint;
    },
    open: async (udid, open) => {
      const factory = await real();
      const driver = await factory.open(udid, open);
      endpoint = factory.endpoint;
      return driver;
    },
    drain: async (onWait) => {
      if (loaded !== undefined) await (await loaded).drain(onWait);
    },
    stop: async () => {
      if (loaded !== undefined) await (await loaded).stop();
    },
  };
}

const DIRECT_BACKEND = "direct (the harness's own UiAutomator2 server over adb)";

/**
 * The Appium UiDriverFactory, loaded on its first `open`: code that `tree --file`, `doctor` and a `serve` that
 * only observes never need. The endpoint is known at
 * once; `drain` has nothing to wait for before the adapter exists.
 */
function lazyAppiumDriverFactory(options: AppiumDriverFactoryOptions): StoppableFactory {
  let loaded: Promise<UiDriverFactory> | undefined;
  // `await import("…")` as written: the single executable's build makes exactly this form static.
  const real = () => loaded ??= (async () => (await import("./adapters/appium/mod.ts")).createAppiumDriverFactory(options))();
  return {
    endpoint: appiumTarget(options.appiumUrl).endpoint,
    open: async (udid, open) => (await real()).open(udid, open),
    drain: async (onWait) => {
      if (loaded !== undefined) await (await loaded).drain(onWait);
    },
    stop: async () => {},
  };
}
