/**
 * `flow FILE.json [--device D]… [--scenario S] [--json]`: the reference client (SPEC §8). Refuses an
 * invalid flow before anything runs (every problem with its field's path, exit 1), opens one harness per
 * device (composition.ts), runs the flow on all of them in parallel (runner.ts: one session, one lock per
 * device), prints progress on stderr, writes the JSON, HTML and JUnit reports to `<artifacts>/reports/`,
 * and exits with the flow's code: 0 passed, 1 invalid flow or error, 2 timed out, 3 unexpected screen,
 * 4 device fault, 5 no progress. `--json` prints the report (with the report paths) on stdout. SIGINT or
 * SIGTERM cancels the step in flight, closes the sessions and writes the reports (exit 1, the step named).
 */
import { resolve } from "node:path";
import type { CAC } from "cac";
import { FLOW_EXIT, flowEnvTexts, type FlowFile, maskEnvTexts, parseFlowText, resolveFlowEnv } from "../../contracts/flow.ts";
import { downscaleForModel } from "../png/mod.ts";
import { type Harness, openHarness } from "../composition.ts";
import { type HarnessConfig, loadConfig } from "../config.ts";
import { HarnessError, isHarnessError } from "../errors.ts";
import { buildFlowReport, deviceName } from "../flow/flow_report.ts";
import type { FlowRun } from "../flow/flow_run.ts";
import { runFlow, type StepProgress, unservedTools } from "../flow/runner.ts";
import { writeFlowReports } from "../flow/write_reports.ts";
import type { Scenario } from "../sim/mod.ts";
import { BUILTIN_SCENARIO_NAMES } from "../../contracts/scenario_names.ts";
import type { CliContext } from "./context.ts";
import { FILE_LIMITS, readFileArgument, unreadableReason } from "./read_file_argument.ts";
import { loadScenario } from "./sim.ts";
import { artifactsHelp } from "./shared_options.ts";
import { scenarioWithoutSim } from "./sim_screen.ts";

interface FlowFlags {
  device?: unknown;
  appiumUrl?: unknown;
  artifacts?: unknown;
  scenario?: unknown;
  json?: boolean;
}

/** Thumbnails in the HTML report: long side in px, and a byte budget per image. */
const THUMBNAIL_SIDE = 240;
const THUMBNAIL_BYTES = 150_000;

export function registerFlowCommand(cli: CAC, ctx: CliContext): void {
  cli
    .command("flow <file>", "Run a flow file (docs/flows.md) on one or more devices and write JSON, HTML and JUnit reports")
    .option(
      "--device <udid|sim>",
      "Device serial or 'sim'; repeat for several devices run in parallel (default: the flow's device, else ANDROID_UDID, else the only online device)",
    )
    .option("--appium-url <url>", "Appium server or Selenium Grid 4 (default: APPIUM_URL, else http://127.0.0.1:4723)")
    .option(
      "--artifacts <dir>",
      artifactsHelp("Evidence, audit and reports"),
    )
    .option(
      "--scenario <name|file>",
      `For --device sim: a built-in scenario (${BUILTIN_SCENARIO_NAMES.join(", ")}) or a scenario JSON file`,
    )
    .option("--json", "Print the report as JSON on stdout (progress stays on stderr)")
    .example("android-mcp-harness flow docs/flows/settings-exploration.json --device sim")
    .example("android-mcp-harness flow login.json --device emulator-5554 --device emulator-5556")
    .action((file: string, flags: FlowFlags) => runFlowCommand(file, flags, ctx));
}

export async function runFlowCommand(file: string, flags: FlowFlags, ctx: CliContext): Promise<number> {
  const path = resolve(ctx.cwd, String(file));
  let text: string;
  try {
    text = new TextDecoder().decode(await readFileArgument(path, FILE_LIMITS.flow));
  } catch (error) {
    return refused(ctx, flags, `cannot read ${path} (${unreadableReason(error)}); pass the path of a flow file.`);
  }
  const parsed = parseFlowText(text);
  const resolved = parsed.ok ? resolveFlowEnv(parsed.flow, ctx.env) : parsed;
  if (!resolved.ok) {
    const lines = resolved.problems.map((p) => `  ${p.path === "" ? "(file)" : p.path}: ${p.message}`);
    return refused(ctx, flags, `${path} is not a valid flow (nothing was run):\n${lines.join("\n")}`, resolved.problems);
  }
  const flow = resolved.flow;
  const devices = deviceList(flags.device, flow);
  let configs: HarnessConfig[];
  try {
    configs = devices.map((device) => loadConfig(ctx.env, { ...common(flags), ...(device === undefined ? {} : { device }) }));
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    return refused(ctx, flags, error.message);
  }
  if (flags.scenario !== undefined && !configs.some((c) => c.device.kind === "sim")) {
    return refused(ctx, flags, scenarioWithoutSim().message);
  }
  const harnesses: Harness[] = [];
  try {
    const scenarios = await simScenarios(scenarioFor(flags.scenario, flow, configs, ctx), configs, ctx);
    for (const [i, config] of configs.entries()) {
      const scenario = scenarios[i];
      harnesses.push(await openHarness(config, ctx, scenario === undefined ? {} : { sim: { scenario } }));
    }
    const missing = unservedTools(flow, harnesses[0]!.tools);
    if (missing.length > 0) {
      return refused(ctx, flags, `this harness does not serve ${missing.join(", ")}, which the flow needs; nothing was run.`);
    }
    // Ctrl+C or a CI job's SIGTERM: cancel the step in flight, close every session, still write the reports.
    const stop = new AbortController();
    void ctx.waitForStop().then((reason) => {
      ctx.stderr(`flow: ${reason}: stopping; closing the UI session and writing the reports (again to quit at once)\n`);
      stop.abort(reason);
    });
    const envTexts = parsed.ok ? flowEnvTexts(parsed.flow, ctx.env) : [];
    const runs = await Promise.all(
      harnesses.map((harness) =>
        runFlow(flow, harness, {
          file: String(file),
          onProgress: progressPrinter(ctx, harness, harnesses.length > 1),
          stop: stop.signal,
          envTexts: new Set(envTexts.map((t) => t.value)),
        })
      ),
    );
    return await finish(runs, harnesses[0]!, flags, ctx, envTexts);
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    return refused(ctx, flags, `${error.code}: ${error.message}`);
  } finally {
    await Promise.all(harnesses.map((h) => h.close()));
  }
}

async function finish(
  runs: FlowRun[],
  harness: Harness,
  flags: FlowFlags,
  ctx: CliContext,
  envTexts: { name: string; value: string }[],
): Promise<number> {
  // An env text shown by a plain field (not a password field) would be in the screen summary: masked everywhere.
  const report = maskEnvTexts(buildFlowReport(runs), envTexts);
  const files = await writeFlowReports(report, {
    artifactsDir: harness.artifacts.path,
    fs: harness.fs,
    evidence: harness.deps.ports.evidence,
    thumbnail: (png) => downscaleForModel(png, { maxSide: THUMBNAIL_SIDE, maxBytes: THUMBNAIL_BYTES }),
    now: ctx.clock.now(),
  });
  if (flags.json) {
    ctx.stdout(JSON.stringify({ ...report, reports: files }, null, 2) + "\n");
  } else {
    const lines = runs.map((run) => {
      const passed = run.steps.filter((s) => s.outcome === "passed").length;
      const where = runs.length > 1 ? `${deviceName(run)}: ` : "";
      const failure = run.failure === undefined
        ? ""
        : ` at ${run.failure.step === undefined ? "start" : `step ${run.failure.step} (${run.failure.tool})`}: ${run.failure.reason}` +
          (run.failure.expected === undefined ? "" : `\n  expected: ${run.failure.expected}`) +
          (run.failure.screen_offers === undefined ? "" : `\n  screen: ${run.failure.screen_offers}`);
      return `${where}${
        run.outcome === "passed" ? "passed" : `FAILED (${run.outcome}, exit ${run.exit_code})`
      }, ${passed} of ${run.steps.length} steps passed${failure}`;
    });
    ctx.stdout([
      `flow "${report.flow.name}": ${report.outcome === "passed" ? "passed" : "failed"} (exit ${report.exit_code}: ${report.exit_meaning})`,
      ...lines,
      `reports: ${files.html}`,
      `         ${files.json}`,
      `         ${files.junit}`,
      "",
    ].join("\n"));
  }
  return report.exit_code;
}

/** `--device` given once or several times, else the flow's own device, else the configured default. */
function deviceList(flag: unknown, flow: FlowFile): (string | undefined)[] {
  const given = (Array.isArray(flag) ? flag : flag === undefined || flag === true ? [] : [flag]).map(String);
  if (given.length > 0) return [...new Set(given.filter((d) => d !== "sim")), ...given.filter((d) => d === "sim")];
  return [flow.device];
}

/** `--scenario`, else the flow's own "sim_scenario" when a device is simulated (said on stderr). */
function scenarioFor(flag: unknown, flow: FlowFile, configs: HarnessConfig[], ctx: CliContext): unknown {
  if (flag !== undefined || flow.sim_scenario === undefined || !configs.some((c) => c.device.kind === "sim")) return flag;
  if (!(BUILTIN_SCENARIO_NAMES as readonly string[]).includes(flow.sim_scenario)) {
    throw new HarnessError(
      "INVALID_ARGUMENT",
      `the flow's sim_scenario "${flow.sim_scenario}" is not a built-in scenario (${
        BUILTIN_SCENARIO_NAMES.join(", ")
      }); fix it, or pass --scenario NAME|FILE.`,
    );
  }
  ctx.stderr(`flow: the simulated device plays the scenario "${flow.sim_scenario}" (the flow's sim_scenario; --scenario overrides it)\n`);
  return flow.sim_scenario;
}

/**
 * The scenario of each simulated device (undefined for real ones). Several `--device sim` get distinct
 * serials (emulator-5554, emulator-5556, …), as several emulators on one machine would have.
 */
async function simScenarios(flag: unknown, configs: HarnessConfig[], ctx: CliContext): Promise<(string | Scenario | undefined)[]> {
  const sims = configs.filter((c) => c.device.kind === "sim").length;
  const chosen = await loadScenario(flag, ctx);
  if (sims <= 1) return configs.map((c) => c.device.kind === "sim" ? chosen : undefined);
  const { resolveScenario } = await import("../sim/mod.ts");
  let n = 0;
  return configs.map((c) => {
    if (c.device.kind !== "sim") return undefined;
    const base = resolveScenario(chosen);
    const serial = `emulator-${5554 + 2 * n++}`;
    return { ...base, android: { ...base.android, serial } };
  });
}

function common(flags: FlowFlags): { appiumUrl?: string; artifacts?: string } {
  const out: { appiumUrl?: string; artifacts?: string } = {};
  if (flags.appiumUrl !== undefined && flags.appiumUrl !== true) out.appiumUrl = String(flags.appiumUrl);
  if (flags.artifacts !== undefined && flags.artifacts !== true) out.artifacts = String(flags.artifacts);
  return out;
}

/** stderr, one line per finished step: `step 2 of 5 ui_tap passed (312 ms)`, prefixed by the device when several. */
function progressPrinter(ctx: CliContext, harness: Harness, several: boolean): (event: StepProgress) => void {
  return (event) => {
    if (event.phase !== "finished") return;
    const prefix = several ? `[${harness.description}] ` : "";
    const reason = event.reason === undefined ? "" : `: ${event.reason}`;
    ctx.stderr(`${prefix}step ${event.index} of ${event.total} ${event.tool} ${event.outcome} (${event.durationMs} ms)${reason}\n`);
  };
}

function refused(ctx: CliContext, flags: FlowFlags, message: string, problems?: unknown): number {
  ctx.stderr(`flow: ${message}\n`);
  if (flags.json) {
    ctx.stdout(
      JSON.stringify({ outcome: "error", exit_code: FLOW_EXIT.error, message, ...(problems === undefined ? {} : { problems }) }) + "\n",
    );
  }
  return FLOW_EXIT.error;
}
