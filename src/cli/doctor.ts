/**
 * `doctor [--json] [--device <udid|sim>] [--appium-url URL] [--artifacts DIR] [--timeout S]`: runs the
 * eight checks of SPEC §9 at once, each bounded by its timeout (default 5 s), and prints one
 * `[ok  ]`/`[MISS]` line per check, then how many block a real campaign and one remedy per miss (`--json`:
 * the same report as JSON, nothing else on stdout). `--device sim` checks the built-in simulated device,
 * started in process, whose UiAutomator2 server is then the Appium endpoint. Exit 0 when nothing blocks,
 * 1 otherwise, 2 for usage and invalid configuration.
 */
import { homedir, platform } from "node:os";
import type { CAC } from "cac";
import { createFetchHttpClient } from "../adapters/fetch_http_client.ts";
import { createNodeFileProbe } from "../adapters/node_file_probe.ts";
import { currentRuntime } from "../adapters/runtime_facts.ts";
import { createTcpSocketProbe } from "../adapters/tcp_socket_probe.ts";
import { type HarnessConfig, loadConfig } from "../config.ts";
import { DEFAULT_CHECK_TIMEOUT_MS, DOCTOR_CHECKS, type DoctorInputs, type DoctorReport, renderReport, runDoctor } from "../doctor/mod.ts";
import { isHarnessError } from "../errors.ts";
import { startSimDevice } from "../sim/mod.ts";
import { type CliContext, EXIT } from "./context.ts";

interface DoctorFlags {
  json?: unknown;
  device?: unknown;
  appiumUrl?: unknown;
  artifacts?: unknown;
  timeout?: unknown;
}

export function registerDoctorCommand(cli: CAC, ctx: CliContext): void {
  cli
    .command("doctor", "Check the eight prerequisites of a real campaign at once; a remedy for each miss")
    .option("--json", "Print the report as JSON (nothing else on stdout)")
    .option("--device <udid|sim>", "Device serial, or 'sim' for the built-in simulated device (default: ANDROID_UDID, else the only online device)")
    .option("--appium-url <url>", "Appium server (default: APPIUM_URL, else http://127.0.0.1:4723)")
    .option("--artifacts <dir>", "Evidence and audit directory (default: ANDROID_MCP_ARTIFACTS_DIR, else ./artifacts when writable)")
    .option("--timeout <seconds>", `Time each check may take (default ${DEFAULT_CHECK_TIMEOUT_MS / 1000})`)
    .example("android-mcp-harness doctor")
    .example("android-mcp-harness doctor --device sim --json")
    .action((flags: DoctorFlags) => runDoctorCommand(flags, ctx));
}

export async function runDoctorCommand(flags: DoctorFlags, ctx: CliContext): Promise<number> {
  const timeoutMs = parseTimeout(flags.timeout);
  if (timeoutMs === null) return usage(ctx, "--timeout must be a whole number of seconds between 1 and 60.");
  let config: HarnessConfig;
  try {
    config = loadConfig(ctx.env, configFlags(flags));
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    return usage(ctx, error.message);
  }
  let report: DoctorReport;
  if (config.device.kind === "sim") {
    const sim = await startSimDevice({});
    try {
      report = await doctorReport(config, ctx, sim, { timeoutMs });
    } finally {
      await sim.stop();
    }
  } else {
    report = await doctorReport(config, ctx, undefined, { timeoutMs });
  }
  ctx.stdout(flags.json === true ? JSON.stringify(report, null, 2) + "\n" : renderReport(report));
  return report.ok ? EXIT.ok : EXIT.failure;
}

/** Where a simulated device started in process answers. */
export interface SimEndpoints {
  device: { serial: string };
  adbServerSocket: string;
  appiumUrl: string;
}

/** Runs the eight checks for this configuration; with `sim`, of that simulated device (`serve` reuses it for doctor://report). */
export function doctorReport(config: HarnessConfig, ctx: CliContext, sim?: SimEndpoints, options: { timeoutMs?: number } = {}): Promise<DoctorReport> {
  const inputs = sim === undefined ? doctorInputs(config, ctx) : doctorInputs(simulatedConfig(config, sim), ctx, { serial: sim.device.serial });
  return runDoctor(DOCTOR_CHECKS, inputs, options);
}

/** The real ports `doctor` asks through, over the CLI context's environment and process runner. */
function doctorInputs(config: HarnessConfig, ctx: CliContext, simulated?: { serial: string }): DoctorInputs {
  return {
    config,
    env: ctx.env,
    platform: platform(),
    cwd: ctx.cwd,
    homeDir: homedir(),
    runtime: currentRuntime(),
    runner: ctx.runner,
    http: createFetchHttpClient(),
    socket: createTcpSocketProbe(),
    files: createNodeFileProbe(),
    clock: ctx.clock,
    ...(simulated === undefined ? {} : { simulated }),
  };
}

/** With `--device sim`: the simulated device's adb server and serial, and its UiAutomator2 server as the Appium endpoint. */
function simulatedConfig(config: HarnessConfig, sim: SimEndpoints): HarnessConfig {
  return {
    ...config,
    device: { kind: "udid", udid: sim.device.serial },
    appiumUrl: sim.appiumUrl,
    adb: { ...config.adb, serverSocket: sim.adbServerSocket },
  };
}

function configFlags(flags: DoctorFlags): { device?: string; appiumUrl?: string; artifacts?: string } {
  const out: { device?: string; appiumUrl?: string; artifacts?: string } = {};
  if (flags.device !== undefined && flags.device !== true) out.device = String(flags.device);
  if (flags.appiumUrl !== undefined && flags.appiumUrl !== true) out.appiumUrl = String(flags.appiumUrl);
  if (flags.artifacts !== undefined && flags.artifacts !== true) out.artifacts = String(flags.artifacts);
  return out;
}

function parseTimeout(value: unknown): number | null {
  if (value === undefined) return DEFAULT_CHECK_TIMEOUT_MS;
  const seconds = /^\d+$/.test(String(value)) ? Number(value) : Number.NaN;
  return Number.isInteger(seconds) && seconds >= 1 && seconds <= 60 ? seconds * 1000 : null;
}

function usage(ctx: CliContext, message: string): number {
  ctx.stderr(`doctor: ${message}\n`);
  return EXIT.usage;
}
