/**
 * What the adb checks share: which adb the harness would run (ADB, ANDROID_HOME/platform-tools, PATH —
 * adb_program.ts's rule, with PATH resolved to a file), the adb server the configuration names
 * (canonical, so `localhost` never reaches adb as a name it may start a daemon for), a probe of that
 * server over a plain socket (`host:version`, never spawning anything), and `adb version`'s text parsed.
 */
import { join } from "node:path";
import { type AdbProgram, adbServerAddress, findAdbProgram, probeAdbServerAt, type ServerProbe } from "../adapters/adb/mod.ts";
import { executableName, findOnPath } from "./find_program.ts";
import type { CheckBudget, DoctorInputs } from "./types.ts";
import { formatSeconds } from "./units.ts";

export interface LocatedAdb {
  program: AdbProgram;
  /** The file that runs: the program itself, or its PATH match; null when nothing was found. */
  path: string | null;
}

export async function locateAdb(inputs: DoctorInputs): Promise<LocatedAdb> {
  const { adb } = inputs.config;
  const candidate = adb.androidHome === undefined
    ? undefined
    : join(adb.androidHome, "platform-tools", executableName("adb", inputs.platform));
  const present = candidate !== undefined && await inputs.files.isExecutable(candidate);
  const program = findAdbProgram({ ADB: adb.path, ANDROID_HOME: adb.androidHome }, {
    exists: (p) => present && p === candidate,
    platform: inputs.platform,
  });
  if (program.source === "ADB") return { program, path: (await inputs.files.isExecutable(program.program)) ? program.program : null };
  if (program.source === "ANDROID_HOME") return { program, path: program.program };
  const onPath = await findOnPath("adb", inputs);
  return onPath === null ? { program, path: null } : { program: { program: onPath, source: "PATH" }, path: onPath };
}

export interface AdbServerEndpoint {
  /** Canonical `tcp:HOST:PORT`, passed to every adb run as ADB_SERVER_SOCKET. */
  address: string;
  host: string;
  port: number;
  /** Named by ADB_SERVER_SOCKET / ANDROID_ADB_SERVER_PORT (or the simulated device), not adb's default. */
  configured: boolean;
}

export function adbServerEndpoint(inputs: DoctorInputs): AdbServerEndpoint {
  const socket = inputs.config.adb.serverSocket;
  const address = adbServerAddress(socket);
  const match = /^tcp:(.+):(\d+)$/.exec(address);
  const host = (match?.[1] ?? "127.0.0.1").replace(/^\[(.*)\]$/, "$1");
  return { address, host, port: Number(match?.[2] ?? 5037), configured: socket !== undefined };
}

/** Asks the server its protocol version (adb_server_probe.ts). Never starts one. */
export async function probeAdbServer(inputs: DoctorInputs, endpoint: AdbServerEndpoint, budget: CheckBudget): Promise<ServerProbe> {
  const probe = await probeAdbServerAt(inputs.socket, endpoint.host, endpoint.port, budget);
  return probe.kind === "silent" ? { kind: "silent", reason: `no answer within ${formatSeconds(budget.timeoutMs)}` } : probe;
}

export interface AdbVersion {
  /** "1.0.41": its last number is the server protocol this client speaks. */
  client: string;
  /** "29.0.6-debian"; absent on very old adb. */
  version?: string;
  installedAs?: string;
}

export function parseAdbVersion(text: string): AdbVersion | null {
  const client = /Android Debug Bridge version (\d+\.\d+\.\d+)/.exec(text)?.[1];
  if (client === undefined) return null;
  const parsed: AdbVersion = { client };
  const version = /^Version (\S+)/m.exec(text)?.[1];
  if (version !== undefined) parsed.version = version;
  const installedAs = /^Installed as (.+?)\s*$/m.exec(text)?.[1];
  if (installedAs !== undefined) parsed.installedAs = installedAs;
  return parsed;
}

/** The adb server protocol a client version speaks: "1.0.41" → 41. */
export function clientProtocol(version: AdbVersion): number {
  return Number(version.client.split(".").pop());
}

/** The adb install line for this platform (Debian's package puts platform-tools in /usr/lib/android-sdk). */
export function installAdbRemedy(platform: string): string {
  if (platform === "darwin") {
    return "brew install --cask android-platform-tools (or the SDK's platform-tools) and export ANDROID_HOME to the SDK";
  }
  if (platform === "win32") return "winget install Google.PlatformTools (or the SDK's platform-tools) and set ANDROID_HOME to the SDK";
  return "sudo apt-get install -y adb && export ANDROID_HOME=/usr/lib/android-sdk (or install the SDK's platform-tools and set ADB to its adb)";
}
