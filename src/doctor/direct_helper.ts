/**
 * Check 7 with the direct backend (no Appium URL): instead of Appium's UiAutomator2 driver, whether the harness's
 * own helper, the UiAutomator2 server (`io.appium.uiautomator2.server` and its `.test` package), is installed on
 * the device, and at which version (`pm list packages`, `dumpsys package`, the same reads the backend makes).
 * Never a miss: a device without it, or with another version, gets it on the first act (the detail says so and
 * how to remove it); without a usable device it is not checked (the Device check says why). adb runs only
 * against a server that answers in this adb's protocol, as in the Device check (adb would kill another).
 */
import { ADB_COMMANDS, chooseDevice, parseAdbDevices } from "../adapters/adb/mod.ts";
import { installPlan, parseDumpsysPackage, parsePackageNames, serverState } from "../adapters/uia2_direct/install_state.ts";
import { SERVER_PACKAGE, SERVER_VERSION, TEST_PACKAGE, uninstallCommand } from "../adapters/uia2_direct/server_package.ts";
import { adbServerEndpoint, clientProtocol, locateAdb, parseAdbVersion, probeAdbServer } from "./adb_facts.ts";
import type { CheckBudget, CheckOutcome, DoctorInputs } from "./types.ts";

const FIRST_ACT = `the first act installs ${SERVER_PACKAGE} ${SERVER_VERSION.name} and ${TEST_PACKAGE} (about 18 MB over adb)`;

export async function directHelperCheck(inputs: DoctorInputs, budget: CheckBudget): Promise<CheckOutcome> {
  const notChecked = (why: string): CheckOutcome => ({
    ok: true,
    detail: `direct: not checked, ${why} (see Device); ${FIRST_ACT}`,
    facts: { backend: "direct", installed: null },
  });
  const endpoint = adbServerEndpoint(inputs);
  const [located, probe] = await Promise.all([locateAdb(inputs), probeAdbServer(inputs, endpoint, budget)]);
  if (located.path === null || probe.kind !== "answers") return notChecked("no adb or no adb server");
  const adb = inputs.openAdb(located.program, endpoint.address);
  const run = { timeoutMs: budget.timeoutMs, signal: budget.signal };
  const version = parseAdbVersion(await adb.text(ADB_COMMANDS.version(), run));
  if (version === null || clientProtocol(version) !== probe.protocol) return notChecked("this adb does not speak the server's protocol");
  const requested = inputs.config.device.kind === "udid" ? inputs.config.device.udid : undefined;
  let serial: string;
  try {
    serial = chooseDevice(parseAdbDevices(await adb.text(ADB_COMMANDS.devices(), run)), requested).serial;
  } catch {
    return notChecked("no usable device");
  }
  const [listed, dumped] = await Promise.all([
    adb.text(ADB_COMMANDS.listPackagesMatching(SERVER_PACKAGE), { serial, ...run }),
    adb.text(ADB_COMMANDS.dumpsysPackage(SERVER_PACKAGE), { serial, ...run }),
  ]);
  const installed = parseDumpsysPackage(dumped, SERVER_PACKAGE);
  const testInstalled = parsePackageNames(listed).has(TEST_PACKAGE);
  const plan = installPlan(serverState(installed, SERVER_VERSION), testInstalled);
  const facts = {
    backend: "direct",
    serial,
    installed: installed.installed && testInstalled,
    version: installed.versionName ?? null,
    version_code: installed.versionCode ?? null,
    test_package: testInstalled,
  };
  if (!installed.installed && !testInstalled) return { ok: true, detail: `direct: not installed on ${serial} yet; ${FIRST_ACT}`, facts };
  const found = `${installed.installed ? `${SERVER_PACKAGE} ${installed.versionName ?? "(version unknown)"}` : `no ${SERVER_PACKAGE}`}` +
    ` and ${testInstalled ? TEST_PACKAGE : `no ${TEST_PACKAGE}`}`;
  if (!plan.install) {
    return { ok: true, detail: `direct: ${found} installed on ${serial}; remove with: ${uninstallCommand(serial)}`, facts };
  }
  return {
    ok: true,
    detail: `direct: ${found} on ${serial}; the first act ${plan.uninstallFirst ? "uninstalls them and " : ""}installs ` +
      `${SERVER_VERSION.name}`,
    facts,
  };
}
