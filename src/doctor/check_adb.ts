/**
 * Check 3, adb: the adb the harness would run (ADB, ANDROID_HOME/platform-tools, PATH) exists and RUNS
 * (`adb version`: client 1.0.41, version 29.0.6, where installed), and whether an adb server answers at
 * the configured address (a socket probe — no daemon is ever started). No server yet is fine (adb
 * starts one on first use); a server speaking another protocol than this client, or something that is
 * not adb on its port, is a miss: the first adb call would kill that server or fail.
 */
import { ADB_COMMANDS } from "../adapters/adb/mod.ts";
import { isHarnessError } from "../errors.ts";
import { adbServerEndpoint, clientProtocol, installAdbRemedy, locateAdb, parseAdbVersion, probeAdbServer } from "./adb_facts.ts";
import type { CheckOutcome, DoctorCheck, DoctorInputs } from "./types.ts";
import { formatSeconds } from "./units.ts";

export const adbCheck: DoctorCheck = {
  id: "adb",
  name: "adb",
  run: async (inputs, budget) => {
    const endpoint = adbServerEndpoint(inputs);
    const server = probeAdbServer(inputs, endpoint, budget); // at the same time as `adb version`
    const located = await locateAdb(inputs);
    if (located.path === null) {
      await server;
      return notFound(inputs, located.program.source, located.program.program);
    }
    const adb = inputs.openAdb(located.program, endpoint.address);
    let text: string;
    try {
      text = await adb.text(ADB_COMMANDS.version(), budget);
    } catch (error) {
      if (!isHarnessError(error)) throw error;
      await server;
      return error.code === "OPERATION_TIMEOUT" ? hung(inputs, located.path, budget.timeoutMs) : {
        ok: false,
        detail: `cannot run ${located.path}: ${error.message}`,
        remedy: `Install a working adb: ${installAdbRemedy(inputs.platform)}`,
        facts: { program: located.path, source: located.program.source },
      };
    }
    const version = parseAdbVersion(text);
    const facts = { program: located.path, source: located.program.source, adb_server: endpoint.address };
    if (version === null) {
      return {
        ok: false,
        detail: `\`${located.path} version\` did not print adb's version (${text.trim().split("\n")[0]?.slice(0, 100) || "no output"})`,
        remedy: `Check that ${located.path} is adb, or install it: ${installAdbRemedy(inputs.platform)}`,
        facts,
      };
    }
    const found = `adb ${version.version ?? version.client} (${version.client}) at ${
      version.installedAs ?? located.path
    }, from ${located.program.source}`;
    const versionFacts = { ...facts, client: version.client, version: version.version ?? null };
    const probe = await server;
    if (probe.kind === "answers") {
      const own = clientProtocol(version);
      if (probe.protocol !== own) {
        return {
          ok: false,
          detail:
            `${found}; but the adb server at ${endpoint.address} speaks protocol ${probe.protocol}, this adb ${own}: the first adb call would restart it (cutting off the tools that use it)`,
          remedy:
            `Use one adb for everything: set ADB to the adb that started the running server (Android Studio: ~/Android/Sdk/platform-tools/adb), or stop it (adb kill-server) so this adb starts its own`,
          facts: { ...versionFacts, server_protocol: probe.protocol },
        };
      }
      return {
        ok: true,
        detail: `${found}; server at ${endpoint.address} answers (protocol ${probe.protocol})`,
        facts: { ...versionFacts, server_protocol: probe.protocol },
      };
    }
    if (probe.kind === "other") {
      return {
        ok: false,
        detail: `${found}; but ${endpoint.address} is not an adb server: ${probe.reason}`,
        remedy: endpoint.configured
          ? "Point ADB_SERVER_SOCKET (or ANDROID_ADB_SERVER_PORT) at the adb server's port"
          : `Free port ${endpoint.port} for adb (find the program: ss -ltnp 'sport = :${endpoint.port}'), or run adb's server on another port and set ANDROID_ADB_SERVER_PORT`,
        facts: { ...versionFacts, server_protocol: null },
      };
    }
    if (probe.kind === "silent") {
      return {
        ok: true,
        detail: `${found}; the adb server at ${endpoint.address} accepts but does not answer (${probe.reason}; see Device)`,
        facts: { ...versionFacts, server_protocol: null },
      };
    }
    const serverDetail = endpoint.configured
      ? `no adb server answers at ${endpoint.address} (${probe.reason}; see Device)`
      : `no adb server running at ${endpoint.address} yet (adb starts one on first use)`;
    return { ok: true, detail: `${found}; ${serverDetail}`, facts: { ...versionFacts, server_protocol: null } };
  },
  timedOut: (inputs, timeoutMs) => hung(inputs, "adb", timeoutMs),
};

function notFound(inputs: DoctorInputs, source: string, program: string): CheckOutcome {
  const androidHome = inputs.config.adb.androidHome;
  const detail = source === "ADB"
    ? `ADB is ${program}, which does not exist or cannot be run`
    : `adb not found: ADB is not set, ${
      androidHome === undefined ? "ANDROID_HOME is not set" : `${androidHome} has no platform-tools/adb`
    }, and no adb is on PATH`;
  const remedy = source === "ADB"
    ? `Set ADB to the adb executable (e.g. /usr/lib/android-sdk/platform-tools/adb) or unset it; or install adb: ${
      installAdbRemedy(inputs.platform)
    }`
    : `Install adb: ${installAdbRemedy(inputs.platform)}`;
  return { ok: false, detail, remedy, facts: { program: null, source } };
}

function hung(inputs: DoctorInputs, program: string, timeoutMs: number): CheckOutcome {
  return {
    ok: false,
    detail: `\`${program} version\` did not answer within ${formatSeconds(timeoutMs)} and was stopped`,
    remedy: `Run \`${program} version\` yourself; if it hangs, reinstall adb: ${installAdbRemedy(inputs.platform)}`,
    facts: { program },
  };
}
