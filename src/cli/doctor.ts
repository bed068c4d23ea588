/**
 * `doctor [--json] [--device <udid|sim>] [--appium-url URL] [--artifacts DIR] [--timeout S]`: runs the
 * eight checks of SPEC §9 at once, each bounded by its timeout (default 5 s), and prints one
 * `[ok  ]`/`[MISS]` line per check, then how many block a real campaign and one remedy per miss (`--json`:
 * the same report as JSON, nothing else on stdout). `--device sim` checks the built-in simulated device,
 * started in process, whose UiAutomator2 server is then the Appium endpoint. Exit 0 when nothing blocks,
 * 1 otherwise, 2 for usage and invalid configuration. `serve` reuses `doctorReport` for doctor://report.
 */
import type { CAC } from "cac";
import { doctorPorts, type Harness, startSimulatedDevice } from "../composition.ts";
import { type HarnessConfig, loadConfig } from "../config.ts";
import { DEFAULT_CHECK_TIMEOUT_MS, DOCTOR_CHECKS, type DoctorReport, renderReport, runDoctor } from "../doctor/mod.ts";
import { isHarnessError } from "../errors.ts";
import { type CliContext, EXIT } from "./context.ts";
import { withDeviceOptions } from "./shared_options.ts";

interface DoctorFlags {
  json?: unknown;
  device?: unknown;
  appiumUrl?: unknown;
  artifacts?: unknown;
  timeout?: unknown;
}

/** Where a simulated device running in process answers. */
export interface SimEndpoints {
  serial: string;
  adbServerSocket: string;
  appiumUrl: string;
}

export function registerDoctorCommand(cli: CAC, ctx: CliContext): void {
  withDeviceOptions(
    cli
      .command("doctor", "Check the eight prerequisites of a real campaign at once; a remedy for each miss")
      .option("--json", "Print the report as JSON (nothing else on stdout)"),
    "Evidence and audit",
  )
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
    // Started without openHarness, which would create the artifacts directory the doctor only inspects.
    const sim = await startSimulatedDevice({});
    try {
      report = await doctorReport(config, ctx, {
        serial: sim.device.serial,
        adbServerSocket: sim.adbServerSocket,
        appiumUrl: sim.appiumUrl,
      }, { timeoutMs });
    } finally {
      await sim.stop();
    }
  } else {
    report = await doctorReport(config, ctx, undefined, { timeoutMs });
  }
  ctx.stdout(flags.json === true ? JSON.stringify(report, null, 2) + "\n" : renderReport(report));
  return report.ok ? EXIT.ok : EXIT.failure;
}

/** Runs the eight checks for this configuration; with `sim`, of that simulated device and its UiAutomator2 endpoint. */
export function doctorReport(
  config: HarnessConfig,
  ctx: CliContext,
  sim?: SimEndpoints,
  options: { timeoutMs?: number } = {},
): Promise<DoctorReport> {
  const checked: HarnessConfig = sim === undefined ? config : {
    ...config,
    device: { kind: "udid", udid: sim.serial },
    appiumUrl: sim.appiumUrl,
    adb: { ...config.adb, serverSocket: sim.adbServerSocket },
  };
  const inputs = { ...doctorPorts(ctx), config: checked, ...(sim === undefined ? {} : { simulated: { serial: sim.serial } }) };
  return runDoctor(DOCTOR_CHECKS, inputs, options);
}

/** The simulated device an open harness started (`serve --device sim`), or undefined for a real one. */
export function simEndpointsOf(harness: Harness): SimEndpoints | undefined {
  if (!harness.simulated) return undefined;
  const { observer } = harness.deps.ports;
  return { serial: observer.udid, adbServerSocket: observer.adbServer, appiumUrl: harness.appiumUrl };
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
