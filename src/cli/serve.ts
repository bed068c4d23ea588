/**
 * `serve`: the MCP server on stdio (SPEC §2). Builds the real adapters from the configuration (adb
 * observer, evidence store, audit log, device lock); `--device sim` starts the simulated device in
 * process and points the real adb client at it; `doctor://report` runs the doctor on each read.
 * stdout carries only protocol; stderr says which
 * artifacts directory is used and when the device is simulated. Exits 0 on stdin EOF or SIGINT/SIGTERM.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { homedir, platform } from "node:os";
import process from "node:process";
import type { Readable, Writable } from "node:stream";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.d.ts"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CAC } from "cac";
import { createAdbClient, createAdbObserver, findAdbProgram } from "../adapters/adb/mod.ts";
import {
  createAuditLog, createDeviceLock, createEvidenceStore, createNodeFileSystem, createNodeProcessProbe, lockDirectory,
  type PlatformFacts, resolveArtifactsDirectory,
} from "../adapters/evidence/mod.ts";
import { type HarnessConfig, loadConfig } from "../config.ts";
import { isHarnessError } from "../errors.ts";
import { createHarnessServer } from "../mcp/server.ts";
import type { DeviceObserver } from "../ports/device.ts";
import type { DeviceLock } from "../ports/evidence.ts";
import { startSimDevice } from "../sim/mod.ts";
import { type CliContext, EXIT } from "./context.ts";
import { doctorReport, type SimEndpoints } from "./doctor.ts";

/** As cac parses them: a value that looks like a number arrives as one. */
interface ServeFlags {
  device?: unknown;
  appiumUrl?: unknown;
  artifacts?: unknown;
}

export interface StdioStreams {
  stdin: Readable;
  stdout: Writable;
}

export function registerServeCommand(cli: CAC, ctx: CliContext): void {
  cli
    .command("serve", "MCP server on stdio (the main job); logs go to stderr")
    .option("--device <udid|sim>", "Device serial, or 'sim' for the built-in simulated device (default: ANDROID_UDID, else the only online device)")
    .option("--appium-url <url>", "Appium server (default: APPIUM_URL, else http://127.0.0.1:4723)")
    .option("--artifacts <dir>", "Evidence and audit directory (default: ANDROID_MCP_ARTIFACTS_DIR, else ./artifacts when writable)")
    .example("android-mcp-harness serve --device sim")
    // The protocol needs the process's own byte streams; this is the one place that names them.
    .action((flags: ServeFlags) => runServe(flags, ctx, { stdin: process.stdin, stdout: process.stdout }));
}

export async function runServe(flags: ServeFlags, ctx: CliContext, streams: StdioStreams): Promise<number> {
  let config: HarnessConfig;
  const given = cleanFlags(flags);
  try {
    config = loadConfig(ctx.env, given);
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    ctx.stderr(`serve: ${error.message}\n`);
    return EXIT.usage;
  }
  let device: OpenedDevice | undefined;
  try {
    device = await openDevice(config, ctx);
    const facts = platformFacts(ctx);
    const fs = createNodeFileSystem();
    const artifacts = await resolveArtifactsDirectory(facts, fs, config.artifactsDir);
    ctx.logger.info(`artifacts: ${artifacts.path} (${artifacts.reason})`);
    const sim = device.sim;
    const server = createHarnessServer({
      ports: { observer: device.observer, evidence: createEvidenceStore({ directory: artifacts.path, fs, clock: ctx.clock }) },
      lock: deviceLockFor(ctx),
      audit: createAuditLog({ directory: artifacts.path, fs }),
      clock: ctx.clock,
      logger: ctx.logger,
      actionTimeoutMs: config.actionTimeoutSeconds * 1000,
      newOperationId: randomUUID,
    }, undefined, { doctorReport: () => doctorReport(config, ctx, sim) });
    const transport = new StdioServerTransport(streams.stdin, streams.stdout);
    const closed = new Promise<string>((resolve) => {
      transport.onclose = () => resolve("transport closed");
      streams.stdin.once("end", () => resolve("stdin closed"));
      streams.stdin.once("close", () => resolve("stdin closed"));
    });
    await server.connect(transport);
    ctx.logger.info(`serving MCP on stdio (${device.description})`);
    const reason = await Promise.race([closed, ctx.waitForStop()]);
    ctx.logger.info(`stopping: ${reason}`);
    await server.close();
    return EXIT.ok;
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    ctx.stderr(`serve: ${error.code}: ${error.message}\n`);
    return EXIT.failure;
  } finally {
    await device?.stop();
  }
}

function platformFacts(ctx: CliContext): PlatformFacts {
  return { platform: platform(), homeDir: homedir(), cwd: ctx.cwd, env: ctx.env };
}

/** The cross-process device lock every command that reads or drives a device takes (user's state directory). */
export function deviceLockFor(ctx: CliContext): DeviceLock {
  const facts = platformFacts(ctx);
  return createDeviceLock({ directory: lockDirectory(facts).path, fs: createNodeFileSystem(), clock: ctx.clock, probe: createNodeProcessProbe() });
}

export interface OpenedDevice {
  observer: DeviceObserver;
  /** The in-process simulated device's endpoints, for `doctor://report`. */
  sim?: SimEndpoints;
  /** For stderr: which device, and whether it is simulated. */
  description: string;
  stop(): Promise<void>;
}

/**
 * The device the configuration names, observed over the real adb client; for `sim`, a simulated
 * device started in process (stopped by `stop()`). Reusable by `tree` and `flow` on a live device.
 */
export async function openDevice(config: HarnessConfig, ctx: CliContext): Promise<OpenedDevice> {
  const program = findAdbProgram({ ADB: config.adb.path, ANDROID_HOME: config.adb.androidHome }, { exists: existsSync, platform: platform() });
  if (config.device.kind === "sim") {
    const sim = await startSimDevice({});
    ctx.logger.info(`the device is SIMULATED: ${sim.device.serial} (${sim.device.model}) at ADB_SERVER_SOCKET=${sim.adbServerSocket}`);
    const adb = createAdbClient({ runner: ctx.runner, program, serverSocket: sim.adbServerSocket });
    return {
      observer: createAdbObserver({ adb, clock: ctx.clock, requestedUdid: sim.device.serial, simulated: true }),
      description: `simulated device ${sim.device.serial}`,
      sim,
      stop: () => sim.stop(),
    };
  }
  const adb = createAdbClient({
    runner: ctx.runner,
    program,
    ...(config.adb.serverSocket === undefined ? {} : { serverSocket: config.adb.serverSocket }),
  });
  const requested = config.device.kind === "udid" ? config.device.udid : undefined;
  return {
    observer: createAdbObserver({ adb, clock: ctx.clock, ...(requested === undefined ? {} : { requestedUdid: requested }) }),
    description: requested === undefined ? "the only online device" : `device ${requested}`,
    stop: async () => {},
  };
}

function cleanFlags(flags: ServeFlags): { device?: string; appiumUrl?: string; artifacts?: string } {
  const out: { device?: string; appiumUrl?: string; artifacts?: string } = {};
  if (flags.device !== undefined && flags.device !== true) out.device = String(flags.device);
  if (flags.appiumUrl !== undefined && flags.appiumUrl !== true) out.appiumUrl = String(flags.appiumUrl);
  if (flags.artifacts !== undefined && flags.artifacts !== true) out.artifacts = String(flags.artifacts);
  return out;
}
