/**
 * The observer through the real adb client (/usr/bin/adb, pointed at the simulated device with
 * ADB_SERVER_SOCKET): real process spawning, real wire protocol, the sim's fault switches.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, test } from "node:test";
import { assertEndedByDeadline } from "../support/time_bounds.ts";
import { createAdbClient } from "../../src/adapters/adb/adb_client.ts";
import { createAdbObserver } from "../../src/adapters/adb/observer.ts";
import { checkScreenshotShowsSomething } from "../../src/png/mod.ts";
import { createNodeProcessRunner } from "../../src/adapters/node_process_runner.ts";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import { HarnessError } from "../../src/errors.ts";
import { type RunningSim, startSimDevice } from "../../src/sim/mod.ts";
import { rejection } from "../support/outcomes.ts";

const ADB = process.env["ADB"] ?? "/usr/bin/adb";
const skip = existsSync(ADB) ? false : `the real adb client is not installed at ${ADB}`;
const wait = { timeoutMs: 10_000 };

let sim: RunningSim | undefined;
before(async () => {
  if (skip === false) sim = await startSimDevice({});
});
after(async () => {
  await sim?.stop();
});

function observer(requestedUdid?: string) {
  const adb = createAdbClient({
    runner: createNodeProcessRunner(),
    program: { program: ADB, source: "ADB" },
    serverSocket: sim!.adbServerSocket,
  });
  return createAdbObserver({ adb, clock: createSystemClock(), ...(requestedUdid === undefined ? {} : { requestedUdid }) });
}

test("real adb: status, tree, screenshot and packages of the simulated device; nothing but reads sent", { skip }, async () => {
  const device = sim!.device;
  const before = device.log.length;
  const obs = observer();
  const status = await obs.status(wait);
  assert.deepEqual({ ...status, foreground_package: typeof status.foreground_package }, {
    udid: device.serial,
    online: true,
    model: device.model,
    api_level: device.apiLevel,
    screen: { width: device.width, height: device.height, density: device.density },
    foreground_package: "string",
    keyboard_open: device.keyboard().open,
    simulated: true,
  }); // said by the device itself: this observer was not told it is the sim
  assert.equal(status.foreground_package, device.foregroundPackage());

  const capture = await obs.captureTree(wait);
  assert.ok(capture.xml.startsWith("<?xml") || capture.xml.startsWith("<hierarchy"));
  assert.ok(capture.xml.endsWith("</hierarchy>"));
  assert.equal(capture.foregroundPackage, device.foregroundPackage());
  assert.deepEqual(capture.screen, { width: device.width, height: device.height, density: device.density });

  const png = await obs.screenshot(wait);
  const image = checkScreenshotShowsSomething(png);
  assert.deepEqual([image.width, image.height], [device.width, device.height]);

  const thirdParty = await obs.listPackages({ includeSystem: false }, wait);
  const all = await obs.listPackages({ includeSystem: true }, wait);
  assert.deepEqual(all, device.installedPackages().map((p) => p.name).sort());
  assert.deepEqual(thirdParty, device.installedPackages().filter((p) => !p.system).map((p) => p.name).sort());

  const sent = device.log.slice(before).filter((e) => e.source === "adb").map((e) => e.command);
  assert.ok(sent.length > 0);
  for (const command of sent) assert.doesNotMatch(command, /\b(input|am start|am force-stop|monkey)\b/, command);
});

test("real adb: null root node once is retried; could not get idle state falls back to --compressed", { skip }, async () => {
  const device = sim!.device;
  device.setFaults({ dumpError: { kind: "null root node", count: 1 } });
  assert.ok((await observer().captureTree(wait)).xml.includes("<hierarchy"));
  device.setFaults({ dumpError: { kind: "could not get idle state", count: 1 } });
  const start = device.log.length;
  assert.ok((await observer().captureTree(wait)).xml.includes("<hierarchy"));
  assert.ok(device.log.slice(start).some((e) => e.command.includes("--compressed")), "used --compressed");
  device.setFaults({ dumpError: { kind: "null root node", count: 10 } });
  assert.equal((await rejection(observer().captureTree(wait))).code, "UI_TREE_UNAVAILABLE");
  device.setFaults({ dumpError: { kind: "null root node", count: 0 } });
});

test("real adb: a hung uiautomator is OPERATION_TIMEOUT in time, then the device answers again", { skip }, async () => {
  const device = sim!.device;
  device.setFaults({ hangCommands: ["uiautomator"] });
  const started = Date.now();
  const error = await rejection(observer().captureTree({ timeoutMs: 1500 }));
  assert.equal(error.code, "OPERATION_TIMEOUT");
  assertEndedByDeadline(Date.now() - started, 1500, "the hung uiautomator");
  device.setFaults({ hangCommands: [] });
  assert.ok((await observer().captureTree(wait)).xml.includes("<hierarchy"));
});

test("real adb: a one-colour screencap is refused as evidence", { skip }, async () => {
  const device = sim!.device;
  device.setFaults({ blankScreencap: true });
  try {
    const png = await observer().screenshot(wait);
    assert.throws(
      () => checkScreenshotShowsSomething(png),
      (e: unknown) => e instanceof HarnessError && e.code === "EVIDENCE_WRITE_FAILED",
    );
  } finally {
    device.setFaults({ blankScreencap: false });
  }
});

test("real adb: offline and unauthorized devices, unknown ANDROID_UDID, unreachable server", { skip }, async () => {
  const device = sim!.device;
  try {
    device.setFaults({ state: "offline" });
    assert.match((await rejection(observer().status(wait))).message, /is offline/);
    device.setFaults({ state: "unauthorized" });
    assert.match((await rejection(observer().status(wait))).message, /unauthorized: accept the USB debugging prompt/);
  } finally {
    device.setFaults({ state: "device" });
  }
  const unknown = await rejection(observer("emulator-9999").status(wait));
  assert.equal(unknown.code, "EMULATOR_UNAVAILABLE");
  assert.match(unknown.message, new RegExp(`Cannot find device "emulator-9999": adb lists 1 \\(${device.serial} device\\)`));
  const nowhere = createAdbObserver({
    adb: createAdbClient({ runner: createNodeProcessRunner(), program: { program: ADB, source: "ADB" }, serverSocket: "tcp:127.0.0.1:1" }),
    clock: createSystemClock(),
  });
  assert.match((await rejection(nowhere.status(wait))).message, /Cannot reach the adb server.*ADB_SERVER_SOCKET/);
});

test("adb missing: EMULATOR_UNAVAILABLE naming ADB and ANDROID_HOME", async () => {
  const obs = createAdbObserver({
    adb: createAdbClient({ runner: createNodeProcessRunner(), program: { program: "/nonexistent/adb", source: "ADB" } }),
    clock: createSystemClock(),
  });
  const error = await rejection(obs.status(wait));
  assert.equal(error.code, "EMULATOR_UNAVAILABLE");
  assert.match(error.message, /ENOENT.*ADB points to "\/nonexistent\/adb".*ANDROID_HOME/);
});

/**
 * Oracle reliability.md R8: the device dropping in the middle of a command's output (shell v2 without its
 * exit packet; adb 29 still exits 0 with empty stderr) is EMULATOR_UNAVAILABLE for every command whose output
 * is parsed, never a half answer: a cut package list once listed "com.exa".
 */
test("real adb: output cut off mid-stream is EMULATOR_UNAVAILABLE for every parsed read, never a half answer (R8)", { skip }, async () => {
  const device = sim!.device;
  const reads: [string, () => Promise<unknown>][] = [
    ["app_list", () => observer().listPackages({ includeSystem: true }, wait)],
    ["status", () => observer().status(wait)],
    ["tree", () => observer().captureTree(wait)],
    ["screenshot", () => observer().screenshot(wait)],
  ];
  for (const [name, read] of reads) {
    for (const bytes of [0, 7, 40]) {
      device.setFaults({ state: "device", offlineAfterOutputBytes: bytes });
      let outcome: unknown;
      try {
        outcome = await read();
      } catch (error) {
        outcome = error;
      }
      device.setFaults({ state: "device" });
      delete device.faults.offlineAfterOutputBytes;
      assert.ok(outcome instanceof HarnessError, `${name} cut after ${bytes} bytes answered ${JSON.stringify(outcome)?.slice(0, 200)}`);
      assert.ok(
        ["EMULATOR_UNAVAILABLE", "UI_TREE_UNAVAILABLE"].includes(outcome.code),
        `${name}/${bytes}: ${outcome.code} ${outcome.message}`,
      );
      if (name !== "tree") assert.equal(outcome.code, "EMULATOR_UNAVAILABLE", `${name}/${bytes}: ${outcome.message}`);
      assert.doesNotMatch(outcome.message, /undefined|Cannot read properties|TypeError/, outcome.message);
    }
  }
  assert.ok((await observer().listPackages({ includeSystem: true }, wait)).length > 0, "the device answers again once the fault clears");
});
