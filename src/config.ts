/**
 * The harness configuration: the environment (SPEC §2) plus command-line overrides, parsed once at
 * start-up into a typed, validated object. Flags win over the environment; empty values count as
 * unset. Every invalid value is reported at once in one INVALID_ARGUMENT HarnessError whose message
 * names the variable, the accepted range and the value received.
 */
import { isDeviceSerial } from "./adapters/adb/adb_arguments.ts";
import { HarnessError } from "./errors.ts";

export interface HarnessConfig {
  /** `auto`: the only online device; `udid`: ANDROID_UDID / --device; `sim`: the built-in simulated device. */
  device: { kind: "auto" } | { kind: "udid"; udid: string } | { kind: "sim" };
  /** The Appium endpoint (or Grid) when `backend` is "appium"; else the default, for messages only. */
  appiumUrl: string;
  /**
   * "appium" when --appium-url or APPIUM_URL is given: UI sessions go through that server. Otherwise "direct": the
   * harness installs and starts the on-device UiAutomator2 server itself over adb (only adb needed).
   */
  backend: "direct" | "appium";
  /** --artifacts, else ANDROID_MCP_ARTIFACTS_DIR (trimmed; blank is unset), and which one said it;
   * undefined: chosen by state_directories.ts. The only place the variable is read. */
  artifactsDir?: { path: string; source: "--artifacts" | "ANDROID_MCP_ARTIFACTS_DIR" };
  flowIdleTimeoutSeconds: number;
  /** --warm-idle-timeout, else ANDROID_MCP_WARM_IDLE_TIMEOUT: how long the warm UiAutomator2 session outlives its last
   * use; 0: every act starts and ends its own session. */
  warmIdleTimeoutSeconds: number;
  actionTimeoutSeconds: number;
  /** Evidence PNGs older than this many days are removed at start-up; 0 keeps them forever. */
  evidenceRetentionDays: number;
  adb: { path?: string; androidHome?: string; serverSocket?: string };
}

export interface ConfigFlags {
  device?: string;
  appiumUrl?: string;
  artifacts?: string;
  warmIdleTimeout?: string;
}

export const CONFIG_DEFAULTS = {
  appiumUrl: "http://127.0.0.1:4723",
  flowIdleTimeoutSeconds: 60,
  warmIdleTimeoutSeconds: 300,
  actionTimeoutSeconds: 50,
  evidenceRetentionDays: 14,
} as const;

const SERVER_SOCKET = /^tcp:(?:(?:[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:]+\]):)?(\d{1,5})$/;

export function loadConfig(env: Readonly<Record<string, string | undefined>>, flags: ConfigFlags = {}): HarnessConfig {
  const problems: string[] = [];
  const value = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw.trim() === "" ? undefined : raw.trim();
  };

  const device = parseDevice(flags.device ?? value("ANDROID_UDID"), flags.device !== undefined ? "--device" : "ANDROID_UDID", problems);
  const givenAppiumUrl = flags.appiumUrl ?? value("APPIUM_URL");
  const appiumUrl = parseHttpUrl(
    givenAppiumUrl,
    flags.appiumUrl !== undefined ? "--appium-url" : "APPIUM_URL",
    problems,
  );
  const flowIdle = parseSeconds(
    "ANDROID_MCP_FLOW_IDLE_TIMEOUT",
    value("ANDROID_MCP_FLOW_IDLE_TIMEOUT"),
    CONFIG_DEFAULTS.flowIdleTimeoutSeconds,
    problems,
  );
  const warmIdle = parseWarmIdle(
    flags.warmIdleTimeout !== undefined ? "--warm-idle-timeout" : "ANDROID_MCP_WARM_IDLE_TIMEOUT",
    flags.warmIdleTimeout ?? value("ANDROID_MCP_WARM_IDLE_TIMEOUT"),
    problems,
  );
  const action = parseSeconds(
    "ANDROID_MCP_ACTION_TIMEOUT",
    value("ANDROID_MCP_ACTION_TIMEOUT"),
    CONFIG_DEFAULTS.actionTimeoutSeconds,
    problems,
  );
  const retention = parseRetentionDays(value("ANDROID_MCP_EVIDENCE_RETENTION_DAYS"), problems);

  const artifactsFlag = flags.artifacts?.trim();
  if (artifactsFlag === "") problems.push("--artifacts needs a directory path");

  const adb: HarnessConfig["adb"] = {};
  const adbPath = value("ADB");
  if (adbPath !== undefined) adb.path = adbPath;
  const androidHome = value("ANDROID_HOME");
  if (androidHome !== undefined) adb.androidHome = androidHome;
  const socket = value("ADB_SERVER_SOCKET");
  if (socket !== undefined) {
    const port = SERVER_SOCKET.exec(socket)?.[1];
    if (port === undefined || Number(port) < 1 || Number(port) > 65535) {
      problems.push(`ADB_SERVER_SOCKET must look like tcp:HOST:PORT or tcp:PORT (e.g. tcp:127.0.0.1:5037), got "${socket}"`);
    } else adb.serverSocket = socket;
  }
  // adb's own default-server port variable: the same server as tcp:127.0.0.1:PORT, named so for the device lock.
  const serverPort = value("ANDROID_ADB_SERVER_PORT");
  if (serverPort !== undefined && socket === undefined) {
    const port = /^\d{1,5}$/.test(serverPort) ? Number(serverPort) : 0;
    if (port < 1 || port > 65535) problems.push(`ANDROID_ADB_SERVER_PORT must be a port number between 1 and 65535, got "${serverPort}"`);
    else adb.serverSocket = `tcp:127.0.0.1:${port}`;
  }

  if (problems.length > 0) {
    throw new HarnessError("INVALID_ARGUMENT", `${problems.join("; ")}.`, { problems });
  }
  const config: HarnessConfig = {
    device,
    appiumUrl,
    backend: givenAppiumUrl === undefined ? "direct" : "appium",
    flowIdleTimeoutSeconds: flowIdle,
    warmIdleTimeoutSeconds: warmIdle,
    actionTimeoutSeconds: action,
    evidenceRetentionDays: retention,
    adb,
  };
  if (artifactsFlag !== undefined) config.artifactsDir = { path: artifactsFlag, source: "--artifacts" };
  else {
    const fromEnv = value("ANDROID_MCP_ARTIFACTS_DIR");
    if (fromEnv !== undefined) config.artifactsDir = { path: fromEnv, source: "ANDROID_MCP_ARTIFACTS_DIR" };
  }
  return config;
}

function parseDevice(raw: string | undefined, source: string, problems: string[]): HarnessConfig["device"] {
  if (raw === undefined) return { kind: "auto" };
  if (raw === "sim") return { kind: "sim" };
  if (!isDeviceSerial(raw)) {
    problems.push(`${source} must be a device serial as 'adb devices' prints it, or "sim", got "${raw}"`);
    return { kind: "auto" };
  }
  return { kind: "udid", udid: raw };
}

function parseHttpUrl(raw: string | undefined, source: string, problems: string[]): string {
  if (raw === undefined) return CONFIG_DEFAULTS.appiumUrl;
  try {
    const url = new URL(raw);
    if (url.protocol === "http:" || url.protocol === "https:") return raw.replace(/\/+$/, "");
  } catch {
    // reported below
  }
  problems.push(`${source} must be an http:// or https:// URL such as ${CONFIG_DEFAULTS.appiumUrl}, got "${raw}"`);
  return CONFIG_DEFAULTS.appiumUrl;
}

function parseSeconds(name: string, raw: string | undefined, fallback: number, problems: string[]): number {
  if (raw === undefined) return fallback;
  const seconds = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) {
    problems.push(`${name} must be a whole number of seconds between 1 and 3600, got "${raw}"`);
    return fallback;
  }
  return seconds;
}

function parseWarmIdle(name: string, raw: string | undefined, problems: string[]): number {
  if (raw === undefined) return CONFIG_DEFAULTS.warmIdleTimeoutSeconds;
  const seconds = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(seconds) || seconds > 3600) {
    problems.push(`${name} must be a whole number of seconds between 0 (no warm session) and 3600, got "${raw}"`);
    return CONFIG_DEFAULTS.warmIdleTimeoutSeconds;
  }
  return seconds;
}

function parseRetentionDays(raw: string | undefined, problems: string[]): number {
  if (raw === undefined) return CONFIG_DEFAULTS.evidenceRetentionDays;
  const days = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(days) || days > 3650) {
    problems.push(`ANDROID_MCP_EVIDENCE_RETENTION_DAYS must be a whole number of days between 0 (keep forever) and 3650, got "${raw}"`);
    return CONFIG_DEFAULTS.evidenceRetentionDays;
  }
  return days;
}
