/**
 * Check 5, device: the configured serial (ANDROID_UDID / --device; `host:port` serials of Waydroid and
 * network devices included), else the only online device, is listed as `device` — not offline,
 * unauthorized, without permissions — and `sys.boot_completed` is 1. adb is run with the server named
 * explicitly (ADB_SERVER_SOCKET), and only after a socket probe found a server speaking this adb's
 * protocol (adb kills a server of another version), so no daemon is ever started or killed and nothing
 * waits for a device (never `wait-for-device`). Says when the device is simulated.
 */
import {
  ADB_COMMANDS,
  type AdbClient,
  chooseDevice,
  type ListedDevice,
  parseAdbDevices,
  parseGetpropListing,
} from "../adapters/adb/mod.ts";
import { isHarnessError } from "../errors.ts";
import {
  type AdbServerEndpoint,
  adbServerEndpoint,
  clientProtocol,
  installAdbRemedy,
  locateAdb,
  parseAdbVersion,
  probeAdbServer,
} from "./adb_facts.ts";
import type { CheckBudget, CheckOutcome, DoctorCheck, DoctorInputs } from "./types.ts";
import { formatSeconds } from "./units.ts";

const SIMULATED_PROPERTY = "ro.android_mcp_harness.simulated";

export const deviceCheck: DoctorCheck = {
  id: "device",
  name: "Device",
  run: async (inputs, budget) => {
    const deadline = inputs.clock.now() + budget.timeoutMs;
    const left = () => ({ timeoutMs: Math.max(1, deadline - inputs.clock.now()), signal: budget.signal });
    const endpoint = adbServerEndpoint(inputs);
    const [located, probe] = await Promise.all([locateAdb(inputs), probeAdbServer(inputs, endpoint, budget)]);
    if (located.path === null) {
      return {
        ok: false,
        detail: "cannot list devices: adb not found (see adb)",
        remedy: `Install adb: ${installAdbRemedy(inputs.platform)}`,
      };
    }
    if (probe.kind !== "answers") {
      return {
        ok: false,
        detail: `no adb server answers at ${endpoint.address} (${probe.reason}), so no device can be seen`,
        remedy: probe.kind === "silent"
          ? `The adb server is stuck: restart it (${adbLine(endpoint, "kill-server")}, then start it again${
            endpoint.configured ? " on its host" : ": adb start-server"
          })`
          : endpoint.configured
          ? `Start the adb server ADB_SERVER_SOCKET/ANDROID_ADB_SERVER_PORT names (on its host: adb -a -P ${endpoint.port} server nodaemon), or correct that variable`
          : "adb start-server, then start an emulator (emulator -avd <name>) or connect a device with USB debugging on",
        facts: { adb_server: endpoint.address },
      };
    }
    const adb = inputs.openAdb(located.program, endpoint.address);
    const requested = inputs.config.device.kind === "udid" ? inputs.config.device.udid : undefined;
    // `adb version` never contacts the server; any other command would kill a server of another protocol.
    let protocol: number | undefined;
    try {
      const version = parseAdbVersion(await adb.text(ADB_COMMANDS.version(), left()));
      protocol = version === null ? undefined : clientProtocol(version);
    } catch (error) {
      return failed(error, inputs, endpoint, "version", budget);
    }
    if (protocol === undefined) {
      return {
        ok: false,
        detail: `${located.path} does not print adb's version, so it was not run against the server (see adb)`,
        remedy: `Install adb: ${installAdbRemedy(inputs.platform)}`,
      };
    }
    if (protocol !== probe.protocol) {
      return {
        ok: false,
        detail:
          `the adb server at ${endpoint.address} speaks protocol ${probe.protocol}, this adb ${protocol}: devices not listed, since this adb would kill that server`,
        remedy:
          "Use one adb for everything: set ADB to the adb that started the running server (Android Studio: ~/Android/Sdk/platform-tools/adb), or stop it (adb kill-server) so this adb starts its own",
        facts: { adb_server: endpoint.address, server_protocol: probe.protocol, client_protocol: protocol },
      };
    }
    let listed: ListedDevice[];
    try {
      listed = parseAdbDevices(await adb.text(ADB_COMMANDS.devices(), left()));
    } catch (error) {
      return failed(error, inputs, endpoint, "devices -l", budget);
    }
    let chosen: ListedDevice;
    try {
      chosen = chooseDevice(listed, requested);
    } catch (error) {
      if (!isHarnessError(error)) throw error;
      return notUsable(listed, requested, endpoint);
    }
    return bootState(adb, chosen.serial, inputs, endpoint, left, budget);
  },
  timedOut: (inputs, timeoutMs) => ({
    ok: false,
    detail: `adb did not list the devices within ${formatSeconds(timeoutMs)}`,
    remedy: `Restart the adb server (${adbLine(adbServerEndpoint(inputs), "kill-server")} && ${
      adbLine(adbServerEndpoint(inputs), "start-server")
    }), then rerun doctor`,
  }),
};

async function bootState(
  adb: AdbClient,
  serial: string,
  inputs: DoctorInputs,
  endpoint: AdbServerEndpoint,
  left: () => CheckBudget,
  budget: CheckBudget,
): Promise<CheckOutcome> {
  let props: Map<string, string>;
  try {
    props = parseGetpropListing(await adb.text(ADB_COMMANDS.getpropAll(), { serial, ...left() }));
  } catch (error) {
    return failed(error, inputs, endpoint, "shell getprop", budget);
  }
  const simulated = inputs.simulated !== undefined || props.get(SIMULATED_PROPERTY) === "1";
  const model = props.get("ro.product.model") ?? "unknown model";
  const release = props.get("ro.build.version.release");
  const api = props.get("ro.build.version.sdk");
  const what = `${model}${release === undefined ? "" : `, Android ${release}`}${api === undefined ? "" : ` (API ${api})`}`;
  const note = simulated ? "; SIMULATED: the built-in simulated device, not a real phone" : "";
  const booted = props.get("sys.boot_completed") === "1";
  const facts = {
    serial,
    state: "device",
    booted,
    simulated,
    model,
    android: release ?? null,
    api_level: api === undefined ? null : Number(api),
    adb_server: endpoint.address,
  };
  if (!booted) {
    return {
      ok: false,
      detail: `${serial} is online but still booting (sys.boot_completed is ${
        JSON.stringify(props.get("sys.boot_completed") ?? "")
      }, not "1"): ${what}${note}`,
      remedy: `Wait for the boot to finish, then rerun doctor: ${
        adbLine(endpoint, `-s ${serial} shell 'while [ "$(getprop sys.boot_completed)" != 1 ]; do sleep 2; done'`)
      }`,
      facts,
    };
  }
  return { ok: true, detail: `${serial} online and booted: ${what}${note}`, facts };
}

/** Why neither the configured device nor a single online one can be used, with what to do. */
function notUsable(listed: ListedDevice[], requested: string | undefined, endpoint: AdbServerEndpoint): CheckOutcome {
  const list = listed.length === 0 ? "no devices" : listed.map((d) => `${d.serial} ${d.state}`).join(", ");
  const facts = { listed: list, requested: requested ?? null, adb_server: endpoint.address };
  const target = requested === undefined ? undefined : listed.find((d) => d.serial === requested);
  if (requested !== undefined && target === undefined) {
    const network = /^[\w.-]+:\d+$/.test(requested);
    return {
      ok: false,
      detail: `${requested} (ANDROID_UDID / --device) is not listed by adb at ${endpoint.address} (it lists: ${list})`,
      remedy: network
        ? `Connect the network device: ${adbLine(endpoint, `connect ${requested}`)} (Waydroid: start its session first)`
        : listed.length > 0
        ? `Set ANDROID_UDID to a listed serial (export ANDROID_UDID=${listed[0]!.serial}) or connect ${requested}`
        : `Start the emulator or connect ${requested} with USB debugging on`,
      facts,
    };
  }
  if (target !== undefined) return stateMiss(target, endpoint, facts);
  const online = listed.filter((d) => d.state === "device");
  if (online.length > 1) {
    return {
      ok: false,
      detail: `${online.length} devices are online (${online.map((d) => d.serial).join(", ")}) and none is chosen`,
      remedy: `Choose one: export ANDROID_UDID=${online[0]!.serial} (or pass --device <serial>)`,
      facts,
    };
  }
  if (listed.length === 1) return stateMiss(listed[0]!, endpoint, facts);
  return {
    ok: false,
    detail: listed.length === 0 ? `adb at ${endpoint.address} lists no devices` : `no device is online (adb lists: ${list})`,
    remedy: `Start an emulator (emulator -avd <name>) or connect a device with USB debugging on; a network device: ${
      adbLine(endpoint, "connect HOST:PORT")
    }`,
    facts,
  };
}

const STATE_REMEDY: Record<string, (serial: string, endpoint: AdbServerEndpoint) => string> = {
  offline: (_s, e) => `${adbLine(e, "reconnect offline")}; if it stays offline, restart the emulator or re-plug the cable`,
  unauthorized: () =>
    "Unlock the device and accept the 'Allow USB debugging?' prompt (no prompt: revoke USB debugging authorizations in Developer options and re-plug)",
  authorizing: () => "Accept the 'Allow USB debugging?' prompt on the device and wait a moment",
  connecting: (_s, e) => `Wait a moment; if it stays connecting: ${adbLine(e, "reconnect")}`,
  "no permissions": () =>
    "Let your user reach the USB device: sudo apt-get install -y android-sdk-platform-tools-common (udev rules), add yourself to plugdev, re-plug",
};

function stateMiss(device: ListedDevice, endpoint: AdbServerEndpoint, facts: Record<string, string | null>): CheckOutcome {
  const remedy = STATE_REMEDY[device.state]?.(device.serial, endpoint) ??
    `Wait until adb lists ${device.serial} as 'device' (${adbLine(endpoint, "devices")})`;
  return {
    ok: false,
    detail: `${device.serial} is ${device.state}${device.detail === undefined ? "" : ` (${device.detail})`}, not online`,
    remedy,
    facts: { ...facts, serial: device.serial, state: device.state },
  };
}

function failed(error: unknown, inputs: DoctorInputs, endpoint: AdbServerEndpoint, command: string, budget: CheckBudget): CheckOutcome {
  if (!isHarnessError(error)) throw error;
  if (error.code === "OPERATION_TIMEOUT") {
    return {
      ...deviceCheck.timedOut(inputs, budget.timeoutMs),
      detail: `\`adb ${command}\` did not answer within ${formatSeconds(budget.timeoutMs)} and was stopped`,
    };
  }
  return {
    ok: false,
    detail: `\`adb ${command}\` failed: ${error.message}`,
    remedy: `Check the device and the adb server (${adbLine(endpoint, "devices -l")}), then rerun doctor`,
    facts: { adb_server: endpoint.address },
  };
}

/** An adb command line to copy, naming the server when it is not adb's default. */
function adbLine(endpoint: AdbServerEndpoint, args: string): string {
  return endpoint.configured ? `ADB_SERVER_SOCKET=${endpoint.address} adb ${args}` : `adb ${args}`;
}
