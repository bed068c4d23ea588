/**
 * The fake adb server spoken to by the REAL adb client (Debian adb 29) through ADB_SERVER_SOCKET:
 * host services, shell v2 and legacy, exec-out (binary safe), pull/push, forward, kill-server, and the
 * real error texts. Each test starts its own server on port 0 and stops it in `finally`.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import UPNG from "upng-js";
import type { HarnessError } from "../../src/errors.ts";
import { parseDump } from "../../src/screen/mod.ts";
import { type AdbServer, startAdbServer } from "../../src/sim/adb/server.ts";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import type { Scenario } from "../../src/sim/scenario/types.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { startUia2Server } from "../../src/sim/uia2/server.ts";
import { ADB, adb, NO_ADB, text } from "./adb_cli.ts";
import { assertEndedByDeadline } from "../support/time_bounds.ts";

const skip = NO_ADB;

function makeDevice(name = "settings", change: (s: Scenario) => void = () => {}): ScenarioDevice {
  const scenario = structuredClone(resolveScenario(name));
  change(scenario);
  return new ScenarioDevice(scenario);
}

async function withServer(devices: ScenarioDevice[], body: (server: AdbServer) => Promise<void>, devicePorts?: Record<number, number>) {
  const server = await startAdbServer(devices, devicePorts === undefined ? {} : { devicePorts });
  try {
    await body(server);
  } finally {
    await server.stop();
  }
}

test("devices and devices -l list the device in the real server's format", { skip }, async () => {
  await withServer([makeDevice()], async (s) => {
    const plain = await adb(s.socketSpec, ["devices"]);
    assert.equal(plain.code, 0);
    assert.equal(text(plain), "List of devices attached\nemulator-5554\tdevice\n\n");
    const long = await adb(s.socketSpec, ["devices", "-l"]);
    assert.equal(
      text(long),
      "List of devices attached\nemulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa transport_id:1\n\n",
    );
    const state = await adb(s.socketSpec, ["-s", "emulator-5554", "get-state"]);
    assert.equal(text(state), "device\n");
  });
});

test("shell v2: output, exit codes and the device shell's error for an unknown program", { skip }, async () => {
  await withServer([makeDevice()], async (s) => {
    assert.equal(text(await adb(s.socketSpec, ["shell", "wm", "size"])), "Physical size: 1080x2400\n");
    assert.equal(text(await adb(s.socketSpec, ["shell", "wm", "density"])), "Physical density: 420\n");
    assert.equal(text(await adb(s.socketSpec, ["shell", "getprop", "ro.build.version.sdk"])), "35\n");
    assert.equal(text(await adb(s.socketSpec, ["shell", "getprop", "sys.boot_completed"])), "1\n");
    const all = text(await adb(s.socketSpec, ["shell", "getprop"]));
    assert.match(all, /^\[dev\.bootcomplete\]: \[1\]\n/);
    assert.match(all, /\n\[ro\.product\.model\]: \[sdk_gphone64_x86_64\]\n/);
    assert.equal(text(await adb(s.socketSpec, ["shell", "getprop", "ro.android_mcp_harness.simulated"])), "1\n");
    const unknown = await adb(s.socketSpec, ["shell", "nosuchcmd"]);
    assert.equal(unknown.code, 127);
    assert.equal(unknown.stderr, "/system/bin/sh: nosuchcmd: inaccessible or not found\n");
    assert.equal(text(unknown), "");
    assert.equal((await adb(s.socketSpec, ["shell", "false"])).code, 1);
  });
});

test("bootCompleted: false: a device still booting has no sys.boot_completed (empty line), its boot animation runs; true again: 1", {
  skip,
}, async () => {
  const device = makeDevice();
  device.setFaults({ bootCompleted: false });
  await withServer([device], async (s) => {
    assert.equal(text(await adb(s.socketSpec, ["shell", "getprop", "sys.boot_completed"])), "\n");
    const all = text(await adb(s.socketSpec, ["shell", "getprop"]));
    assert.doesNotMatch(all, /boot_?complete/);
    assert.match(all, /\n\[init\.svc\.bootanim\]: \[running\]\n/);
    device.setFaults({ bootCompleted: true });
    assert.equal(text(await adb(s.socketSpec, ["shell", "getprop", "sys.boot_completed"])), "1\n");
  });
});

test("legacy shell (device without shell_v2): exit code 0 and stderr merged into stdout", { skip }, async () => {
  const device = makeDevice("settings", (sc) => void (sc.android.adbFeatures = ["cmd", "stat_v2"]));
  await withServer([device], async (s) => {
    const run = await adb(s.socketSpec, ["shell", "nosuchcmd"]);
    assert.equal(run.code, 0);
    assert.equal(text(run), "/system/bin/sh: nosuchcmd: inaccessible or not found\n");
    assert.ok(device.log.some((l) => l.command === "nosuchcmd"));
  });
});

test("exec-out screencap -p is binary safe: the PNG decodes to the device's own pixels", { skip }, async () => {
  const device = makeDevice();
  await withServer([device], async (s) => {
    const run = await adb(s.socketSpec, ["exec-out", "screencap", "-p"]);
    assert.equal(run.code, 0);
    const got = UPNG.decode(new Uint8Array(run.stdout).buffer);
    const want = UPNG.decode(device.screenshotPng().buffer as ArrayBuffer);
    assert.equal(got.width, 1080);
    assert.equal(got.height, 2400);
    assert.deepEqual(new Uint8Array(UPNG.toRGBA8(got)[0]!), new Uint8Array(UPNG.toRGBA8(want)[0]!));
    assert.ok(device.log.some((l) => l.command === "screencap '-p'"), "exec-out quotes every argument after the first");
  });
});

test("exec-out uiautomator dump /dev/tty returns the XML glued to the real trailer", { skip }, async () => {
  const device = makeDevice();
  await withServer([device], async (s) => {
    const run = await adb(s.socketSpec, ["exec-out", "uiautomator", "dump", "/dev/tty"]);
    assert.equal(text(run), `${device.hierarchyXml()}UI hierchary dumped to: /dev/tty\n`);
  });
});

test("uiautomator dump to the default path, then pull it; a missing file fails like the real client says", { skip }, async () => {
  const device = makeDevice();
  const dir = mkdtempSync(join(tmpdir(), "simadb-"));
  try {
    await withServer([device], async (s) => {
      assert.equal(text(await adb(s.socketSpec, ["shell", "uiautomator", "dump"])), "UI hierchary dumped to: /sdcard/window_dump.xml\n");
      const pulled = await adb(s.socketSpec, ["pull", "/sdcard/window_dump.xml", join(dir, "wd.xml")]);
      assert.equal(pulled.code, 0, pulled.stderr);
      assert.equal(readFileSync(join(dir, "wd.xml"), "utf8"), device.hierarchyXml());
      const missing = await adb(s.socketSpec, ["pull", "/sdcard/nope.xml", join(dir, "nope.xml")]);
      assert.equal(missing.code, 1);
      // adb 29 prints this one on stdout, from the STA2 reply's ENOENT.
      assert.equal(
        text(missing) + missing.stderr,
        "adb: error: failed to stat remote object '/sdcard/nope.xml': No such file or directory\n",
      );
      writeFileSync(join(dir, "up.txt"), "hello device\n");
      const pushed = await adb(s.socketSpec, ["push", join(dir, "up.txt"), "/data/local/tmp/up.txt"]);
      assert.equal(pushed.code, 0, pushed.stderr);
      assert.equal(text(await adb(s.socketSpec, ["shell", "cat", "/data/local/tmp/up.txt"])), "hello device\n");
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("forward listens locally and tunnels to the device-side port; --list and --remove work", { skip }, async () => {
  const echo = createServer((c) => c.pipe(c));
  await new Promise<void>((r) => echo.listen(0, "127.0.0.1", () => r()));
  const echoPort = (echo.address() as { port: number }).port;
  try {
    await withServer([makeDevice()], async (s) => {
      const fwd = await adb(s.socketSpec, ["forward", "tcp:0", "tcp:6790"]);
      assert.equal(fwd.code, 0, fwd.stderr);
      const port = Number(text(fwd).trim());
      assert.ok(port > 0);
      assert.equal(text(await adb(s.socketSpec, ["forward", "--list"])), `emulator-5554 tcp:${port} tcp:6790\n\n`); // the client adds a newline, as with the real server
      const reply = await new Promise<string>((resolve, reject) => {
        const c = createConnection({ host: "127.0.0.1", port }, () => c.write("ping"));
        c.on("data", (d: Buffer) => {
          resolve(d.toString());
          c.destroy();
        });
        c.on("error", reject);
      });
      assert.equal(reply, "ping");
      assert.equal((await adb(s.socketSpec, ["forward", "--remove", `tcp:${port}`])).code, 0);
      const again = await adb(s.socketSpec, ["forward", "--remove", `tcp:${port}`]);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /listener 'tcp:\d+' not found/);
    }, { 6790: echoPort });
  } finally {
    echo.close();
  }
});

test("kill-server is acknowledged and the fake keeps serving", { skip }, async () => {
  await withServer([makeDevice()], async (s) => {
    const kill = await adb(s.socketSpec, ["kill-server"]);
    assert.equal(kill.code, 0);
    assert.equal(s.killRequests, 1);
    assert.equal(text(await adb(s.socketSpec, ["get-state"])), "device\n");
  });
});

test("error texts: unknown serial, more than one device, none, offline, unauthorized", { skip }, async () => {
  await withServer([makeDevice()], async (s) => {
    const unknown = await adb(s.socketSpec, ["-s", "emulator-5555", "shell", "echo", "hi"]);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, "error: device 'emulator-5555' not found\n");
    const execOut = await adb(s.socketSpec, ["-s", "emulator-5555", "exec-out", "screencap", "-p"]);
    assert.equal(execOut.code, 255);
    assert.match(execOut.stderr, /device 'emulator-5555' not found/);
  });
  const second = makeDevice("settings", (sc) => void (sc.android.serial = "emulator-5556"));
  await withServer([makeDevice(), second], async (s) => {
    const many = await adb(s.socketSpec, ["shell", "echo", "hi"]);
    assert.equal(many.code, 1);
    assert.equal(many.stderr, "error: more than one device/emulator\n");
    assert.equal(text(await adb(s.socketSpec, ["-s", "emulator-5556", "shell", "echo", "hi"])), "hi\n");
  });
  await withServer([], async (s) => {
    const none = await adb(s.socketSpec, ["shell", "echo", "hi"]);
    assert.equal(none.stderr, "error: no devices/emulators found\n");
  });
  await withServer([makeDevice("settings", (sc) => void (sc.faults = { state: "offline" }))], async (s) => {
    assert.equal(text(await adb(s.socketSpec, ["devices"])), "List of devices attached\nemulator-5554\toffline\n\n");
    const offline = await adb(s.socketSpec, ["shell", "echo", "hi"]);
    assert.equal(offline.code, 1);
    assert.equal(offline.stderr, "error: device offline\n");
    assert.equal((await adb(s.socketSpec, ["get-state"])).stderr, "error: device offline\n");
  });
  await withServer([makeDevice("settings", (sc) => void (sc.faults = { state: "unauthorized" }))], async (s) => {
    assert.equal(text(await adb(s.socketSpec, ["devices"])), "List of devices attached\nemulator-5554\tunauthorized\n\n");
    const denied = await adb(s.socketSpec, ["shell", "echo", "hi"]);
    assert.equal(denied.code, 1);
    assert.equal(
      denied.stderr,
      "error: device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\nTry 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device.\n",
    );
  });
});

test("shell edge cases: a bad grep -E pattern is grep's error (exit 2) and the connection survives; `2> /dev/null` drops its target", {
  skip,
}, async () => {
  await withServer([makeDevice()], async (s) => {
    const bad = await adb(s.socketSpec, ["shell", "dumpsys window | grep -E '('"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^grep: bad regex '\(': .+\n$/);
    assert.doesNotMatch(bad.stderr, /protocol fault/);
    const spaced = await adb(s.socketSpec, ["shell", "echo hi 2> /dev/null"]);
    assert.equal(text(spaced), "hi\n");
    // Stdout sent to a file is written there (the device lock's note), not printed.
    assert.equal(text(await adb(s.socketSpec, ["shell", "echo a > /sdcard/out.txt ; echo b >> /sdcard/out.txt"])), "");
    assert.equal(text(await adb(s.socketSpec, ["shell", "cat /sdcard/out.txt"])), "a\nb\n");
    const nowhere = await adb(s.socketSpec, ["shell", "echo a > /nowhere/out.txt"]);
    assert.equal(nowhere.stderr, "/system/bin/sh: can't create /nowhere/out.txt: No such file or directory\n");
  });
});

test("mkdir is atomic as toybox's: a second mkdir of one directory fails with `File exists`; rmdir and rm -r remove it", {
  skip,
}, async () => {
  await withServer([makeDevice()], async (s) => {
    const dir = "/data/local/tmp/lockdir";
    assert.equal((await adb(s.socketSpec, ["shell", `mkdir ${dir}`])).code, 0);
    const again = await adb(s.socketSpec, ["shell", `mkdir ${dir} && echo won`]);
    assert.equal(again.code, 1);
    assert.equal(again.stderr, `mkdir: '${dir}': File exists\n`);
    assert.equal(text(again), "");
    assert.equal((await adb(s.socketSpec, ["shell", `mkdir -p ${dir}/a/b`])).code, 0, "-p: no error for what exists");
    assert.equal((await adb(s.socketSpec, ["shell", `rmdir ${dir}`])).stderr, `rmdir: ${dir}: Directory not empty\n`);
    assert.equal((await adb(s.socketSpec, ["shell", `mkdir /data/nope/x`])).stderr, "mkdir: '/data/nope/x': No such file or directory\n");
    await adb(s.socketSpec, ["shell", `echo note > ${dir}/holder`]);
    assert.equal(
      text(await adb(s.socketSpec, ["shell", `cat ${dir}/holder | grep -c note && rm -r ${dir} ; mkdir ${dir} && echo won`])),
      "1\nwon\n",
    );
    assert.equal((await adb(s.socketSpec, ["shell", `rmdir ${dir}`])).code, 0);
    assert.equal((await adb(s.socketSpec, ["shell", `ls ${dir}`])).code, 1);
  });
});

test("forward to a port out of range is refused with the real server's text, not Node's", { skip }, async () => {
  await withServer([makeDevice()], async (s) => {
    const run = await adb(s.socketSpec, ["forward", "tcp:70000", "tcp:6790"]);
    assert.equal(run.code, 1);
    assert.equal(run.stderr, "adb: error: cannot bind listener: bad port number '70000'\n");
    const privileged = process.getuid?.() === 0 ? null : await adb(s.socketSpec, ["forward", "tcp:1", "tcp:6790"]);
    if (privileged !== null) assert.equal(privileged.stderr, "adb: error: cannot bind listener: Permission denied\n");
  });
});

test("adb shell without a command (interactive, or commands on stdin) is refused on stderr with exit 1", { skip }, async () => {
  await withServer([makeDevice()], async (s) => {
    const piped = await adb(s.socketSpec, ["shell"], { input: Buffer.from("getprop ro.build.version.sdk\n") });
    assert.equal(piped.code, 1);
    assert.equal(piped.stderr, "the simulated device has no interactive shell; run `adb shell <command>`\n");
    assert.equal(text(piped), "");
  });
});

test("exit N ends a command line with N; cd checks the directory like mksh", { skip }, async () => {
  await withServer([makeDevice()], async (s) => {
    const exited = await adb(s.socketSpec, ["shell", "echo one; exit 3; echo two"]);
    assert.equal(exited.code, 3);
    assert.equal(text(exited), "one\n");
    const cd = await adb(s.socketSpec, ["shell", "cd /data/local/tmp && echo in"]);
    assert.equal(text(cd), "in\n");
    const missing = await adb(s.socketSpec, ["shell", "cd /nope && echo in"]);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, "/system/bin/sh: cd: /nope: No such file or directory\n");
    assert.equal(text(missing), "");
  });
});

test("am instrument -w of the UiAutomator2 server ends only when a DELETE /session succeeds", { skip }, async () => {
  const device = makeDevice();
  const uia2 = await startUia2Server(device);
  try {
    await withServer([device], async (s) => {
      const env = { ...process.env, ADB_SERVER_SOCKET: s.socketSpec };
      const instrument = spawn(ADB!, [
        "shell",
        "am",
        "instrument",
        "-w",
        "io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner",
      ], { env, stdio: "ignore" });
      try {
        let ended = false;
        const exited = new Promise<number | null>((resolve) =>
          instrument.on("close", (code) => {
            ended = true;
            resolve(code);
          })
        );
        const call = async (method: string, path: string, body?: unknown) =>
          fetch(`${uia2.url}${path}`, {
            method,
            headers: { "content-type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
        const create = async () =>
          ((await (await call("POST", "/session", { capabilities: { alwaysMatch: {} } })).json()) as { value: { sessionId: string } }).value
            .sessionId;
        const stillRunning = async (why: string) => {
          await new Promise((r) => setTimeout(r, 150));
          assert.equal(ended, false, why);
          assert.match(text(await adb(s.socketSpec, ["shell", "ps"])), /io\.appium\.uiautomator2\.server\n/, why);
        };
        await stillRunning("am instrument -w stays open");
        const first = await create();
        device.setFaults({ uia2Error500: true });
        assert.equal((await call("DELETE", `/session/${first}`)).status, 500);
        device.setFaults({ uia2Error500: false });
        await stillRunning("a DELETE refused by the 500 fault");
        assert.equal((await call("DELETE", "/session/no-such-id")).status, 404);
        await stillRunning("a DELETE of an unknown id");
        const second = await create();
        assert.equal((await call("DELETE", `/session/${first}`)).status, 404);
        await stillRunning("a DELETE of a replaced (zombie) session");
        const started = Date.now();
        assert.equal((await call("DELETE", `/session/${second}`)).status, 200);
        assert.equal(await exited, 0);
        assertEndedByDeadline(Date.now() - started, 0, "the instrumentation ending on the DELETE of its last session");
        assert.doesNotMatch(text(await adb(s.socketSpec, ["shell", "ps"])), /io\.appium\.uiautomator2\.server/);
      } finally {
        instrument.kill("SIGKILL");
      }
    });
  } finally {
    await uia2.stop();
  }
});

test("offline mid-output: the client gets part of the output, no exit status, and then the device is offline", { skip }, async () => {
  const device = makeDevice();
  await withServer([device], async (s) => {
    const full = device.hierarchyXml();
    device.setFaults({ offlineAfterOutputBytes: 200 });
    const cut = await adb(s.socketSpec, ["shell", "uiautomator", "dump", "/dev/tty"]);
    assert.ok(cut.stdout.length <= 200, `got ${cut.stdout.length} bytes`);
    assert.ok(full.startsWith(cut.stdout.toString("utf8")), "the part that arrived is the start of the real output");
    // The real adb 29 client exits 0 when the stream ends without an exit packet: only the content shows
    // the cut, and the harness's parser refuses it rather than use half a screen.
    assert.throws(() => parseDump(cut.stdout.toString("utf8")), (e: unknown) => (e as HarnessError).code === "UI_TREE_UNAVAILABLE");
    const after = await adb(s.socketSpec, ["shell", "echo", "hi"]);
    assert.equal(after.code, 1);
    assert.match(after.stderr, /device offline/);
    device.setFaults({ state: "device" });
    assert.equal(text(await adb(s.socketSpec, ["shell", "echo", "hi"])), "hi\n");
  });
});

test("a push that does not fit in the device's storage fails with adbd's no-space text", { skip }, async () => {
  const device = makeDevice();
  const dir = mkdtempSync(join(tmpdir(), "simadb-"));
  try {
    writeFileSync(join(dir, "big.bin"), Buffer.alloc(device.files.capacity + 1));
    await withServer([device], async (s) => {
      const pushed = await adb(s.socketSpec, ["push", join(dir, "big.bin"), "/data/local/tmp/big.bin"], { timeoutMs: 30_000 });
      assert.equal(pushed.code, 1);
      assert.match(text(pushed) + pushed.stderr, /No space left on device/);
      assert.equal(device.files.has("/data/local/tmp/big.bin"), false);
      assert.equal(text(await adb(s.socketSpec, ["shell", "echo", "still", "here"])), "still here\n");
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
