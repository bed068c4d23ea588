/**
 * `android-mcp-harness doctor` in process, with the real adapters: all eight lines in order and exit 0
 * when nothing blocks (--device sim, a fake Java 17, an SDK folder); everything hanging (java, adb,
 * appium, an adb server and an Appium that never answer) still gives all eight lines, five misses with
 * one remedy each, within the timeout; one hanging program misses while the other seven report;
 * `--json` is the same report as data and the only thing on stdout; bad options exit 2.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { assertEndedByDeadline } from "../support/time_bounds.ts";
import { CHECK_IDS } from "../../src/doctor/types.ts";
import type { DoctorReport } from "../../src/doctor/mod.ts";
import { runCliCaptured } from "../support/cli.ts";
import { HANGING, printing, programDir, writeProgram } from "../support/fake_programs.ts";
import { ADB, NO_ADB } from "../sim/adb_cli.ts";
import { scratch } from "./doctor_inputs.ts";
import { tcpServer } from "./tcp_servers.ts";

const JAVA_17 = 'openjdk version "17.0.9" 2023-10-17\nOpenJDK Runtime Environment (build 17.0.9+9)\n';
const LINE = /^\[(ok {2}|MISS)\] (\S.*?) {2,}(\S.*)$/;

/** A PATH with a fake Java 17 first, then the real adb's folder; an SDK folder with platform-tools/adb. */
function healthyEnv(t: Parameters<typeof scratch>[0]): Record<string, string> {
  const bin = programDir(t);
  writeProgram(bin, "java", printing({ stderr: JAVA_17 }));
  const sdk = programDir(t);
  writeProgram(sdk, "platform-tools/adb", printing({}));
  return { PATH: `${bin}:${dirname(ADB!)}:${process.env["PATH"] ?? ""}`, ANDROID_HOME: sdk, ADB: ADB! };
}

test("nothing blocks: eight [ok  ] lines in order, the simulated device said so, '0 of 8', exit 0", { skip: NO_ADB }, async (t) => {
  const run = await runCliCaptured(["doctor", "--device", "sim", "--artifacts", scratch(t)], { env: healthyEnv(t) });
  assert.equal(run.code, 0, run.stdout);
  const lines = run.stdout.trimEnd().split("\n");
  const checks = lines.slice(0, 8).map((line) => LINE.exec(line));
  assert.deepEqual(checks.map((m) => m?.[1]), Array(8).fill("ok  "), run.stdout);
  assert.deepEqual(checks.map((m) => m?.[2]), [
    "Runtime",
    "Java",
    "adb",
    "Android SDK",
    "Device",
    "Appium",
    "UiAutomator2 driver",
    "Artifacts",
  ]);
  assert.match(lines[4]!, /emulator-5554 online and booted: .*SIMULATED/);
  assert.deepEqual(lines.slice(8), ["", "0 of 8 checks block a real campaign."]);
});

test("everything hangs: all eight lines within the timeout, five misses, one remedy line each, exit 1", async (t) => {
  const bin = programDir(t);
  for (const name of ["java", "adb", "appium"]) writeProgram(bin, name, HANGING);
  const sdk = programDir(t);
  writeProgram(sdk, "platform-tools/adb", HANGING);
  const [adbServer, appium] = [await tcpServer(t, null), await tcpServer(t, null)];
  const started = Date.now();
  const run = await runCliCaptured(["doctor", "--timeout", "2", "--artifacts", scratch(t)], {
    cwd: scratch(t),
    env: {
      PATH: bin,
      ANDROID_HOME: sdk,
      ADB_SERVER_SOCKET: `tcp:127.0.0.1:${adbServer.port}`,
      APPIUM_URL: `http://127.0.0.1:${appium.port}`,
    },
  });
  const took = Date.now() - started;
  assertEndedByDeadline(took, 2000, "doctor with everything hanging");
  assert.equal(run.code, 1);
  const lines = run.stdout.trimEnd().split("\n");
  const marks = lines.slice(0, 8).map((line) => LINE.exec(line)?.[1]);
  assert.deepEqual(marks, ["ok  ", "MISS", "MISS", "ok  ", "MISS", "MISS", "MISS", "ok  "], run.stdout);
  assert.equal(lines[9], "5 of 8 checks block a real campaign:");
  assert.deepEqual(lines.slice(10).map((l) => /^ {2}([^:]+): \S/.exec(l)?.[1]), ["Java", "adb", "Device", "Appium", "UiAutomator2 driver"]);
  assert.match(lines[1]!, /did not answer within 2 s/);
});

test("one hanging program (java) is stopped at its timeout while the other seven report", { skip: NO_ADB }, async (t) => {
  const env = healthyEnv(t);
  const bin = programDir(t);
  writeProgram(bin, "java", HANGING);
  env["PATH"] = `${bin}:${env["PATH"]}`;
  const started = Date.now();
  // With an Appium URL (the simulated device's own endpoint replaces it): Java is asked, as for Appium.
  const args = [
    "doctor",
    "--json",
    "--timeout",
    "2",
    "--device",
    "sim",
    "--appium-url",
    "http://127.0.0.1:4723",
    "--artifacts",
    scratch(t),
  ];
  const run = await runCliCaptured(args, { env });
  const took = Date.now() - started;
  const report = JSON.parse(run.stdout) as DoctorReport;
  const java = report.checks[1]!;
  // The simulated device needs no Java: the miss is said, and does not block.
  assert.equal(run.code, 0, run.stdout);
  assert.deepEqual(report.checks.map((c) => [c.id, c.ok]), CHECK_IDS.map((id) => [id, true]));
  assert.match(java.detail, /^not needed for the simulated device \(a real device's Appium needs it: .*did not answer within 2 s/);
  assertEndedByDeadline(took, 2000, "doctor with java hanging");
  // "Stopped at its timeout, not before" is exact on the virtual clock (tests/doctor/run_doctor.test.ts); here the
  // real java is killed by the real runner, so its detail says the timeout ended it and the bound has a loaded machine's slack.
  assertEndedByDeadline(java.duration_ms, 2000, "the java check");
  // That the checks run at once (none waits for java) is exact on the virtual clock: tests/doctor/run_doctor.test.ts.
});

test(
  "doctor --device sim --appium-url with ANDROID_HOME unset and no Java: exit 0, each line says it is not needed for the simulated device",
  {
    skip: NO_ADB,
  },
  async (t) => {
    const env = healthyEnv(t);
    delete env["ANDROID_HOME"];
    env["PATH"] = programDir(t); // nothing on PATH (adb is named by ADB): no java anywhere
    const appium = ["--appium-url", "http://127.0.0.1:4723"];
    const run = await runCliCaptured(["doctor", "--device", "sim", ...appium, "--artifacts", scratch(t)], { env, cwd: scratch(t) });
    assert.equal(run.code, 0, run.stdout);
    const lines = run.stdout.trimEnd().split("\n");
    assert.match(lines[1]!, /^\[ok {2}\] Java +not needed for the simulated device \(a real device's Appium needs it: /);
    assert.match(
      lines[3]!,
      /^\[ok {2}\] Android SDK +not needed for the simulated device \(a real device's Appium needs it: neither ANDROID_HOME nor ANDROID_SDK_ROOT is set/,
    );
    assert.match(run.stdout, /0 of 8 checks block/);
    // Without --device sim the same machine is not ready for a real device: the SDK blocks.
    const real = await runCliCaptured(["doctor", "--json", ...appium, "--artifacts", scratch(t)], { env, cwd: scratch(t) });
    const sdk = (JSON.parse(real.stdout) as DoctorReport).checks.find((c) => c.id === "android_sdk")!;
    assert.deepEqual([real.code, sdk.ok], [1, false]);
  },
);

test(
  "--json prints only the report as data: the same checks, details and remedies, blocking count and simulated flag",
  { skip: NO_ADB },
  async (t) => {
    const env = healthyEnv(t);
    const blocked = join(scratch(t), "a-file");
    writeFileSync(blocked, "");
    const args = ["doctor", "--device", "sim", "--artifacts", join(blocked, "artifacts")];
    const json = await runCliCaptured([...args, "--json"], { env });
    const report = JSON.parse(json.stdout) as DoctorReport;
    assert.equal(json.code, 1);
    assert.deepEqual({ ok: report.ok, blocking: report.blocking, total: report.total, simulated: report.simulated }, {
      ok: false,
      blocking: 1,
      total: 8,
      simulated: true,
    });
    const miss = report.checks.find((c) => c.id === "artifacts")!;
    assert.equal(miss.ok, false);
    assert.match(miss.remedy ?? "", /ANDROID_MCP_ARTIFACTS_DIR/);
    assert.deepEqual(Object.keys(miss).sort(), ["detail", "duration_ms", "facts", "id", "name", "ok", "remedy"]);
    const text = await runCliCaptured(args, { env });
    // Each run starts its own simulated device (other ports) and measures free space again.
    const same = (s: string) => s.replace(/:\d{2,5}\b/g, ":PORT").replace(/[\d.]+ [kMGT]B free/g, "N free");
    for (const check of report.checks) {
      const mark = check.ok ? "[ok  ]" : "[MISS]";
      assert.ok(
        same(text.stdout).includes(same(`${mark} ${check.name.padEnd(19)}  ${check.detail}\n`)),
        `${check.id} line missing from the text form`,
      );
    }
    assert.match(text.stdout, new RegExp(`\\n  Artifacts: ${miss.remedy!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n$`));
  },
);

test("bad options and configuration exit 2 with the reason; --help lists doctor", async () => {
  const timeout = await runCliCaptured(["doctor", "--timeout", "0"]);
  assert.deepEqual([timeout.code, timeout.stderr], [2, "doctor: --timeout must be a whole number of seconds between 1 and 60.\n"]);
  const url = await runCliCaptured(["doctor"], { env: { APPIUM_URL: "ftp://x" } });
  assert.equal(url.code, 2);
  assert.match(url.stderr, /^doctor: APPIUM_URL must be an http:\/\/ or https:\/\/ URL/);
  const help = await runCliCaptured(["--help"]);
  assert.match(help.stdout, /\n\s+doctor\s+Check the eight prerequisites/);
});

test("without an Appium URL, only adb and a device: exit 0; Java and Appium read 'not needed (direct)', the helper's state is reported", {
  skip: NO_ADB,
}, async (t) => {
  const { startSimDevice } = await import("../../src/sim/mod.ts");
  const sim = await startSimDevice({});
  t.after(() => sim.stop());
  // A real-looking device (not --device sim) on an adb server, adb named by ADB, nothing else: no Java, no SDK, no Appium.
  const env = { PATH: programDir(t), ADB: ADB!, ADB_SERVER_SOCKET: sim.adbServerSocket };
  const doctor = async () => await runCliCaptured(["doctor", "--json", "--artifacts", scratch(t)], { env, cwd: scratch(t) });
  const run = await doctor();
  const report = JSON.parse(run.stdout) as DoctorReport;
  assert.equal(run.code, 0, run.stdout);
  const detail = (id: string) => report.checks.find((c) => c.id === id)!.detail;
  assert.match(detail("java"), /^not needed \(direct\): the harness installs and starts the device's UiAutomator2 server itself over adb/);
  assert.match(detail("appium"), /^not needed \(direct\)/);
  assert.match(detail("android_sdk"), /^not needed \(direct: only adb is used; Appium would need it: neither ANDROID_HOME/);
  assert.match(
    detail("uiautomator2"),
    /^direct: not installed on emulator-5554 yet; the first act installs io\.appium\.uiautomator2\.server 10\.6\.6/,
  );
  // Once the helper is on the device (as the first act leaves it), the check names it, its version and its removal.
  sim.device.addPackage("io.appium.uiautomator2.server", { code: 278, name: "10.6.6" });
  sim.device.addPackage("io.appium.uiautomator2.server.test", { code: 0, name: "" });
  const after = JSON.parse((await doctor()).stdout) as DoctorReport;
  const helper = after.checks.find((c) => c.id === "uiautomator2")!;
  assert.match(
    helper.detail,
    /^direct: io\.appium\.uiautomator2\.server 10\.6\.6 and io\.appium\.uiautomator2\.server\.test installed on emulator-5554; remove with: adb -s emulator-5554 uninstall io\.appium\.uiautomator2\.server\.test && adb -s emulator-5554 uninstall io\.appium\.uiautomator2\.server$/,
  );
  assert.deepEqual([helper.facts["installed"], helper.facts["version"], helper.facts["version_code"]], [true, "10.6.6", 278]);
  // An older server is not a miss either: the first act replaces it.
  sim.device.addPackage("io.appium.uiautomator2.server", { code: 250, name: "9.1.0" });
  const older = (JSON.parse((await doctor()).stdout) as DoctorReport).checks.find((c) => c.id === "uiautomator2")!;
  assert.deepEqual([older.ok, older.detail.endsWith("the first act installs 10.6.6")], [true, true], older.detail);
});
