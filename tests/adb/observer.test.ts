import assert from "node:assert/strict";
import { test } from "node:test";
import { assertEndedByDeadline } from "../support/time_bounds.ts";
import { createAdbClient } from "../../src/adapters/adb/adb_client.ts";
import { createAdbObserver } from "../../src/adapters/adb/observer.ts";
import { SECTION_MARKER } from "../../src/adapters/adb/shell_sections.ts";
import type { Clock } from "../../src/ports/clock.ts";
import { adbSamplesSkipReason, sample } from "./fixture_files.ts";
import { type Answer, commandOf, fakeRunner } from "./fake_runner.ts";
import { rejection } from "../support/outcomes.ts";
import { FAKE_PNG } from "../support/mcp_fakes.ts";

const skip = adbSamplesSkipReason();
const instantClock: Clock = { now: () => Date.now(), sleep: async () => {} };
const XML =
  `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node text="Hi" bounds="[0,0][1080,2400]" /></hierarchy>`;

/** A scripted healthy device; `overrides` replaces answers by command text. */
function device(overrides: Record<string, Answer | ((n: number) => Answer)> = {}) {
  const counts = new Map<string, number>();
  const answers: Record<string, Answer> = {
    "devices -l": {
      stdout: "List of devices attached\nemulator-5554          device product:sdk model:Pixel_7 device:emu transport_id:1\n\n",
    },
    "shell wm size": { stdout: "Physical size: 1080x2400\n" },
    "shell wm density": { stdout: "Physical density: 420\n" },
    "shell dumpsys input_method": { stdout: sample("dumpsys-input-method", "pixel7-avd-api35-gboard-shown-excerpt.txt") },
    "shell dumpsys window InputMethod": {
      stdout: sample("dumpsys-window", "window-InputMethod-pixel7-avd-gboard-visible-selected-lines.txt"),
    },
    "shell dumpsys window displays": { stdout: "  mCurrentFocus=Window{2785a60 u0 com.android.settings/com.android.settings.Settings}\n" },
    "exec-out uiautomator dump /dev/tty": { stdout: `${XML}UI hierchary dumped to: /dev/tty\n` },
    "shell getprop ro.product.model": { stdout: "Pixel 7\n" },
    "shell getprop ro.build.version.sdk": { stdout: "35\n" },
    "exec-out screencap -p": { stdout: FAKE_PNG },
    "shell pm list packages -3": { stdout: "package:com.example.b\npackage:com.example.a\npackage:org.other\n" },
    "shell pm list packages": { stdout: "package:com.example.a\npackage:com.android.settings\n" },
  };
  const answerOf = (command: string): Answer | undefined => {
    const n = (counts.get(command) ?? 0) + 1;
    counts.set(command, n);
    const override = overrides[command];
    if (override !== undefined) return typeof override === "function" ? override(n) : override;
    return answers[command];
  };
  const runner = fakeRunner((args) => {
    // Commands joined in one shell (shell_sections.ts) are answered part by part, a marker line between parts, like sh.
    const parts = commandOf(args).split(` ; echo ${SECTION_MARKER} ; `);
    if (parts.length === 1) return answerOf(parts[0]!);
    const answered = parts.map((part, i) => answerOf(i === 0 ? part : `shell ${part}`));
    return { stdout: answered.map((a) => Buffer.from(a?.stdout ?? "").toString("utf8")).join(`${SECTION_MARKER}\n`) };
  });
  return { runner, commands: () => runner.calls.map((c) => commandOf(c.args)), count: (c: string) => counts.get(c) ?? 0 };
}

function observerOf(dev: ReturnType<typeof device>, requestedUdid?: string) {
  const adb = createAdbClient({ runner: dev.runner, program: { program: "adb", source: "PATH" } });
  return createAdbObserver({ adb, clock: instantClock, ...(requestedUdid === undefined ? {} : { requestedUdid }) });
}

test("captureTree: XML without trailer, geometry, keyboard and foreground from adb; only read-only commands", { skip }, async () => {
  const dev = device();
  const observer = observerOf(dev);
  const capture = await observer.captureTree({ timeoutMs: 5000 });
  assert.equal(capture.xml, XML);
  assert.deepEqual(capture.screen, { width: 1080, height: 2400, density: 420 });
  assert.deepEqual(capture.keyboard, { open: true });
  assert.equal(capture.foregroundPackage, "com.android.settings");
  assert.equal(observer.udid, "emulator-5554");
  for (const command of dev.commands()) {
    assert.match(command, /^(devices -l|shell (wm|dumpsys|getprop|pm list)|exec-out (uiautomator dump|screencap -p))/, command);
  }
  assert.ok(dev.runner.calls.filter((c) => c.args[0] === "-s").every((c) => c.args[1] === "emulator-5554"));
  // Three adb processes: the device's selection, the dump, and the five facts in one shell (screen-facts).
  assert.equal(dev.runner.calls.length, 3, dev.commands().join("\n"));
});

test("captureTree: null root node is retried, then the fresh dump is returned", { skip }, async () => {
  const dev = device({
    "exec-out uiautomator dump /dev/tty": (n) =>
      n < 3
        ? { stdout: "ERROR: null root node returned by UiTestAutomationBridge.\n" }
        : { stdout: `${XML}UI hierchary dumped to: /dev/tty` },
  });
  const capture = await observerOf(dev).captureTree({ timeoutMs: 5000 });
  assert.equal(capture.xml, XML);
  assert.equal(dev.count("exec-out uiautomator dump /dev/tty"), 3);
});

test("captureTree: null root node every time is UI_TREE_UNAVAILABLE, never an old screen", { skip }, async () => {
  const dev = device({ "exec-out uiautomator dump /dev/tty": { stdout: "ERROR: null root node returned by UiTestAutomationBridge.\n" } });
  const error = await rejection(observerOf(dev).captureTree({ timeoutMs: 5000 }));
  assert.equal(error.code, "UI_TREE_UNAVAILABLE");
  assert.match(error.message, /null root node\) 3 times/);
  assert.equal(dev.count("exec-out uiautomator dump /dev/tty"), 3);
  assert.ok(!dev.commands().some((c) => c.includes("/sdcard") || c.includes("pull")), "never reads a file left on the device");
});

test("captureTree: could not get idle state falls back to --compressed", { skip }, async () => {
  const idle = { stdout: "ERROR: could not get idle state.\n" };
  const dev = device({
    "exec-out uiautomator dump /dev/tty": idle,
    "exec-out uiautomator dump --compressed /dev/tty": { stdout: `${XML}UI hierchary dumped to: /dev/tty\n` },
  });
  assert.equal((await observerOf(dev).captureTree({ timeoutMs: 5000 })).xml, XML);
  const stuck = device({ "exec-out uiautomator dump /dev/tty": idle, "exec-out uiautomator dump --compressed /dev/tty": idle });
  const error = await rejection(observerOf(stuck).captureTree({ timeoutMs: 5000 }));
  assert.equal(error.code, "UI_TREE_UNAVAILABLE");
  assert.match(error.message, /idle/);
});

test("captureTree: a killed or silent uiautomator is UI_TREE_UNAVAILABLE with the exit code", { skip }, async () => {
  const dev = device({ "exec-out uiautomator dump /dev/tty": { exitCode: 137, stdout: "" } });
  const error = await rejection(observerOf(dev).captureTree({ timeoutMs: 5000 }));
  assert.equal(error.code, "UI_TREE_UNAVAILABLE");
  assert.match(error.message, /exit code 137/);
});

test("captureTree: a hung dump is OPERATION_TIMEOUT within the caller's time limit", { skip }, async () => {
  const dev = device({ "exec-out uiautomator dump /dev/tty": { hang: true } });
  const started = Date.now();
  const error = await rejection(observerOf(dev).captureTree({ timeoutMs: 150 }));
  assert.equal(error.code, "OPERATION_TIMEOUT");
  assertEndedByDeadline(Date.now() - started, 150, "the hung dump");
});

test("captureTree: a landscape dump (rotation 3) turns wm's natural size", { skip }, async () => {
  const landscape = XML.replace('rotation="0"', 'rotation="3"');
  const dev = device({ "exec-out uiautomator dump /dev/tty": { stdout: landscape } });
  assert.deepEqual((await observerOf(dev).captureTree({ timeoutMs: 5000 })).screen, { width: 2400, height: 1080, density: 420 });
});

test("foreground: falls back to dumpsys window windows, then to dumpsys activity activities", { skip }, async () => {
  const dev = device({
    "shell dumpsys window displays": { stdout: "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n" },
    "shell dumpsys window windows": { stdout: sample("dumpsys-window", "windows-android13-appium-android-driver-fixture.txt") },
    "shell dumpsys activity activities": {
      stdout: sample("dumpsys-activity-activities", "mtk-tablet-android13-asleep-camera-resumed-brace-quirk.txt"),
    },
  });
  const capture = await observerOf(dev).captureTree({ timeoutMs: 5000 });
  assert.equal(capture.foregroundPackage, "com.mediatek.camera");
  assert.ok(dev.commands().includes("shell dumpsys window windows"));
});

test("keyboard: hidden per dumpsys input_method even when the IME window keeps stale insets", { skip }, async () => {
  const dev = device({
    "shell dumpsys input_method": { stdout: sample("dumpsys-input-method", "mtk-tablet-android13-latinime-hidden-noninteractive.txt") },
    "shell dumpsys window InputMethod": {
      stdout: sample("dumpsys-window", "windows-InputMethod-window-pixelxl-profile-ime-hidden-excerpt.txt"),
    },
  });
  assert.deepEqual((await observerOf(dev).captureTree({ timeoutMs: 5000 })).keyboard, { open: false });
});

test(
  "screenContext: geometry, keyboard and foreground in one adb process; the foreground's fallbacks only where needed",
  { skip },
  async () => {
    const dev = device();
    const context = await observerOf(dev).screenContext({ timeoutMs: 5000 });
    assert.deepEqual(context, {
      screen: { width: 1080, height: 2400, density: 420 },
      keyboard: { open: true },
      foregroundPackage: "com.android.settings",
    });
    assert.equal(dev.runner.calls.filter((c) => c.args[0] === "-s").length, 1, dev.commands().join("\n"));
    assert.equal(dev.count("shell wm size") + dev.count("shell dumpsys window displays"), 2);
    const old = device({
      "shell dumpsys window displays": { stdout: "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n" },
      "shell dumpsys window windows": { stdout: sample("dumpsys-window", "windows-android13-appium-android-driver-fixture.txt") },
      "shell dumpsys activity activities": {
        stdout: sample("dumpsys-activity-activities", "mtk-tablet-android13-asleep-camera-resumed-brace-quirk.txt"),
      },
    });
    assert.equal((await observerOf(old).screenContext({ timeoutMs: 5000 })).foregroundPackage, "com.mediatek.camera");
    assert.deepEqual([old.count("shell dumpsys window displays"), old.count("shell dumpsys window windows")], [1, 1]);
    const odd = device({ "shell wm density": { stdout: `Physical density: 420\n${SECTION_MARKER}\n` } });
    assert.equal((await rejection(observerOf(odd).screenContext({ timeoutMs: 5000 }))).code, "EMULATOR_UNAVAILABLE");
  },
);

test("status: udid, model, API level, screen, foreground and keyboard", { skip }, async () => {
  const dev = device();
  const status = await observerOf(dev).status({ timeoutMs: 5000 });
  // The selection, three getprops and the five facts in one shell: five adb processes.
  assert.equal(dev.runner.calls.length, 5, dev.commands().join("\n"));
  assert.deepEqual(status, {
    udid: "emulator-5554",
    online: true,
    model: "Pixel 7",
    api_level: 35,
    screen: { width: 1080, height: 2400, density: 420 },
    foreground_package: "com.android.settings",
    keyboard_open: true,
  });
});

test("status: wm density refused falls back to ro.sf.lcd_density", { skip }, async () => {
  const dev = device({
    "shell wm density": { stdout: "Exception occurred while executing 'density':\n" },
    "shell getprop ro.sf.lcd_density": { stdout: "440\n" },
  });
  assert.equal((await observerOf(dev).status({ timeoutMs: 5000 })).screen.density, 440);
});

test("listPackages: -3 unless include_system, case-insensitive filter, sorted", { skip }, async () => {
  const dev = device();
  const observer = observerOf(dev);
  assert.deepEqual(await observer.listPackages({ includeSystem: false }, { timeoutMs: 5000 }), [
    "com.example.a",
    "com.example.b",
    "org.other",
  ]);
  assert.deepEqual(await observer.listPackages({ includeSystem: false, filter: "EXAMPLE" }, { timeoutMs: 5000 }), [
    "com.example.a",
    "com.example.b",
  ]);
  assert.deepEqual(await observer.listPackages({ includeSystem: true }, { timeoutMs: 5000 }), ["com.android.settings", "com.example.a"]);
  assert.ok(dev.commands().includes("shell pm list packages -3"));
});

test("screenshot: exec-out screencap -p bytes; screencap's complaint is EVIDENCE_WRITE_FAILED, a cut PNG EMULATOR_UNAVAILABLE (R9)", {
  skip,
}, async () => {
  const png = await observerOf(device()).screenshot({ timeoutMs: 5000 });
  assert.deepEqual([...png], [...FAKE_PNG]);
  const empty = device({ "exec-out screencap -p": { exitCode: 1, stdout: "", stderr: "screencap: failed\n" } });
  assert.equal((await rejection(observerOf(empty).screenshot({ timeoutMs: 5000 }))).code, "EVIDENCE_WRITE_FAILED");
  const complaint = device({ "exec-out screencap -p": { stdout: "Error: failed to take screenshot\n" } });
  assert.match((await rejection(observerOf(complaint).screenshot({ timeoutMs: 5000 }))).message, /failed to take screenshot/);
  for (const cut of [FAKE_PNG.subarray(0, 3), FAKE_PNG.subarray(0, 40), FAKE_PNG.subarray(0, FAKE_PNG.length - 1), new Uint8Array()]) {
    const error = await rejection(observerOf(device({ "exec-out screencap -p": { stdout: cut } })).screenshot({ timeoutMs: 5000 }));
    assert.equal(error.code, "EMULATOR_UNAVAILABLE", `${cut.length} bytes: ${error.message}`);
    assert.match(error.message, new RegExp(`ended after ${cut.length} bytes`));
  }
});

test("a shell read whose stream ended before its end marker is EMULATOR_UNAVAILABLE, never a half answer (R8)", { skip }, async () => {
  const cut = device({ "shell pm list packages": { stdout: "package:com.android.settings\npackage:com.exa", cut: true } });
  const error = await rejection(observerOf(cut).listPackages({ includeSystem: true }, { timeoutMs: 5000 }));
  assert.equal(error.code, "EMULATOR_UNAVAILABLE");
  assert.match(error.message, /in the middle of 'adb shell pm list packages'/);
  assert.doesNotMatch(error.message, /com\.exa/);
});

test("resolveDevice: a call's device, else ANDROID_UDID listed and online; several online and none bound is refused; devices lists them", {
  skip,
}, async () => {
  assert.equal(await observerOf(device(), "emulator-5554").resolveDevice({ timeoutMs: 1000 }).then((r) => r.udid), "emulator-5554");
  const missing = await rejection(observerOf(device(), "emulator-9999").resolveDevice({ timeoutMs: 1000 }).then((r) => r.udid));
  assert.equal(missing.code, "EMULATOR_UNAVAILABLE");
  const two = device({ "devices -l": { stdout: "List of devices attached\nemulator-5554\tdevice\nemulator-5556\tdevice\n" } });
  assert.match(
    (await rejection(observerOf(two).resolveDevice({ timeoutMs: 1000 }).then((r) => r.udid))).message,
    /none bound: pass "device"/,
  );
  assert.equal(
    await observerOf(two).resolveDevice({ timeoutMs: 1000, device: "emulator-5556" }).then((r) => r.udid),
    "emulator-5556",
    "a call's device",
  );
  assert.equal(
    await observerOf(two, "emulator-5554").resolveDevice({ timeoutMs: 1000, device: "emulator-5556" }).then((r) => r.udid),
    "emulator-5556",
  );
  assert.deepEqual(await observerOf(two).devices({ timeoutMs: 1000 }), {
    online: [{ udid: "emulator-5554", model: "" }, { udid: "emulator-5556", model: "" }],
    default: null,
  });
  assert.equal((await observerOf(two, "emulator-5556").devices({ timeoutMs: 1000 })).default, "emulator-5556", "the bound device");
  assert.equal((await observerOf(two, "emulator-5556").bind("emulator-5554").devices({ timeoutMs: 1000 })).default, "emulator-5556");
});
