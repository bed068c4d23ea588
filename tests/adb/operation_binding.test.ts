/**
 * One operation, one device: runOperation resolves the device once, locks it, and every adb command of
 * the work goes to that serial (`-s`), even when `adb devices` would now answer differently. One
 * `devices -l` per call, not one per observer call (device_status's online list is that listing).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createAdbClient } from "../../src/adapters/adb/adb_client.ts";
import { createAdbObserver } from "../../src/adapters/adb/observer.ts";
import { SECTION_MARKER } from "../../src/adapters/adb/shell_sections.ts";
import { runOperation } from "../../src/mcp/run_operation.ts";
import { appClearTool } from "../../src/tools/app_clear.ts";
import { appListTool } from "../../src/tools/app_list.ts";
import { appUninstallTool } from "../../src/tools/app_uninstall.ts";
import { deviceStatusTool } from "../../src/tools/device_status.ts";
import { fakeWorld } from "../support/mcp_fakes.ts";
import { type Answer, commandOf, fakeRunner } from "./fake_runner.ts";

/** adb whose device list changes after the first look: emulator-5554 leaves, emulator-5556 arrives. */
function driftingAdb() {
  let listings = 0;
  const runner = fakeRunner((args): Answer => {
    if (commandOf(args) === "devices -l") {
      const serial = ++listings === 1 ? "emulator-5554" : "emulator-5556";
      return { stdout: `List of devices attached\n${serial}          device product:sdk model:x device:emu transport_id:1\n\n` };
    }
    if (args[1] !== "emulator-5554") return { exitCode: 1, stderr: `adb: device '${args[1]}' not found\n` };
    const answers: Record<string, string> = {
      "shell getprop ro.product.model": "Pixel 7\n",
      "shell getprop ro.build.version.sdk": "35\n",
      "shell wm size": "Physical size: 1080x2400\n",
      "shell wm density": "Physical density: 420\n",
      "shell pm list packages -3": "package:com.example.b\npackage:com.example.a\n",
    };
    // Commands joined in one shell (shell_sections.ts) are answered part by part, a marker line between parts, like sh.
    const parts = commandOf(args).split(` ; echo ${SECTION_MARKER} ; `);
    return { stdout: parts.map((part, i) => answers[i === 0 ? part : `shell ${part}`] ?? "").join(`${SECTION_MARKER}\n`) };
  });
  const adb = createAdbClient({ runner, program: { program: "adb", source: "PATH" } });
  return { runner, observer: createAdbObserver({ adb, clock: { now: () => Date.now(), sleep: async () => {} } }) };
}

for (const tool of [deviceStatusTool, appListTool]) {
  test(`${tool.name}: the work runs on the device that was locked, with one 'adb devices' per call`, async () => {
    const { runner, observer } = driftingAdb();
    const world = fakeWorld();
    world.deps.ports.observer = observer;
    const locked: string[] = [];
    const acquire = world.lock.acquire.bind(world.lock);
    world.deps.lock = { acquire: (device, owner) => (locked.push(device.udid), acquire(device, owner)) };

    const answer = await runOperation(tool, {}, world.deps);

    assert.equal(answer.envelope.ok, true, JSON.stringify(answer.envelope.error));
    assert.deepEqual(locked, ["emulator-5554"]);
    const serials = new Set(runner.calls.filter((c) => c.args[0] === "-s").map((c) => c.args[1]));
    assert.deepEqual([...serials], ["emulator-5554"]);
    assert.equal(runner.calls.filter((c) => commandOf(c.args) === "devices -l").length, 1);
    if (tool.name === "device_status") {
      const data = answer.envelope.data as Record<string, unknown>;
      assert.equal(data["udid"], "emulator-5554");
      // The online list is the listing the device was chosen from, not a second look that already differs.
      assert.deepEqual(data["devices"], [{ udid: "emulator-5554", model: "x" }]);
      assert.equal(data["default_device"], "emulator-5554");
    }
  });
}

/** adb with two online devices, the server bound to the first (ANDROID_UDID / --device). */
function twoDevicesBound() {
  const runner = fakeRunner((args): Answer =>
    commandOf(args) === "devices -l"
      ? {
        stdout: "List of devices attached\nemulator-5554          device product:sdk model:A device:emu transport_id:1\n" +
          "emulator-5556          device product:sdk model:B device:emu transport_id:2\n",
      }
      : { stdout: "" }
  );
  const adb = createAdbClient({ runner, program: { program: "adb", source: "PATH" } });
  const clock = { now: () => Date.now(), sleep: async () => {} };
  return { runner, observer: createAdbObserver({ adb, clock, requestedUdid: "emulator-5554" }) };
}

for (const tool of [appClearTool, appUninstallTool]) {
  test(`${tool.name} cannot be undone: while two devices are online it needs "device", even with one bound`, async () => {
    const { runner, observer } = twoDevicesBound();
    const world = fakeWorld();
    world.deps.ports.observer = observer;
    const locked: string[] = [];
    const acquire = world.lock.acquire.bind(world.lock);
    world.deps.lock = { acquire: (device, owner) => (locked.push(device.udid), acquire(device, owner)) };

    const unnamed = await runOperation(tool, { package: "com.example.a" }, world.deps);
    assert.equal(unnamed.envelope.error?.code, "INVALID_ARGUMENT");
    assert.equal(
      unnamed.envelope.error?.message,
      `${tool.name} cannot be undone, and 2 devices are online (emulator-5554, emulator-5556): pass "device" (the serial of ` +
        "the one you mean) to choose; nothing was changed.",
    );
    assert.deepEqual(locked, [], "refused before the lock");
    assert.equal(runner.calls.filter((c) => commandOf(c.args) === "devices -l").length, 1, "one listing");

    await runOperation(tool, { package: "com.example.a", device: "B" }, world.deps);
    assert.deepEqual(locked, ["emulator-5556"], "named by its model, the call went on to lock that device");
  });
}
