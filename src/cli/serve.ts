/**
 * `serve`: the MCP server on stdio (SPEC §2). Parses the configuration, opens the harness through the
 * composition module (real adapters; `--device sim` starts the simulated device in process), and serves
 * until stdin closes or SIGINT/SIGTERM; then every open UI session is deleted and the device released.
 * `--device sim --screen dump.xml [--screenshot shot.png]` serves a replayed real capture (a still device),
 * `--device sim --scenario NAME|FILE` another scenario. `--record FILE` writes the session's acting calls as a
 * flow (src/flow/recorder.ts): FILE is created exclusively at start (an existing one or a missing directory is refused),
 * typed text kept (a stderr warning says so) except a password field's, written as an environment reference named on stderr;
 * `--record-secrets env` writes every typed text so, `keep` none.
 * doctor://report runs the doctor on each read (of the simulated device with `--device sim`).
 * The transport bounds each frame (stdio_transport.ts): an oversized or malformed line is refused and serving
 * goes on. stdout carries only protocol; stderr says which artifacts directory is used, how much old evidence
 * was pruned, when the device is simulated, when adb or the device cannot be reached (the server still starts),
 * and each stdin line that is not JSON-RPC (serve_startup.ts).
 */
import { lstat, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { CAC } from "cac";
import { type Harness, type HarnessOptions, openHarness } from "../composition.ts";
import { type ConfigFlags, type HarnessConfig, loadConfig } from "../config.ts";
import { HarnessError, isHarnessError } from "../errors.ts";
import {
  type FlowRecorder,
  openFlowRecorder,
  RECORD_SECRETS,
  RECORDED_TEXT_VARIABLE,
  recordPathRefused,
  type RecordSecrets,
} from "../flow/recorder.ts";
import { BUILTIN_SCENARIO_NAMES, MAX_SIM_DEVICES } from "../../contracts/scenario_names.ts";
import { describeTransportError, warnWhenDeviceUnreachable } from "./serve_startup.ts";
import { type CliContext, EXIT } from "./context.ts";
import { loadScenario } from "./sim.ts";
import { harnessScreenOptions, scenarioWithoutSim, type ScreenFlags, simDeviceCount } from "./sim_screen.ts";
import { withDeviceOptions } from "./shared_options.ts";

/** As cac parses them: a value that looks like a number arrives as one. */
interface ServeFlags extends ScreenFlags {
  device?: unknown;
  appiumUrl?: unknown;
  artifacts?: unknown;
  record?: unknown;
  recordSecrets?: unknown;
  scenario?: unknown;
  latency?: unknown;
  devices?: unknown;
  warmIdleTimeout?: unknown;
}

export function registerServeCommand(cli: CAC, ctx: CliContext): void {
  withDeviceOptions(cli.command("serve", "MCP server on stdio (the main job); logs go to stderr"), "Evidence and audit")
    .option(
      "--warm-idle-timeout <seconds>",
      "How long the warm UiAutomator2 session outlives its last use; 0: one per act (default: ANDROID_MCP_WARM_IDLE_TIMEOUT, else 300)",
    )
    .option(
      "--scenario <name|file>",
      `For --device sim: a built-in scenario (${BUILTIN_SCENARIO_NAMES.join(", ")}) or a scenario JSON file (default: settings)`,
    )
    .option(
      "--screen <dump.xml>",
      "With --device sim: the simulated device shows this real capture (uiautomator dump or Appium page source), still",
    )
    .option("--screenshot <shot.png>", "With --screen: the PNG taken with the dump, what ui_screenshot shows (else the screen is drawn)")
    .option(
      "--latency <profile>",
      "With --device sim: 'device' answers as slowly as a real phone (figures in docs/simulated-device.md); default 'none'",
    )
    .option(
      "--devices <n>",
      `With --device sim: serve n simulated devices behind one adb server (1 to ${MAX_SIM_DEVICES}; none bound: calls name theirs)`,
    )
    .option("--record <file>", "Write the session's acting calls as a new flow file (replayable with `flow FILE`), after each step")
    .option(
      "--record-secrets <passwords|keep|env>",
      `With --record: text typed into a password field as {"env": "${RECORDED_TEXT_VARIABLE}<n>"} references, other text as typed ` +
        "(passwords, the default); keep: all as typed; env: all as references",
    )
    .example("android-mcp-harness serve --device sim")
    .example("android-mcp-harness serve --device sim --screen bug-report.xml --screenshot bug-report.png")
    .example("android-mcp-harness serve --record checkout.json")
    .action((flags: ServeFlags) => runServe(flags, ctx));
}

export async function runServe(flags: ServeFlags, ctx: CliContext): Promise<number> {
  let config: HarnessConfig;
  let options: HarnessOptions;
  try {
    config = loadConfig(ctx.env, cleanFlags(flags));
    if (flags.scenario !== undefined && config.device.kind !== "sim") throw scenarioWithoutSim();
    options = await harnessScreenOptions(flags, config, ctx.cwd);
    if (flags.latency !== undefined) {
      if (config.device.kind !== "sim") {
        throw new HarnessError("INVALID_ARGUMENT", "--latency is for the simulated device: add --device sim.");
      }
      options = { ...options, sim: { ...options.sim, latency: String(flags.latency) } };
    }
    const devices = simDeviceCount(flags.devices, MAX_SIM_DEVICES);
    if (devices !== undefined) {
      if (config.device.kind !== "sim") {
        throw new HarnessError("INVALID_ARGUMENT", "--devices is for the simulated device: add --device sim.");
      }
      if (devices > 1 && config.backend === "appium") {
        throw new HarnessError(
          "INVALID_ARGUMENT",
          "--devices with APPIUM_URL: the simulated UiAutomator2 endpoint stands for one device; unset APPIUM_URL (the direct backend reaches each).",
        );
      }
      options = { ...options, sim: { ...options.sim, devices } };
    }
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    ctx.stderr(`serve: ${error.message}\n`);
    return EXIT.usage;
  }
  const recordPath = flags.record === undefined
    ? undefined
    : flags.record === true || String(flags.record) === ""
    ? ""
    : resolve(ctx.cwd, String(flags.record));
  if (recordPath === "") {
    ctx.stderr("serve: --record needs a file path for the flow (e.g. --record checkout.json).\n");
    return EXIT.usage;
  }
  const secrets = recordSecretsOf(flags.recordSecrets);
  if (secrets === null) {
    ctx.stderr(
      `serve: --record-secrets takes one of ${
        RECORD_SECRETS.join(", ")
      } (passwords, the default, writes a password field's text as an environment variable reference; env every typed text; keep none).\n`,
    );
    return EXIT.usage;
  }
  let scenario: Awaited<ReturnType<typeof loadScenario>>;
  try {
    scenario = await loadScenario(flags.scenario, ctx); // a FIFO or directory is refused at once, like a bad flag
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    ctx.stderr(`serve: ${error.message}\n`);
    return EXIT.usage;
  }
  if (scenario !== undefined && options.sim?.screen !== undefined) {
    ctx.stderr("serve: choose one of --scenario and --screen.\n");
    return EXIT.usage;
  }
  // Refused before the simulated device starts (one line, the usage code); the exclusive create below still decides.
  const recordProblem = recordPath === undefined ? undefined : await uncreatableCode(recordPath);
  if (recordPath !== undefined && recordProblem !== undefined) {
    ctx.stderr(`serve: ${recordPathRefused(recordPath, recordProblem).message}\n`);
    return EXIT.usage;
  }
  let harness: Harness | undefined;
  try {
    harness = await openHarness(config, ctx, scenario === undefined ? options : { sim: { ...options.sim, scenario } });
    ctx.logger.info(`artifacts: ${harness.artifacts.path} (${harness.artifacts.reason})`);
    if (options.sim?.screen !== undefined) {
      ctx.logger.info(`the simulated device shows ${options.sim.screen.xmlName}: acts are answered, the screen does not change`);
    }
    let recorder: FlowRecorder | undefined;
    if (recordPath !== undefined) {
      // Claimed now (created exclusively), not found missing after each step of a session whose recording is lost.
      try {
        recorder = await openFlowRecorder({
          path: recordPath,
          fs: harness.fs,
          logger: ctx.logger,
          device: harness.description,
          now: () => ctx.clock.now(),
          secrets,
          // A built-in scenario by name (a scenario file or a replayed capture cannot be named in a flow).
          ...(config.device.kind === "sim" && typeof scenario === "string" ? { simScenario: scenario } : {}),
        });
      } catch (error) {
        if (!isHarnessError(error)) throw error;
        ctx.stderr(`serve: ${error.message}\n`);
        return EXIT.usage;
      }
      if (secrets === "keep") {
        ctx.logger.warn(
          `recording the acting calls to ${recordPath}: typed text is KEPT in it as typed, passwords too (--record-secrets keep)`,
        );
      } else if (secrets === "passwords") {
        ctx.logger.warn(
          `recording the acting calls to ${recordPath}: typed text is KEPT in it as typed, except in password fields ` +
            `(${RECORDED_TEXT_VARIABLE}<n> references, each named on stderr; --record-secrets env does so for every text)`,
        );
      } else {
        ctx.logger.info(
          `recording the acting calls to ${recordPath}: typed text as ${RECORDED_TEXT_VARIABLE}<n> references (each named on stderr)`,
        );
      }
    }
    await pruneEvidence(harness, config, ctx);
    // Loaded here, not at start: the MCP SDK is for `serve` alone (`--version`, `help`, `tree` never load it).
    const { createHarnessServer } = await import("../mcp/server.ts");
    const { BoundedStdioTransport } = await import("../mcp/stdio_transport.ts");
    const opened = harness;
    const server = createHarnessServer(harness.deps, harness.tools, {
      // The doctor's eight checks load on the first read of doctor://report, not at start (few clients read it).
      doctorReport: async () => {
        const { doctorReport, simEndpointsOf } = await import("./doctor.ts");
        return await doctorReport(config, ctx, simEndpointsOf(opened));
      },
      ...(recorder === undefined ? {} : { onAnswer: (call) => recorder.record(call) }),
    });
    server.server.onerror = (error) => ctx.logger.warn(describeTransportError(error));
    const { stdin, stdout } = ctx.stdio;
    const transport = new BoundedStdioTransport(stdin, stdout, { onRefused: (sentence) => ctx.logger.warn(sentence) });
    const closed = new Promise<string>((resolve) => {
      transport.onclose = () => resolve("transport closed");
      stdin.once("end", () => resolve("stdin closed"));
      stdin.once("close", () => resolve("stdin closed"));
    });
    // The signal handlers are installed before "serving" is said: a SIGTERM sent on reading that line
    // must find them (before, a loaded machine could deliver it first and the default action killed serve).
    const stopRequested = ctx.waitForStop();
    await server.connect(transport);
    ctx.logger.info(`serving MCP on stdio (${harness.description})`);
    const checked = warnWhenDeviceUnreachable(harness, ctx.logger);
    const reason = await Promise.race([closed, stopRequested]);
    ctx.logger.info(`stopping: ${reason}`);
    await server.close();
    await recorder?.finish();
    await checked;
    return EXIT.ok;
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    ctx.stderr(`serve: ${error.code}: ${error.message}\n`);
    return EXIT.failure;
  } finally {
    await harness?.close();
  }
}

/** Retention at start: evidence older than the configured days goes; said on stderr when anything went. */
async function pruneEvidence(harness: Harness, config: HarnessConfig, ctx: CliContext): Promise<void> {
  const pruned = await harness.pruneOldEvidence();
  if (pruned.removed > 0) {
    ctx.logger.info(
      `artifacts: removed ${pruned.removed} evidence file(s) older than ${config.evidenceRetentionDays} days (ANDROID_MCP_EVIDENCE_RETENTION_DAYS)`,
    );
  }
  if (pruned.failed > 0) {
    ctx.logger.warn(`artifacts: ${pruned.failed} evidence file(s) older than ${config.evidenceRetentionDays} days could not be removed`);
  }
}

function recordSecretsOf(flag: unknown): RecordSecrets | null {
  if (flag === undefined) return "passwords";
  return RECORD_SECRETS.find((mode) => mode === String(flag)) ?? null;
}

function cleanFlags(flags: ServeFlags): ConfigFlags {
  const out: ConfigFlags = {};
  if (flags.warmIdleTimeout !== undefined && flags.warmIdleTimeout !== true) out.warmIdleTimeout = String(flags.warmIdleTimeout);
  if (flags.device !== undefined && flags.device !== true) out.device = String(flags.device);
  if (flags.appiumUrl !== undefined && flags.appiumUrl !== true) out.appiumUrl = String(flags.appiumUrl);
  if (flags.artifacts !== undefined && flags.artifacts !== true) out.artifacts = String(flags.artifacts);
  return out;
}

/** Why an exclusive create of `path` would fail now, as its errno code (EEXIST, ENOENT, ENOTDIR), or undefined. */
async function uncreatableCode(path: string): Promise<string | undefined> {
  if ((await lstat(path).catch(() => null)) !== null) return "EEXIST";
  const directory = await stat(dirname(path)).catch(() => null);
  if (directory === null) return "ENOENT";
  return directory.isDirectory() ? undefined : "ENOTDIR";
}
