import assert from "node:assert/strict";
import { test } from "node:test";
import { checkPackageName, checkSerial } from "../../src/adapters/adb/adb_arguments.ts";
import { createAdbClient } from "../../src/adapters/adb/adb_client.ts";
import { ADB_COMMANDS } from "../../src/adapters/adb/adb_commands.ts";
import { findAdbProgram } from "../../src/adapters/adb/adb_program.ts";
import { chooseDevice, selectDevice } from "../../src/adapters/adb/select_device.ts";
import { parseAdbDevices } from "../../src/adapters/adb/parse_devices.ts";
import { HarnessError } from "../../src/errors.ts";
import { adbSamplesSkipReason, sample } from "./fixture_files.ts";
import { type Answer, fakeRunner } from "./fake_runner.ts";
import { rejection } from "../support/outcomes.ts";

const PATH_ADB = { program: "adb", source: "PATH" } as const;

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as HarnessError).code;
  }
  return "no error";
}

test("adb program: ADB wins, then ANDROID_HOME/platform-tools/adb when it exists, then PATH", () => {
  const exists = (p: string) => p === "/sdk/platform-tools/adb";
  assert.deepEqual(findAdbProgram({ ADB: "/opt/adb", ANDROID_HOME: "/sdk" }, { exists }), { program: "/opt/adb", source: "ADB" });
  assert.deepEqual(findAdbProgram({ ANDROID_HOME: "/sdk" }, { exists }), { program: "/sdk/platform-tools/adb", source: "ANDROID_HOME" });
  assert.deepEqual(findAdbProgram({ ANDROID_HOME: "/nosdk" }, { exists }), { program: "adb", source: "PATH" });
  assert.deepEqual(findAdbProgram({}, { exists }), { program: "adb", source: "PATH" });
});

test("arguments: package names and serials that could escape are refused before adb runs (R12)", () => {
  for (const bad of ["com.a;reboot", "com.a && rm -rf /", "../../etc", "-f", "--user", "com", "com.a b", "com.a/../b", "", "com.$(id)"]) {
    assert.equal(code(() => checkPackageName(bad)), "INVALID_PACKAGE", bad);
    assert.equal(code(() => ADB_COMMANDS.resolveActivity(bad)), "INVALID_PACKAGE", bad);
  }
  assert.equal(checkPackageName("com.android.settings"), "com.android.settings");
  for (const bad of ["-e", "--help", "a;b", "a b", "../x", "a&&b", ""]) assert.equal(code(() => checkSerial(bad)), "INVALID_ARGUMENT", bad);
  for (const good of ["emulator-5554", "127.0.0.1:5555", "adb-SERIAL00000001-a4QqY3._adb-tls-connect._tcp", "R58M123ABC"]) {
    assert.equal(checkSerial(good), good);
  }
});

test("the closed list: every command is an argument array with no shell metacharacters (R12)", () => {
  const commands = [
    ADB_COMMANDS.version(),
    ADB_COMMANDS.devices(),
    ADB_COMMANDS.getprop("ro.build.version.sdk"),
    ADB_COMMANDS.getpropAll(),
    ADB_COMMANDS.wmSize(),
    ADB_COMMANDS.wmDensity(),
    ADB_COMMANDS.dumpsysWindowDisplays(),
    ADB_COMMANDS.dumpsysWindowWindows(),
    ADB_COMMANDS.dumpsysWindowInputMethod(),
    ADB_COMMANDS.dumpsysInputMethod(),
    ADB_COMMANDS.dumpsysActivities(),
    ADB_COMMANDS.listPackages(false),
    ADB_COMMANDS.listPackages(true),
    ADB_COMMANDS.resolveActivity("com.a.b"),
    ADB_COMMANDS.uiautomatorDump(),
    ADB_COMMANDS.uiautomatorDumpCompressed(),
    ADB_COMMANDS.screencap(),
    ADB_COMMANDS.screenFacts(),
    ADB_COMMANDS.startView("https://shop.example/?q=[a]&b=?", "com.android.chrome"),
  ];
  // The direct backend's commands (they install, forward, start and act: tests/adb/direct_commands.test.ts).
  const direct = [
    ADB_COMMANDS.dumpsysPackage("io.appium.uiautomator2.server"),
    ADB_COMMANDS.listPackagesMatching("io.appium.uiautomator2.server"),
    ADB_COMMANDS.install("/opt/h/server.apk"),
    ADB_COMMANDS.uninstall("io.appium.uiautomator2.server"),
    ADB_COMMANDS.forwardFreePort(6790),
    ADB_COMMANDS.forwardRemove(40000),
    ADB_COMMANDS.instrument({ testPackage: "io.appium.uiautomator2.server.test", runner: "androidx.test.runner.AndroidJUnitRunner" }),
    ADB_COMMANDS.forceStop("com.a.b"),
    ADB_COMMANDS.clearPackage("com.a.b"),
    ADB_COMMANDS.pidof("com.a.b"),
    ADB_COMMANDS.launchPackage("com.a.b"),
    ADB_COMMANDS.keyevent(66),
    // Screen recordings (adapters/adb/screen_recordings.ts): their file is always /data/local/tmp/amh-rec-….mp4.
    ADB_COMMANDS.screenrecord(180, "/data/local/tmp/amh-rec-1-2-3.mp4"),
    ADB_COMMANDS.pidofScreenrecord(),
    ADB_COMMANDS.readRecording("/data/local/tmp/amh-rec-1-2-3.mp4"),
    ADB_COMMANDS.removeRecording("/data/local/tmp/amh-rec-1-2-3.mp4"),
  ];
  for (
    const bad of [
      "/sdcard/x.mp4",
      "/data/local/tmp/amh-rec-1;reboot.mp4",
      "/data/local/tmp/amh-rec-../../x.mp4",
      "/data/local/tmp/amh-rec-1.mp4 /",
    ]
  ) {
    assert.equal(code(() => ADB_COMMANDS.removeRecording(bad)), "INTERNAL_ERROR", bad);
  }
  for (const bad of [0, 181, 1.5]) {
    assert.equal(code(() => ADB_COMMANDS.screenrecord(bad, "/data/local/tmp/amh-rec-1.mp4")), "INVALID_ARGUMENT");
  }
  assert.equal(commands.length + direct.length, Object.keys(ADB_COMMANDS).length + 1, "every builder is covered (listPackages twice)");
  for (const command of direct) {
    // No free-form value among them: fixed words and validated names, no metacharacter.
    for (const arg of command.args) assert.doesNotMatch(arg, /[;&|`$<>\\'"\s]/, `${command.name}: ${arg}`);
  }
  for (const command of commands) {
    // One shell may run several commands of the list (screen-facts): `;` only as a word of its own, between them.
    // A free value (startView's URL) is one single-quoted word with no quote inside (shellWord).
    for (const arg of command.args) {
      if (arg !== ";" && !/^'[^']*'$/.test(arg)) assert.doesNotMatch(arg, /[;&|`$<>\\'"\s?*[\]]/, `${command.name}: ${arg}`);
    }
    if (command.device) assert.ok(["shell", "exec-out"].includes(command.args[0]!), command.name);
  }
  // Observation never sends input or starts anything: only startView (a UI session's deep link) starts an activity.
  const words = commands.filter((c) => c.name !== "am-start-view").flatMap((c) => c.args);
  for (const forbidden of ["input", "am", "start", "monkey", "reboot", "install", "uninstall", "rm", "push"]) {
    assert.ok(!words.includes(forbidden), forbidden);
  }
});

test("client: -s serial, argument arrays, timeout, signal and ADB_SERVER_SOCKET reach the runner", async () => {
  const runner = fakeRunner(() => ({ stdout: "Physical size: 1080x2400\n" }));
  const adb = createAdbClient({ runner, program: { program: "/sdk/adb", source: "ANDROID_HOME" }, serverSocket: "tcp:127.0.0.1:5038" });
  const signal = new AbortController().signal;
  assert.equal(await adb.text(ADB_COMMANDS.wmSize(), { serial: "emulator-5554", timeoutMs: 1234, signal }), "Physical size: 1080x2400\n");
  const call = runner.calls[0]!;
  assert.equal(call.program, "/sdk/adb");
  assert.deepEqual(call.args, ["-s", "emulator-5554", "shell", "wm", "size", ";", "echo", "__android_mcp_end:$?"]);
  assert.equal(call.options.timeoutMs, 1234);
  assert.equal(call.options.signal, signal);
  assert.deepEqual(call.options.env, { ADB_SERVER_SOCKET: "tcp:127.0.0.1:5038" });
  await adb.run(ADB_COMMANDS.devices(), { timeoutMs: 10 });
  assert.deepEqual(runner.calls[1]!.args, ["devices", "-l"]);
});

test("client: non-zero exits are data; adb missing, timeouts and device errors are typed", { skip: adbSamplesSkipReason() }, async () => {
  const answers: Record<string, Answer> = {
    missing: { spawnError: "ENOENT" },
    exit3: { exitCode: 3, stderr: "something odd" },
    unauthorized: { exitCode: 1, stderr: sample("adb-devices", "error-shell-device-unauthorized.txt") },
    newUnauthorized: { exitCode: 1, stderr: sample("adb-devices", "error-shell-unauthorized-after-server-version-mismatch-adb41.txt") },
    none: { exitCode: 1, stderr: sample("adb-devices", "error-shell-no-devices-after-daemon-start.txt") },
    notFound: { exitCode: 255, stderr: "error: device 'emulator-5554' not found\n" },
    offline: { exitCode: 1, stderr: "error: device offline\n" },
    server: {
      exitCode: 1,
      stderr:
        "* cannot start server on remote host\nadb: failed to check server version: cannot connect to daemon at tcp:127.0.0.1:5098: failed to connect\n",
    },
    hang: { hang: true },
    closed: { exitCode: 1, stderr: "error: closed\n" },
    authorizing: { exitCode: 1, stderr: "error: device still authorizing\n" },
  };
  let which = "";
  const adb = createAdbClient({ runner: fakeRunner(() => answers[which]), program: { program: "/nope/adb", source: "ADB" } });
  const run = (name: string, options: { timeoutMs: number; signal?: AbortSignal } = { timeoutMs: 50 }) => {
    which = name;
    return adb.run(ADB_COMMANDS.wmSize(), { serial: "emulator-5554", ...options });
  };
  assert.equal((await run("exit3")).exitCode, 3);
  const missing = await rejection(run("missing"));
  assert.equal(missing.code, "EMULATOR_UNAVAILABLE");
  assert.match(missing.message, /ADB points to "\/nope\/adb".*ANDROID_HOME/);
  for (const name of ["unauthorized", "newUnauthorized"]) {
    const error = await rejection(run(name));
    assert.equal(error.code, "EMULATOR_UNAVAILABLE");
    assert.match(error.message, /unauthorized: accept the USB debugging prompt/);
  }
  assert.match((await rejection(run("none"))).message, /no devices/);
  assert.match((await rejection(run("notFound"))).message, /cannot find device "emulator-5554"/);
  assert.match((await rejection(run("offline"))).message, /offline/);
  assert.match((await rejection(run("server"))).message, /ADB_SERVER_SOCKET/);
  assert.match((await rejection(run("closed"))).message, /connection to the device dropped/);
  assert.match((await rejection(run("authorizing"))).message, /still connecting or authorizing/);
  const timedOut = await rejection(run("hang", { timeoutMs: 20 }));
  assert.equal(timedOut.code, "OPERATION_TIMEOUT");
  assert.match(timedOut.message, /did not answer within 20 ms/);
  const controller = new AbortController();
  const pending = run("hang", { timeoutMs: 10_000, signal: controller.signal });
  controller.abort();
  assert.equal((await rejection(pending)).code, "OPERATION_TIMEOUT");
});

test("device selection on real adb devices samples", { skip: adbSamplesSkipReason() }, () => {
  const from = (name: string) => parseAdbDevices(sample("adb-devices", name));
  assert.equal(chooseDevice(from("devices-l-xiaomi-mi11lite-usb-one-device.txt"), undefined).serial, "SERIAL01");
  assert.equal(chooseDevice(from("devices-one-offline-one-device.txt"), undefined).serial, "emulator-5556");

  const several = code(() => chooseDevice(from("devices-mdns-tls-wireless-plus-emulator-crlf.txt"), undefined));
  assert.equal(several, "EMULATOR_UNAVAILABLE");
  assert.throws(
    () => chooseDevice(from("devices-mdns-tls-wireless-plus-emulator-crlf.txt"), undefined),
    /2 devices are online \(adb-SERIAL00000001-a4QqY3\._adb-tls-connect\._tcp, emulator-5554\); set ANDROID_UDID/,
  );
  assert.equal(chooseDevice(from("devices-mdns-tls-wireless-plus-emulator-crlf.txt"), "emulator-5554").serial, "emulator-5554");

  assert.throws(
    () => chooseDevice(from("devices-unauthorized.txt"), undefined),
    /"SERIAL0000000002" is unauthorized: accept the USB debugging prompt/,
  );
  assert.throws(() => chooseDevice(from("devices-offline-emulator.txt"), undefined), /"emulator-5554" is offline/);
  assert.throws(
    () => chooseDevice(from("devices-no-permissions-missing-udev-rules.txt"), undefined),
    /no permissions: fix the USB permissions/,
  );
  assert.throws(() => chooseDevice(from("devices-one-offline-one-device.txt"), "emulator-5554"), /"emulator-5554" is offline/);
  assert.throws(
    () => chooseDevice(from("devices-one-offline-one-device.txt"), "emulator-9999"),
    /Cannot find device "emulator-9999": adb lists 2 \(emulator-5554 offline, emulator-5556 device\)/,
  );
  assert.throws(() => chooseDevice([], undefined), /adb lists no devices: start an emulator/);
});

test("selectDevice runs `adb devices -l` and keeps the -l model", { skip: adbSamplesSkipReason() }, async () => {
  const adb = createAdbClient({
    runner: fakeRunner(() => ({ stdout: sample("adb-devices", "devices-l-macos-usb-locationid-huawei.txt") })),
    program: PATH_ADB,
  });
  const device = await selectDevice(adb, undefined, { timeoutMs: 100 });
  assert.equal(device.serial, "SERIAL0000000003");
  assert.equal(device.properties["model"], "ALP_AL00");
});
