/**
 * The shapes of `doctor` (SPEC §9): what every check receives (the configuration, the environment as
 * data and the ports it may use), what one check answers (ok or a miss, a detail, a copyable remedy
 * for a miss, a few facts), and the report of all eight — the same data for the CLI, `--json` and
 * the MCP resource `doctor://report`.
 */
import type { AdbClient, AdbProgram } from "../adapters/adb/mod.ts";
import type { HarnessConfig } from "../config.ts";
import type { Clock } from "../ports/clock.ts";
import type { FileProbe } from "../ports/file_probe.ts";
import type { HttpClient } from "../ports/http_client.ts";
import type { ProcessRunner } from "../ports/process_runner.ts";
import type { RuntimeFacts } from "../ports/runtime.ts";
import type { SocketProbe } from "../ports/socket_probe.ts";

/** The eight checks, in the order they are printed. */
export const CHECK_IDS = ["runtime", "java", "adb", "android_sdk", "device", "appium", "uiautomator2", "artifacts"] as const;
export type CheckId = typeof CHECK_IDS[number];

/** What the checks ask through, and the facts they read (built for real by composition.ts's doctorPorts). */
export interface DoctorPorts {
  /** The process environment as data (PATH, JAVA_HOME, ANDROID_SDK_ROOT, APPIUM_HOME, …). */
  env: Readonly<Record<string, string | undefined>>;
  platform: string;
  cwd: string;
  homeDir: string;
  runtime: RuntimeFacts;
  runner: ProcessRunner;
  http: HttpClient;
  socket: SocketProbe;
  files: FileProbe;
  clock: Clock;
  /** An adb client (the closed command list) for this program and server, over the runner. */
  openAdb(program: AdbProgram, serverSocket: string): AdbClient;
}

export interface DoctorInputs extends DoctorPorts {
  config: HarnessConfig;
  /** Set when the device is the built-in simulated one started in process (`--device sim`): the
   * configuration then already points at its adb server and its UiAutomator2 endpoint. */
  simulated?: { serial: string };
}

/** How long a check may take, and the signal that cancels its work when the time is up. */
export interface CheckBudget {
  timeoutMs: number;
  signal: AbortSignal;
}

export type Fact = string | number | boolean | null;

export interface CheckOutcome {
  ok: boolean;
  /** One line: what was found (versions, paths, states). */
  detail: string;
  /** For a miss: one line to act on — a package, a variable, a command to copy. */
  remedy?: string;
  facts?: Record<string, Fact>;
}

export interface DoctorCheck {
  id: CheckId;
  /** As printed: "Java", "Device", … */
  name: string;
  run(inputs: DoctorInputs, budget: CheckBudget): Promise<CheckOutcome>;
  /** The miss reported when the check as a whole did not finish within its budget. */
  timedOut(inputs: DoctorInputs, timeoutMs: number): CheckOutcome;
  /** False for what only a real device's Appium needs (Java, the SDK): with `--device sim` a miss is
   * reported as not needed and does not block. */
  neededBySimulatedDevice?: false;
  /**
   * With the direct backend (no Appium URL): "not_needed" is not run and reads "not needed (direct)" (Java,
   * Appium); "optional" runs and a miss does not block (the Android SDK: adb alone is used).
   */
  direct?: "not_needed" | "optional";
}

export interface CheckResult {
  id: CheckId;
  name: string;
  ok: boolean;
  detail: string;
  remedy: string | null;
  duration_ms: number;
  facts: Record<string, Fact>;
}

export interface DoctorReport {
  /** True when no check blocks a real campaign. */
  ok: boolean;
  /** How many checks block a real campaign (misses). */
  blocking: number;
  total: number;
  /** The device checked is the built-in simulated one. */
  simulated: boolean;
  duration_ms: number;
  checks: CheckResult[];
}
