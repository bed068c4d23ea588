/**
 * `flow FILE --device a --device b`: one flow on two simulated devices in parallel, one lock and one
 * session per device, one aggregated set of reports (a run and a JUnit testsuite per device). Then past
 * one machine: the same flow through a real Selenium Grid 4 (relay nodes in front of two simulated
 * devices behind one adb server, APPIUM_URL at the Grid), both devices driven through their own node.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { DOMParser } from "@xmldom/xmldom";
import { BUILTIN_SCENARIOS, ScenarioDevice, startAdbServer, startUia2Server } from "../../src/sim/mod.ts";
import { actToolsSkipReason } from "../support/act_tools.ts";
import { runCliCaptured } from "../support/cli.ts";
import { gridSkipReason, type RunningGrid, startGrid } from "../support/selenium_grid.ts";
import { tempDir } from "../evidence/temp_dir.ts";

const tour = {
  version: 1,
  name: "two-devices",
  package_name: "com.android.settings",
  steps: [
    { tool: "settings_open", expect: { visible: { text: "Network & internet" } } },
    { tool: "ui_tap", args: { selector: { text: "Display" } }, expect: { visible: { text: "Brightness level" } } },
    { tool: "device_back", expect: { visible: { text: "Network & internet" } } },
    { tool: "ui_scroll", args: { direction: "down" }, expect: { visible: { text: "About emulated device" } } },
  ],
};

interface Report {
  exit_code: number;
  reports: { json: string; html: string; junit: string };
  runs: {
    device: { udid: string };
    outcome: string;
    started_at: string;
    finished_at: string;
    session: { session_id: string; closed: boolean };
    steps: { outcome: string }[];
  }[];
}

function checkTwoDeviceReports(report: Report, udids: string[]): void {
  assert.equal(report.exit_code, 0);
  assert.deepEqual(report.runs.map((r) => r.device.udid), udids);
  for (const run of report.runs) {
    assert.equal(run.outcome, "passed");
    assert.deepEqual(run.steps.map((s) => s.outcome), ["passed", "passed", "passed", "passed"]);
    assert.equal(run.session.closed, true);
  }
  assert.notEqual(report.runs[0]!.session.session_id, report.runs[1]!.session.session_id, "one session per device");
  const [a, b] = report.runs.map((r) => [Date.parse(r.started_at), Date.parse(r.finished_at)] as const);
  assert.ok(a![0] < b![1] && b![0] < a![1], "the two runs overlap in time: they ran in parallel");
  const junit = new DOMParser().parseFromString(readFileSync(report.reports.junit, "utf8"), "text/xml").documentElement!;
  const suites = Array.from(junit.getElementsByTagName("testsuite"));
  assert.deepEqual(suites.map((s) => s.getAttribute("name")), udids.map((u) => `two-devices on ${u}`));
  assert.ok(suites.every((s) => s.getAttribute("tests") === "4" && s.getAttribute("failures") === "0"));
  const html = readFileSync(report.reports.html, "utf8");
  for (const udid of udids) assert.match(html, new RegExp(`<h2>${udid} <span class="badge ok">passed`));
}

test(
  "one flow on two simulated devices runs in parallel, one lock and session each, reports aggregated",
  { skip: actToolsSkipReason() },
  async (t) => {
    const dir = tempDir(t, "amh-devices-");
    const file = join(dir, "tour.json");
    writeFileSync(file, JSON.stringify(tour));
    const run = await runCliCaptured(["flow", file, "--device", "sim", "--device", "sim", "--artifacts", join(dir, "artifacts"), "--json"]);
    assert.equal(run.code, 0, run.stderr);
    checkTwoDeviceReports(JSON.parse(run.stdout), ["emulator-5554", "emulator-5556"]);
    assert.match(run.stderr, /\[simulated device emulator-5554\] step 4 of 4 ui_scroll passed/);
    assert.match(run.stderr, /\[simulated device emulator-5556\] step 4 of 4 ui_scroll passed/);
  },
);

test("past one machine: the flow on two simulated devices through a real Selenium Grid 4, in parallel", {
  skip: actToolsSkipReason() || gridSkipReason(),
  timeout: 180_000,
}, async (t) => {
  const devices = ["emulator-5554", "emulator-5556"].map((serial) => {
    const scenario = structuredClone(BUILTIN_SCENARIOS["settings"]!);
    scenario.android.serial = serial;
    return new ScenarioDevice(scenario);
  });
  const uia2 = await Promise.all(devices.map((d) => startUia2Server(d)));
  t.after(() => Promise.all(uia2.map((s) => s.stop())));
  const adb = await startAdbServer(devices);
  t.after(() => adb.stop());
  // deno-lint-ignore prefer-const -- the after hook is set before the grid starts, so a failed start still stops it
  let grid: RunningGrid | undefined;
  t.after(() => grid?.stop());
  grid = await startGrid(devices.map((d, i) => ({ url: uia2[i]!.url, udid: d.serial })));

  const dir = tempDir(t, "amh-grid-flow-");
  const file = join(dir, "tour.json");
  writeFileSync(file, JSON.stringify(tour));
  const marks = devices.map((d) => d.log.length);
  const run = await runCliCaptured([
    "flow",
    file,
    "--device",
    "emulator-5554",
    "--device",
    "emulator-5556",
    "--artifacts",
    join(dir, "artifacts"),
    "--json",
  ], {
    env: { ADB_SERVER_SOCKET: adb.socketSpec, APPIUM_URL: grid.url },
  });
  assert.equal(run.code, 0, `${run.stderr}\n--- grid log ---\n${grid.log().slice(-3000)}`);
  checkTwoDeviceReports(JSON.parse(run.stdout), ["emulator-5554", "emulator-5556"]);
  for (const [i, device] of devices.entries()) {
    const uia2Commands = device.log.slice(marks[i]!).filter((e) => e.source === "uia2");
    assert.ok(uia2Commands.length > 0, `${device.serial} was driven through its own Grid node`);
  }
  assert.match(grid.log(), /Session created|Added session/i, "the Grid created the sessions");
});
