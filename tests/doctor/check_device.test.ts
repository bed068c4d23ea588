/**
 * Check 5 (device) with the REAL adb client against the simulated device's adb server: online and
 * booted (and recognised as simulated), offline, unauthorized, still booting, a serial that is not
 * listed (a `host:port` one gets `adb connect`), a `host:port` device that is online, two online with
 * none chosen. With no server the check misses at once and starts no daemon; a hanging adb or a server
 * that never answers is a miss within the timeout.
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { after, before, test } from "node:test";
import { assertEndedByDeadline } from "../support/time_bounds.ts";
import { deviceCheck } from "../../src/doctor/check_device.ts";
import { resolveScenario, type RunningSim, ScenarioDevice, startAdbServer, startSimDevice } from "../../src/sim/mod.ts";
import { freePort } from "../support/outcomes.ts";
import { HANGING, programDir, writeProgram } from "../support/fake_programs.ts";
import { ADB, NO_ADB } from "../sim/adb_cli.ts";
import { doctorInputs, type Env, runCheck } from "./doctor_inputs.ts";
import { listening, tcpServer } from "./tcp_servers.ts";

const skip = NO_ADB;
let sim: RunningSim | undefined;
before(async () => {
  if (skip === false) sim = await startSimDevice({});
});
after(() => sim?.stop());

/** The real adb (named by ADB) and the simulated device's server. */
function simEnv(extra: Env = {}): Env {
  return { ADB: ADB!, ADB_SERVER_SOCKET: sim!.adbServerSocket, ...extra };
}

test("online and booted: ok with model and Android version, and recognised as the simulated device", { skip }, async (t) => {
  sim!.device.setFaults({ state: "device", bootCompleted: true });
  const result = await runCheck(deviceCheck, doctorInputs(t, simEnv()));
  assert.equal(result.ok, true, result.detail);
  assert.equal(
    result.detail,
    "emulator-5554 online and booted: sdk_gphone64_x86_64, Android 15 (API 35); SIMULATED: the built-in simulated device, not a real phone",
  );
  assert.deepEqual([result.facts["booted"], result.facts["simulated"], result.facts["api_level"]], [true, true, 35]);
});

test("offline: a miss saying so, with adb reconnect offline against the same server", { skip }, async (t) => {
  sim!.device.setFaults({ state: "offline" });
  t.after(() => sim!.device.setFaults({ state: "device" }));
  const result = await runCheck(deviceCheck, doctorInputs(t, simEnv()));
  assert.equal(result.ok, false);
  assert.equal(result.detail, "emulator-5554 is offline, not online");
  assert.equal(
    result.remedy,
    `ADB_SERVER_SOCKET=${sim!.adbServerSocket} adb reconnect offline; if it stays offline, restart the emulator or re-plug the cable`,
  );
});

test("unauthorized: a miss whose remedy is the USB debugging prompt (also when the serial is configured)", { skip }, async (t) => {
  sim!.device.setFaults({ state: "unauthorized" });
  t.after(() => sim!.device.setFaults({ state: "device" }));
  for (const env of [simEnv(), simEnv({ ANDROID_UDID: "emulator-5554" })]) {
    const result = await runCheck(deviceCheck, doctorInputs(t, env));
    assert.equal(result.ok, false);
    assert.equal(result.detail, "emulator-5554 is unauthorized, not online");
    assert.match(result.remedy ?? "", /accept the 'Allow USB debugging\?' prompt/);
  }
});

test("online but still booting: a miss with a wait loop to copy", { skip }, async (t) => {
  sim!.device.setFaults({ bootCompleted: false });
  t.after(() => sim!.device.setFaults({ bootCompleted: true }));
  const result = await runCheck(deviceCheck, doctorInputs(t, simEnv()));
  assert.equal(result.ok, false);
  assert.match(result.detail, /^emulator-5554 is online but still booting \(sys\.boot_completed is "", not "1"\)/);
  assert.equal(
    result.remedy,
    `Wait for the boot to finish, then rerun doctor: ADB_SERVER_SOCKET=${
      sim!.adbServerSocket
    } adb -s emulator-5554 shell 'while [ "$(getprop sys.boot_completed)" != 1 ]; do sleep 2; done'`,
  );
});

test("a configured serial adb does not list is a miss naming what it lists; a host:port one gets adb connect", { skip }, async (t) => {
  const usb = await runCheck(deviceCheck, doctorInputs(t, simEnv({ ANDROID_UDID: "R58M123ABC" })));
  assert.equal(usb.ok, false);
  assert.equal(
    usb.detail,
    `R58M123ABC (ANDROID_UDID / --device) is not listed by adb at ${sim!.adbServerSocket} (it lists: emulator-5554 device)`,
  );
  assert.match(usb.remedy ?? "", /export ANDROID_UDID=emulator-5554/);
  const network = await runCheck(deviceCheck, doctorInputs(t, simEnv(), { flags: { device: "192.168.240.112:5555" } }));
  assert.equal(network.ok, false);
  assert.match(network.remedy ?? "", new RegExp(`ADB_SERVER_SOCKET=${sim!.adbServerSocket} adb connect 192\\.168\\.240\\.112:5555`));
});

test("a host:port serial (Waydroid, network device) that is online is accepted", { skip }, async (t) => {
  const scenario = structuredClone(resolveScenario("settings"));
  scenario.android.serial = "192.168.240.112:5555";
  const waydroid = await startSimDevice({ scenario });
  t.after(() => waydroid.stop());
  const result = await runCheck(
    deviceCheck,
    doctorInputs(t, { ADB: ADB!, ADB_SERVER_SOCKET: waydroid.adbServerSocket, ANDROID_UDID: "192.168.240.112:5555" }),
  );
  assert.equal(result.ok, true, result.detail);
  assert.match(result.detail, /^192\.168\.240\.112:5555 online and booted/);
});

test("two online and none chosen: a miss asking to set ANDROID_UDID", { skip }, async (t) => {
  const second = structuredClone(resolveScenario("settings"));
  second.android.serial = "emulator-5556";
  const server = await startAdbServer([new ScenarioDevice(resolveScenario("settings")), new ScenarioDevice(second)]);
  t.after(() => server.stop());
  const result = await runCheck(deviceCheck, doctorInputs(t, { ADB: ADB!, ADB_SERVER_SOCKET: server.socketSpec }));
  assert.equal(result.ok, false);
  assert.equal(result.detail, "2 devices are online (emulator-5554, emulator-5556) and none is chosen");
  assert.match(result.remedy ?? "", /export ANDROID_UDID=emulator-5554 \(or pass --device <serial>\)/);
});

test("no server: a miss at once, and the real adb on PATH started no daemon on that port", { skip }, async (t) => {
  const port = await freePort();
  const env = { PATH: dirname(ADB!), ANDROID_ADB_SERVER_PORT: String(port) };
  const result = await runCheck(deviceCheck, doctorInputs(t, env));
  assert.equal(result.ok, false);
  assert.equal(result.detail, `no adb server answers at tcp:127.0.0.1:${port} (nothing listens there), so no device can be seen`);
  assertEndedByDeadline(result.tookMs, 0, "no adb server (not the 5 s timeout: the detail says nothing listens)");
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await listening(port), false, `an adb daemon was left listening on ${port}`);
});

test("a hanging adb, and a server that accepts but never answers, are misses within the timeout", { skip }, async (t) => {
  const bin = programDir(t);
  writeProgram(bin, "adb", HANGING);
  const hangingAdb = await runCheck(deviceCheck, doctorInputs(t, { PATH: bin, ADB_SERVER_SOCKET: sim!.adbServerSocket }), 1000);
  assert.equal(hangingAdb.ok, false);
  assert.equal(hangingAdb.detail, "`adb version` did not answer within 1 s and was stopped");
  assertEndedByDeadline(hangingAdb.tookMs, 1000, "the device check with a hanging adb");
  const silent = await tcpServer(t, null);
  const hungServer = await runCheck(deviceCheck, doctorInputs(t, { ADB: ADB!, ADB_SERVER_SOCKET: `tcp:127.0.0.1:${silent.port}` }), 1000);
  assert.equal(hungServer.ok, false);
  assert.match(hungServer.detail, /no adb server answers at .* \(no answer within 1 s\)/);
  assert.match(hungServer.remedy ?? "", /^The adb server is stuck: restart it \(ADB_SERVER_SOCKET=tcp:127\.0\.0\.1:\d+ adb kill-server/);
  assertEndedByDeadline(hungServer.tookMs, 1000, "the device check with a silent server");
});

test("a server of another adb version is not asked for devices: the real adb would kill it (host:kill)", { skip }, async (t) => {
  // An adb server speaking protocol 39 (adb 28, Ubuntu 20.04's) running beside this adb 29 (protocol 41).
  const older = await tcpServer(t, "OKAY00040027");
  const result = await runCheck(deviceCheck, doctorInputs(t, { ADB: ADB!, ADB_SERVER_SOCKET: `tcp:127.0.0.1:${older.port}` }));
  assert.equal(result.ok, false);
  assert.match(result.detail, /speaks protocol 39, this adb 41/);
  assert.match(result.remedy ?? "", /Use one adb for everything/);
  // Only doctor's own host:version probe: adb itself never connected (its version check sends host:kill).
  assert.equal(older.connections(), 1, "adb was run against the mismatched server");
});
