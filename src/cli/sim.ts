/**
 * `sim [--scenario NAME|FILE | --screen DUMP [--screenshot PNG]] [--devices N] [--json]`: runs the built-in simulated
 * device (or N of them behind one adb server) in the foreground until SIGINT/SIGTERM and prints how to reach it (`ADB_SERVER_SOCKET=…`,
 * `APPIUM_URL=…`, in one write). With `--json` stdout carries only one JSON line (`simulated: true` in it)
 * and the human lines go to stderr. `--screen` replays a real capture as a still device. A bad scenario or
 * capture exits 2 with the reasons. It stops on a signal or when stdout closes (the reader went away), exit 0.
 */
import { isAbsolute, resolve } from "node:path";
import type { CAC } from "cac";
import { startSimulatedDevice } from "../composition.ts";
import { HarnessError, isHarnessError } from "../errors.ts";
import { BUILTIN_SCENARIO_NAMES, MAX_SIM_DEVICES } from "../../contracts/scenario_names.ts";
import type { Scenario } from "../sim/mod.ts";
import { type CliContext, EXIT } from "./context.ts";
import { readCapturedScreen, type ScreenFlags, simDeviceCount } from "./sim_screen.ts";
import { FILE_LIMITS, readFileArgument, unreadableReason } from "./read_file_argument.ts";

interface SimFlags extends ScreenFlags {
  scenario?: unknown;
  json?: unknown;
  latency?: unknown;
  devices?: unknown;
}

export function registerSimCommand(cli: CAC, ctx: CliContext): void {
  cli
    .command("sim", "Run the built-in simulated Android device (real adb and WebDriver protocols on loopback)")
    .option(
      "--scenario <name|file>",
      `A built-in scenario (${BUILTIN_SCENARIO_NAMES.join(", ")}) or a scenario JSON file (default: settings)`,
    )
    .option(
      "--screen <dump.xml>",
      "Replay a real capture (uiautomator dump or Appium page source) as a still device: acts are answered, the screen does not change",
    )
    .option("--screenshot <shot.png>", "With --screen: the PNG taken with the dump, shown by screencap (else the screen is drawn)")
    .option("--latency <profile>", "'device' answers as slowly as a real phone (figures in docs/simulated-device.md); default 'none'")
    .option("--devices <n>", `Serve n simulated devices behind one adb server (1 to ${MAX_SIM_DEVICES}; each its own serial and model)`)
    .option("--json", "Print only one JSON line with the endpoints on stdout (the human-readable lines go to stderr)")
    .example("android-mcp-harness sim --scenario login")
    .example("android-mcp-harness sim --screen bug-report.xml --screenshot bug-report.png")
    .action((flags: SimFlags) => runSim(flags, ctx));
}

/** A built-in scenario name as is, or a scenario file read and validated (INVALID_ARGUMENT otherwise); undefined when not given. */
export async function loadScenario(value: unknown, ctx: Pick<CliContext, "cwd">): Promise<string | Scenario | undefined> {
  if (value === undefined || value === true) return undefined;
  const name = String(value);
  if ((BUILTIN_SCENARIO_NAMES as readonly string[]).includes(name)) return name;
  const path = isAbsolute(name) ? name : resolve(ctx.cwd, name);
  let text: string;
  try {
    text = new TextDecoder().decode(await readFileArgument(path, FILE_LIMITS.scenario));
  } catch (error) {
    throw new HarnessError(
      "INVALID_ARGUMENT",
      `Cannot read the scenario file ${path} (${unreadableReason(error)}). Name a built-in scenario (${
        BUILTIN_SCENARIO_NAMES.join(", ")
      }) or an existing JSON file.`,
    );
  }
  const { parseScenarioText } = await import("../sim/mod.ts");
  return parseScenarioText(text, path);
}

export async function runSim(flags: SimFlags, ctx: CliContext): Promise<number> {
  let sim;
  let screenPath: string | undefined;
  try {
    if (flags.screen !== undefined && flags.scenario !== undefined) {
      throw new HarnessError("INVALID_ARGUMENT", "--screen and --scenario cannot be combined: a replayed capture is its own still device.");
    }
    const screen = await readCapturedScreen(flags, ctx.cwd);
    screenPath = screen?.xmlName;
    const latency = flags.latency === undefined ? {} : { latency: String(flags.latency) };
    const count = simDeviceCount(flags.devices, MAX_SIM_DEVICES);
    const more = { ...latency, ...(count === undefined ? {} : { devices: count }) };
    sim = await startSimulatedDevice(
      screen === undefined ? { scenario: await loadScenario(flags.scenario, ctx), ...more } : { screen, ...more },
    );
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    ctx.stderr(`sim: ${error.message}\n`);
    return EXIT.usage;
  }
  const { device, devices } = sim;
  const lines = [
    ...(devices.length === 1 ? [] : [
      `${devices.length} simulated Android devices behind one adb server: ${
        devices.map((d) => `${d.serial} (${d.model})`).join(", ")
      }; each its own screen. The first:`,
    ]),
    `Simulated Android device (not a real phone): ${device.serial}, Android ${device.android.release} (API ${device.apiLevel}), ` +
    `${device.width}x${device.height} ${device.density} dpi, ` +
    (screenPath === undefined
      ? `scenario "${device.scenario.name}".`
      : `showing ${screenPath} (${device.foregroundPackage()}); acts are answered, the screen does not change.`),
    `ADB_SERVER_SOCKET=${sim.adbServerSocket}`,
    `APPIUM_URL=${sim.appiumUrl}`,
    `Try:  ADB_SERVER_SOCKET=${sim.adbServerSocket} adb devices -l`,
    `Real Appium + UiAutomator2 driver: capability appium:adbPort=${sim.adbPort} (Appium passes -P, so ADB_SERVER_SOCKET alone is not enough).`,
    "The simulated device runs until Ctrl+C (SIGINT), SIGTERM or SIGHUP.",
  ];
  if (flags.json === true) {
    ctx.stdout(
      JSON.stringify({
        simulated: true,
        serial: device.serial,
        ...(devices.length === 1 ? {} : { serials: devices.map((d) => d.serial) }),
        scenario: device.scenario.name,
        ...(screenPath === undefined ? {} : { screen: screenPath, foregroundPackage: device.foregroundPackage() }),
        adbServerSocket: sim.adbServerSocket,
        adbPort: sim.adbPort,
        appiumUrl: sim.appiumUrl,
      }) + "\n",
    );
    ctx.stderr(lines.join("\n") + "\n");
  } else {
    // One write: a reader that takes the first line and leaves (`sim | head -1`) gets the whole block
    // at once instead of a second write into a closed pipe.
    ctx.stdout(lines.join("\n") + "\n");
  }
  const signal = await ctx.waitForStop();
  await sim.stop();
  ctx.stderr(
    signal === "stdout closed"
      ? "sim: stdout closed; the simulated device stopped.\n"
      : `sim: ${signal} received; the simulated device stopped.\n`,
  );
  return EXIT.ok;
}
