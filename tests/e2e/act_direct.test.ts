/**
 * The direct backend end to end over real stdio (issue 24 item 1): `serve` with no APPIUM_URL acts on the
 * simulated device through the UiAutomator2 server it installs and starts itself over the real adb client, no
 * Appium process anywhere. The simulated device's log shows the APK install stream (the package's own APKs,
 * read back from their manifests by the simulated package manager), the forward and the `am instrument` line;
 * the steps arrive as MCP progress; stderr names what was installed and how to remove it; a second server on the same device installs nothing;
 * the act battery's promises hold; stopping the server ends the instrumentation it started.
 */
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { after, before, test } from "node:test";
import { packagedServerApks } from "../../src/adapters/uia2_direct/server_package.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import {
  type BatteryTarget,
  callTool,
  navigationArrivesWithEvidence,
  noSessionLeftBehind,
  type Served,
  serveOn,
  sigtermDeletesTheSession,
} from "../support/act_battery.ts";
import { envelopeOf } from "../support/mcp_client.ts";
import { adb, NO_ADB, text } from "../sim/adb_cli.ts";

let target: BatteryTarget;
let served: Served;
const skip = NO_ADB;

before(async () => {
  if (skip !== false) return;
  const sim = await startSimDevice({});
  target = { sim, appiumUrl: null };
  served = await serveOn(target);
});

after(async () => {
  await served?.close();
  served?.home.remove();
  await target?.sim.stop();
});

const adbLog = () => target.sim.device.log.slice().filter((e) => e.source === "adb").map((e) => e.command);

test("the first act installs the package's two APKs over adb, forwards a port to tcp:6790 and starts the instrumentation", {
  skip,
}, async () => {
  const progress: string[] = [];
  const tapped = envelopeOf(
    await served.server.client.callTool({ name: "ui_tap", arguments: { selector: { text: "Network & internet" } } }, undefined, {
      timeout: 120_000,
      onprogress: (p) => void progress.push(p.message ?? ""),
    }),
  );
  assert.equal(tapped.ok, true, JSON.stringify(tapped.error));
  // The client asked for progress: the install and start steps arrive as MCP progress notifications, in order.
  const steps = ["checking the UiAutomator2 server", "installing io.appium.uiautomator2.server on", "installed the UiAutomator2 server"]
    .concat(["forwarding a local port", "starting the UiAutomator2 server", "waiting for the UiAutomator2 server"]);
  const at = steps.map((step) => progress.findIndex((m) => m.startsWith(step)));
  assert.ok(at.every((i, n) => i !== -1 && (n === 0 || i > at[n - 1]!)), `progress in order: ${JSON.stringify(progress)}`);
  assert.equal(target.sim.device.screenId(), "network");
  const apks = packagedServerApks();
  const log = adbLog();
  for (const apk of [apks.server, apks.test]) {
    const size = statSync(apk).size;
    assert.ok(log.some((c) => c === `cmd package 'install' '-r' -S ${size}`), `the ${size}-byte APK streamed: ${log.join("\n")}`);
  }
  assert.ok(log.includes(`installed io.appium.uiautomator2.server 10.6.6 (${statSync(apks.server).size} bytes)`));
  assert.ok(log.includes(`installed io.appium.uiautomator2.server.test (${statSync(apks.test).size} bytes)`));
  assert.ok(log.includes("forward tcp:0 tcp:6790"), "a free local port forwarded to the server's device port");
  const instrument = "am instrument -w -e disableAnalytics true io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner";
  assert.ok(log.some((c) => c.startsWith(instrument)), "the instrumentation the harness starts");
  const order = ["cmd package 'install'", "forward tcp:0", instrument].map((p) => log.findIndex((c) => c.startsWith(p)));
  assert.deepEqual([...order].sort((a, b) => a - b), order, "install, then forward, then the instrumentation");
  const stderr = served.server.stderr();
  assert.match(stderr, /installing io\.appium\.uiautomator2\.server on emulator-5554 \(17\.\d MB\)/);
  assert.match(
    stderr,
    /installed the UiAutomator2 server 10\.6\.6 .* remove it with: adb -s emulator-5554 uninstall io\.appium\.uiautomator2\.server\.test && adb -s emulator-5554 uninstall io\.appium\.uiautomator2\.server\n/,
  );
  assert.equal(stderr.match(/installed the UiAutomator2 server/g)?.length, 1, "said once");
  assert.equal((await callTool(served.server, "device_back")).ok, true);
});

test(
  "through the direct backend: navigation arrives where it says, leaves a PNG, and returns the new screen",
  { skip },
  () => navigationArrivesWithEvidence(target, served),
);

test(
  "through the direct backend: a batch of successes and failures leaves no session behind (R20)",
  { skip },
  () => noSessionLeftBehind(target, served),
);

test("a second server on the same device finds the server installed at its version and installs nothing", { skip }, async () => {
  const from = target.sim.device.log.length;
  const other = await serveOn(target, {}, served.home);
  try {
    const back = await callTool(other.server, "device_back");
    assert.equal(back.ok, true, JSON.stringify(back.error));
    const log = target.sim.device.log.slice(from).filter((e) => e.source === "adb").map((e) => e.command);
    assert.ok(log.some((c) => c.startsWith("dumpsys package io.appium.uiautomator2.server")), "the installed version was read");
    assert.equal(log.filter((c) => c.startsWith("cmd package 'install'")).length, 0, log.join("\n"));
    assert.doesNotMatch(other.server.stderr(), /installed the UiAutomator2 server/);
  } finally {
    await other.close();
  }
});

test("an older server on the device is replaced; a lone test package makes both be installed afresh", { skip }, async () => {
  const device = target.sim.device;
  device.addPackage("io.appium.uiautomator2.server", { code: 200, name: "9.0.0" });
  const from = device.log.length;
  const other = await serveOn(target, {}, served.home);
  try {
    assert.equal((await callTool(other.server, "device_back")).ok, true);
    const log = device.log.slice(from).map((e) => e.command);
    assert.ok(log.includes(`installed io.appium.uiautomator2.server 10.6.6 (${statSync(packagedServerApks().server).size} bytes)`));
    assert.equal(log.filter((c) => /^uninstall|pm uninstall|cmd package 'uninstall'/.test(c)).length, 0, "an upgrade keeps the pair");
  } finally {
    await other.close();
  }
  device.removePackage("io.appium.uiautomator2.server");
  const lone = device.log.length;
  const third = await serveOn(target, {}, served.home);
  try {
    assert.equal((await callTool(third.server, "device_back")).ok, true);
    const log = device.log.slice(lone).map((e) => e.command);
    const uninstalled = log.findIndex((c) => /uninstall.*io\.appium\.uiautomator2\.server\.test/.test(c));
    const installed = log.findIndex((c) => c.startsWith("installed io.appium.uiautomator2.server 10.6.6"));
    assert.ok(uninstalled !== -1 && installed > uninstalled, `the half pair is uninstalled first: ${log.join("\n")}`);
  } finally {
    await third.close();
  }
});

test(
  "SIGTERM during an open session deletes it on the server and releases the lock (R20)",
  { skip },
  () => sigtermDeletesTheSession(target),
);

test("a stopping server ends the instrumentation it started and removes its forward", { skip }, async () => {
  const forwards = async () =>
    text(await adb(target.sim.adbServerSocket, ["forward", "--list"])).split("\n").filter((l) => l.endsWith(" tcp:6790"));
  const before = await forwards();
  const other = await serveOn(target, {}, served.home);
  const opened = await callTool(other.server, "ui_session_open");
  assert.equal(opened.ok, true, JSON.stringify(opened.error));
  const ps = async () => text(await adb(target.sim.adbServerSocket, ["-s", target.sim.device.serial, "shell", "ps", "-A"]));
  assert.match(await ps(), /io\.appium\.uiautomator2\.server/, "the instrumentation runs while the session is open");
  const added = (await forwards()).filter((l) => !before.includes(l));
  assert.equal(added.length, 1, "the server's own forward");
  await other.close();
  assert.doesNotMatch(await ps(), /io\.appium\.uiautomator2\.server/, "no instrumentation is left running");
  assert.deepEqual(await forwards(), before, "its forward is removed");
});
