/**
 * The simulator's latency profile (src/sim/latency.ts): "none" adds nothing, "device" holds each answer for the
 * figure docs/simulated-device.md gives (page source growing with its size, screencap, input, a new session), and
 * the waits run on the injected clock: an answer does not arrive before the test's fake clock lets it go.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { HarnessError } from "../../src/errors.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEVICE_FIGURES, latencyProfile, type SimClock, startSimDevice } from "../../src/sim/mod.ts";
import { APPIUM_NEW_SESSION } from "../../src/sim/latency.ts"; // internal: the sim's public entry does not name it
import { adb, NO_ADB } from "./adb_cli.ts";

/** A clock whose sleeps wait until the test releases them, and say how long they asked for. */
function heldClock(): SimClock & { pending: { ms: number; release: () => void }[] } {
  const pending: { ms: number; release: () => void }[] = [];
  return { pending, sleep: (ms) => new Promise<void>((release) => pending.push({ ms, release })) };
}

/** Resolves with the next held sleep once the sim asks for it (turns of the event loop, no wall-clock bound). */
async function nextSleep(clock: ReturnType<typeof heldClock>): Promise<{ ms: number; release: () => void }> {
  while (clock.pending.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
  return clock.pending.shift()!;
}

test("profiles: none adds nothing, device grows with the page source's size, an unknown name is INVALID_ARGUMENT", () => {
  const none = latencyProfile("none");
  assert.equal(none.uia2Request("get page source", 500_000), 0);
  assert.equal(none.adbCommand("screencap -p", 2_000_000), 0);
  const device = latencyProfile("device");
  const small = device.uia2Request("get page source", 10_000), large = device.uia2Request("get page source", 200_000);
  assert.ok(large > small + 400, `${small} ms for 10 KB, ${large} ms for 200 KB`);
  assert.equal(device.uia2Request("get page source", 54_619), 212, "the published figure: 212 ms for a 54,619-byte source");
  assert.ok(device.adbCommand("uiautomator dump /dev/tty", 100_000) > device.adbCommand("uiautomator dump /dev/tty", 10_000));
  assert.equal(device.adbCommand("input tap 540 1200", 0), DEVICE_FIGURES.adbShell + DEVICE_FIGURES.input);
  // A session on a running UiAutomator2 server is the server's own work; with no instrumentation running the sim
  // stands in for Appium and charges its whole session start.
  assert.equal(device.uia2Request("new session", 900), DEVICE_FIGURES.uia2Transport + DEVICE_FIGURES.newSession);
  assert.ok(device.uia2Request("new session", 900) < 1000);
  assert.equal(device.uia2Request(APPIUM_NEW_SESSION, 900), DEVICE_FIGURES.appiumSessionStart);
  // Commands joined in one shell: one round trip, each command's own device time (an echo adds none).
  const f = DEVICE_FIGURES;
  assert.equal(
    device.adbCommand("wm size ; echo __android_mcp_next ; dumpsys window displays ; echo __android_mcp_end:$?", 0),
    f.adbShell + (f.wm - f.adbShell) + (f.dumpsys - f.adbShell),
  );
  assert.equal(device.adbCommand("dumpsys window displays ; echo __android_mcp_end:$?", 0), f.dumpsys);
  // The mobile: commands the Appium driver answers with its own `adb shell dumpsys`.
  assert.equal(device.uia2Request("execute script mobile: isKeyboardShown", 20), f.uia2Transport + f.dumpsys);
  assert.equal(device.uia2Request("execute script mobile: pressKey", 20), f.uia2Transport);
  // A click's own events (TYPE_VIEW_CLICKED, what it opens) keep the UI busy for the quiet period, and
  // UiAutomator2 waits for idle after the click (Click.java) before it answers.
  assert.equal(device.uia2Request("click", 0), f.uia2Transport + f.clickQuiet);
  assert.equal(f.clickQuiet, 500);
  assert.throws(
    () => latencyProfile("slow"),
    (e: unknown) => e instanceof HarnessError && e.code === "INVALID_ARGUMENT" && /none, device/.test(e.message),
  );
});

test("with the device profile a UiAutomator2 answer waits on the sim's clock for its figure (no instrumentation: Appium's start)", async () => {
  const clock = heldClock();
  const sim = await startSimDevice({ latency: "device", clock });
  try {
    let answered = false;
    const created = fetch(`${sim.appiumUrl}/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ capabilities: { alwaysMatch: { platformName: "Android" } } }),
    }).then(async (r) => {
      answered = true;
      return (await r.json()) as { value: { sessionId: string } };
    });
    const sessionWait = await nextSleep(clock);
    assert.equal(sessionWait.ms, DEVICE_FIGURES.appiumSessionStart, "no instrumentation runs: the sim stands in for Appium");
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(answered, false, "no answer before the clock lets it go");
    sessionWait.release();
    const { sessionId } = (await created).value;

    const source = fetch(`${sim.appiumUrl}/session/${sessionId}/source`).then((r) => r.text());
    const sourceWait = await nextSleep(clock);
    sourceWait.release();
    const bytes = (await source).length;
    assert.equal(sourceWait.ms, latencyProfile("device").uia2Request("get page source", bytes));
    assert.ok(sourceWait.ms > DEVICE_FIGURES.pageSourceBase, `${sourceWait.ms} ms for ${bytes} bytes`);
  } finally {
    for (const held of clock.pending) held.release();
    await sim.stop();
  }
});

test("with the device profile an adb command waits on the sim's clock: screencap, input, wm", { skip: NO_ADB }, async () => {
  const clock = heldClock();
  const sim = await startSimDevice({ latency: "device", clock });
  try {
    const cases: [string[], number][] = [
      [["exec-out", "screencap", "-p"], DEVICE_FIGURES.adbShell + DEVICE_FIGURES.screencap],
      [["shell", "input", "keyevent", "4"], DEVICE_FIGURES.adbShell + DEVICE_FIGURES.input],
      [["shell", "wm", "size"], DEVICE_FIGURES.wm],
      [["exec-out", "uiautomator", "dump", "/dev/tty"], -1], // grows with the dump: checked below
    ];
    for (const [args, expected] of cases) {
      const run = adb(sim.adbServerSocket, args, { timeoutMs: 60_000 });
      const wait = await nextSleep(clock);
      wait.release();
      const done = await run;
      assert.equal(done.code, 0, args.join(" "));
      const dumpMs = latencyProfile("device").adbCommand("uiautomator dump /dev/tty", done.stdout.length);
      assert.equal(wait.ms, expected === -1 ? dumpMs : expected, args.join(" "));
    }
  } finally {
    for (const held of clock.pending) held.release();
    await sim.stop();
  }
});

test("without a profile nothing waits: the clock is never asked", async () => {
  const clock = heldClock();
  const sim = await startSimDevice({ clock });
  try {
    const status = await fetch(`${sim.appiumUrl}/status`);
    assert.equal(status.status, 200);
    assert.equal(clock.pending.length, 0);
  } finally {
    await sim.stop();
  }
});

/** Releases every sleep the sim asks for until `run` settles; returns the figures asked, in order. */
async function releaseUntil<T>(clock: ReturnType<typeof heldClock>, run: Promise<T>): Promise<{ result: T; waits: number[] }> {
  const waits: number[] = [];
  let done = false;
  const settled = run.finally(() => (done = true));
  while (!done) {
    const held = clock.pending.shift();
    if (held === undefined) await new Promise((resolve) => setTimeout(resolve, 2));
    else {
      waits.push(held.ms);
      held.release();
    }
  }
  return { result: await settled, waits };
}

test("the device profile's APK install grows with the bytes streamed over adb", () => {
  const device = latencyProfile("device");
  const f = DEVICE_FIGURES;
  const server = device.apkInstall(18_000_000), testApk = device.apkInstall(197_000);
  assert.equal(testApk, f.apkInstallBase + Math.round(197_000 / f.apkBytesPerMs));
  assert.ok(server - testApk >= 700, `18 MB: ${server} ms, 197 KB: ${testApk} ms`);
  assert.equal(latencyProfile("none").apkInstall(18_000_000), 0);
});

test("with the device profile a streamed adb install waits for its bytes on the sim's clock", { skip: NO_ADB }, async () => {
  const clock = heldClock();
  const sim = await startSimDevice({ latency: "device", clock });
  const dir = mkdtempSync(join(tmpdir(), "lat-apk-"));
  try {
    const installed: number[] = [];
    for (const bytes of [100_000, 3_000_000]) {
      const apk = join(dir, `a${bytes}.apk`);
      writeFileSync(apk, Buffer.alloc(bytes, 1));
      const { result, waits } = await releaseUntil(clock, adb(sim.adbServerSocket, ["install", apk], { timeoutMs: 60_000 }));
      assert.equal(result.code, 0, result.stderr);
      assert.ok(waits.includes(latencyProfile("device").apkInstall(bytes)), `waits ${waits.join(", ")} for ${bytes} bytes`);
      installed.push(waits.reduce((a, b) => a + b, 0));
    }
    assert.ok(installed[1]! - installed[0]! >= (3_000_000 - 100_000) / DEVICE_FIGURES.apkBytesPerMs - 1, installed.join(" < "));
  } finally {
    for (const held of clock.pending) held.release();
    rmSync(dir, { recursive: true, force: true });
    await sim.stop();
  }
});

test(
  "with the device profile the instrumentation start is charged once, then sessions on its server are short",
  { skip: NO_ADB },
  async () => {
    const clock = heldClock();
    const sim = await startSimDevice({ latency: "device", clock });
    const target = "io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner";
    const instrument = adb(sim.adbServerSocket, ["shell", "am", "instrument", "-w", target], { timeoutMs: 60_000 });
    try {
      const shellWait = await nextSleep(clock);
      assert.equal(shellWait.ms, DEVICE_FIGURES.adbShell);
      shellWait.release();
      const startWait = await nextSleep(clock);
      assert.equal(startWait.ms, DEVICE_FIGURES.instrumentationStart);
      assert.equal(sim.device.uia2Instrumented, false, "the server does not answer before its instrumentation started");
      startWait.release();
      while (!sim.device.uia2Instrumented) await new Promise((resolve) => setTimeout(resolve, 2));

      const sessionWaits: number[] = [];
      for (let i = 0; i < 2; i++) {
        const created = fetch(`${sim.appiumUrl}/session`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ capabilities: { alwaysMatch: { platformName: "Android" } } }),
        }).then((r) => r.json() as Promise<{ value: { sessionId: string } }>);
        const { result, waits } = await releaseUntil(clock, created);
        sessionWaits.push(...waits);
        // Ending the first session would quit the server (uia2 server.ts); keep both, as a warm driver keeps one.
        assert.ok(result.value.sessionId !== "");
      }
      const short = DEVICE_FIGURES.uia2Transport + DEVICE_FIGURES.newSession;
      assert.deepEqual(sessionWaits, [short, short], "each session on the running server: the short figure, no second start");
      assert.ok(short < 1000);
    } finally {
      const stop = adb(sim.adbServerSocket, ["shell", "am", "force-stop", "io.appium.uiautomator2.server"], { timeoutMs: 60_000 });
      await releaseUntil(clock, Promise.all([stop, instrument]));
      for (const held of clock.pending) held.release();
      await sim.stop();
    }
  },
);
