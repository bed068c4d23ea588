/**
 * The sim's shell commands through the REAL adb client: dumpsys/pm/cmd outputs in real formats (and
 * read back by the harness's own adb parsers, a cross-check of both sides), `input`/`am`/`monkey`
 * acting on the device state, Appium's install/instrument/services traffic, the fault switches,
 * and the command log.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import UPNG from "upng-js";
import { parseResumedActivity } from "../../src/adapters/adb/parse_activities.ts";
import { foregroundPackageOf, parseImeWindow, parseWindowFocus } from "../../src/adapters/adb/parse_dumpsys_window.ts";
import { parseInputShown } from "../../src/adapters/adb/parse_input_method.ts";
import { parsePackageList, parseResolvedActivity } from "../../src/adapters/adb/parse_packages.ts";
import { type AdbServer, startAdbServer } from "../../src/sim/adb/server.ts";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { ADB, adb, NO_ADB, text } from "./adb_cli.ts";
import { holdsWithin, LOADED_WAIT_MS } from "../support/time_bounds.ts";

const skip = NO_ADB;

async function withDevice(name: string, body: (s: AdbServer, d: ScenarioDevice) => Promise<void>) {
  const device = new ScenarioDevice(resolveScenario(name));
  const server = await startAdbServer(device);
  try {
    await body(server, device);
  } finally {
    await server.stop();
  }
}

const sh = async (s: AdbServer, ...args: string[]) => text(await adb(s.socketSpec, ["shell", ...args]));

test("dumpsys window / input_method / activity, in real formats the harness parsers read", { skip }, async () => {
  await withDevice("login", async (s) => {
    const displays = await sh(s, "dumpsys", "window", "displays");
    assert.match(displays, /^ {2}mCurrentFocus=Window\{[0-9a-f]{7} u0 com\.example\.shop\/com\.example\.shop\.LoginActivity\}$/m);
    assert.equal(foregroundPackageOf(parseWindowFocus(displays)), "com.example.shop");
    const ime = parseImeWindow(await sh(s, "dumpsys", "window", "InputMethod"));
    assert.deepEqual(ime, { packageName: "com.google.android.inputmethod.latin", visible: true, top: 1517 });
    const im = await sh(s, "dumpsys", "input_method");
    assert.match(im, /^ {2}mInputShown=true$/m, "API 35 prints mInputShown on its own line");
    assert.equal(parseInputShown(im), true);
    const activities = await sh(s, "dumpsys", "activity", "activities");
    assert.equal(parseResumedActivity(activities)?.packageName, "com.example.shop");
    assert.match(activities, /^ {2}ResumedActivity: ActivityRecord\{[0-9a-f]{7} u0 com\.example\.shop\/\.LoginActivity t\d+\}$/m);
    await sh(s, "input", "keyevent", "KEYCODE_BACK");
    assert.equal(parseInputShown(await sh(s, "dumpsys", "input_method")), false);
    assert.equal(parseImeWindow(await sh(s, "dumpsys", "window", "windows"))?.visible, false);
  });
  await withDevice("flutter", async (s) => {
    const im = await sh(s, "dumpsys", "input_method");
    assert.match(im, /mShowRequested=false mShowExplicitlyRequested=false mShowForced=false mInputShown=false/, "API 33 layout");
  });
});

test("pm list packages (-3, -s), cmd package resolve-activity --brief", { skip }, async () => {
  await withDevice("launcher", async (s, d) => {
    const all = parsePackageList(await sh(s, "pm", "list", "packages"));
    assert.deepEqual(all, d.installedPackages().map((p) => p.name).sort());
    assert.deepEqual(parsePackageList(await sh(s, "pm", "list", "packages", "-3")), ["com.example.notes"]);
    assert.ok(!parsePackageList(await sh(s, "pm", "list", "packages", "-s")).includes("com.example.notes"));
    const resolved = await sh(s, "cmd", "package", "resolve-activity", "--brief", "com.example.notes");
    assert.equal(
      resolved,
      "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\ncom.example.notes/.MainActivity\n",
      "the short form, as AOSP flattenToShortString prints it",
    );
    assert.deepEqual(parseResolvedActivity(resolved), { packageName: "com.example.notes", activity: "com.example.notes.MainActivity" });
    assert.equal(await sh(s, "cmd", "package", "resolve-activity", "--brief", "com.nope"), "No activity found\n");
  });
});

test("input and am act on the device: tap, keyevent, am start, monkey, force-stop", { skip }, async () => {
  await withDevice("settings", async (s, d) => {
    await sh(s, "input", "tap", "540", "1100");
    assert.equal(d.screenId(), "apps");
    await sh(s, "input", "keyevent", "4");
    assert.equal(d.screenId(), "settings_home");
    await sh(s, "input", "swipe", "540", "1800", "540", "600", "300");
    assert.equal(d.screenId(), "settings_home_2");
    const started = await adb(s.socketSpec, [
      "shell",
      "am",
      "start",
      "-W",
      "-n",
      "com.google.android.deskclock/com.android.deskclock.DeskClock",
    ]);
    assert.equal(started.code, 0);
    assert.match(
      text(started),
      /^Starting: Intent \{ cmp=com\.google\.android\.deskclock\/com\.android\.deskclock\.DeskClock \}\nStatus: ok/,
    );
    const settings = await sh(s, "am", "start", "-W", "-n", "com.android.settings/.Settings");
    assert.match(settings, /^Activity: com\.android\.settings\/\.Settings$/m, "am start -W names the activity in its short form");
    await sh(s, "am", "start", "-n", "com.google.android.deskclock/com.android.deskclock.DeskClock");
    assert.equal(d.foregroundPackage(), "com.google.android.deskclock");
    const missing = await adb(s.socketSpec, ["shell", "am", "start", "-n", "com.nope/.Main"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Error: Activity class \{com\.nope\/\.Main\} does not exist\./);
    const monkey = await adb(s.socketSpec, ["shell", "monkey", "-p", "com.android.chrome", "-c", "android.intent.category.LAUNCHER", "1"]);
    assert.match(text(monkey), /Events injected: 1/);
    assert.equal(d.foregroundPackage(), "com.android.chrome");
    await sh(s, "am", "force-stop", "com.android.chrome");
    assert.equal(d.foregroundPackage(), "com.google.android.deskclock");
    const given = await adb(s.socketSpec, ["shell", "monkey", "-p", "com.android.chrome", "1"]);
    assert.match(
      text(given),
      /^ {2}bash arg: -p\n {2}bash arg: com\.android\.chrome\n {2}bash arg: 1\nargs: \[-p, com\.android\.chrome, 1\]\n/,
      "monkey echoes what was given, no -c it was not passed",
    );
    const noApp = await adb(s.socketSpec, ["shell", "monkey", "-p", "com.nope", "1"]);
    assert.equal(noApp.code, 252);
    assert.match(noApp.stderr, /No activities found to run, monkey aborted/);
  });
  await withDevice("login", async (s, d) => {
    await sh(s, "input", "text", "ana@example.com");
    assert.match(d.hierarchyXml(), /text="ana@example.com" resource-id="com.example.shop:id\/email"/);
  });
});

test("faults: dump errors print the real text and recover; blank screencap is one colour; a hang never answers", { skip }, async () => {
  await withDevice("settings", async (s, d) => {
    d.setFaults({ dumpError: { kind: "null root node", count: 1 } });
    const failed = await adb(s.socketSpec, ["exec-out", "uiautomator", "dump", "/dev/tty"]);
    assert.equal(failed.code, 0);
    assert.equal(text(failed), "ERROR: null root node returned by UiTestAutomationBridge.\n");
    assert.match(
      text(await adb(s.socketSpec, ["exec-out", "uiautomator", "dump", "/dev/tty"])),
      /<\/hierarchy>UI hierchary dumped to: \/dev\/tty\n$/,
    );
    d.setFaults({ dumpError: { kind: "could not get idle state", count: 1 } });
    assert.equal(await sh(s, "uiautomator", "dump"), "ERROR: could not get idle state.\n");

    d.setFaults({ blankScreencap: true });
    const png = UPNG.decode(new Uint8Array((await adb(s.socketSpec, ["exec-out", "screencap", "-p"])).stdout).buffer);
    const px = new Uint32Array(UPNG.toRGBA8(png)[0]!);
    assert.ok(px.every((v) => v === px[0]), "one colour");
    d.setFaults({ blankScreencap: false });

    d.setFaults({ hangCommands: ["dumpsys"] });
    const hung = await adb(s.socketSpec, ["shell", "dumpsys", "window"], { timeoutMs: 700 });
    assert.equal(hung.code, null, "killed by the timeout, not answered");
    d.setFaults({ hangCommands: [] });
    assert.equal(await sh(s, "echo", "alive"), "alive\n");
  });
});

test("offline mid-call: after N requests the device drops and adb reports it offline", { skip }, async () => {
  await withDevice("settings", async (s, d) => {
    d.setFaults({ offlineAfterRequests: 1 });
    assert.equal(await sh(s, "echo", "one"), "one\n");
    const dropped = await adb(s.socketSpec, ["shell", "echo", "two"]);
    assert.notEqual(dropped.code, 0);
    assert.equal(text(dropped), "");
    assert.equal(text(await adb(s.socketSpec, ["devices"])), "List of devices attached\nemulator-5554\toffline\n\n");
    assert.equal((await adb(s.socketSpec, ["shell", "echo", "three"])).stderr, "error: device offline\n");
  });
});

test(
  "Appium's traffic: streamed install, services check, instrumentation list, blocking am instrument ended by force-stop",
  { skip },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "simadb-apk-"));
    try {
      await withDevice("settings", async (s, d) => {
        const apk = join(dir, "settings_apk-debug.apk");
        writeFileSync(apk, Buffer.alloc(300_000, 7));
        const install = await adb(s.socketSpec, ["install", "-g", apk]);
        assert.equal(install.code, 0, install.stderr + text(install));
        assert.match(text(install), /Success/);
        assert.ok(d.log.some((l) => /^cmd package 'install' '-g' -S 300000$/.test(l.command)), JSON.stringify(d.log.slice(-3)));
        assert.match(await sh(s, "dumpsys", "activity", "services", "io.appium.settings"), /isForeground=true/);
        assert.match(
          await sh(s, "pm", "list", "instrumentation"),
          /^instrumentation:io\.appium\.uiautomator2\.server\.test\/androidx\.test\.runner\.AndroidJUnitRunner \(target=io\.appium\.uiautomator2\.server\)\n$/,
        );
        assert.equal(await sh(s, "settings", "get", "global", "hidden_api_policy"), "null\n");
        await sh(s, "settings", "put", "global", "hidden_api_policy", "1");
        assert.equal(await sh(s, "settings", "get", "global", "hidden_api_policy"), "1\n");
        assert.equal(await sh(s, "logcat", "-v", "threadtime"), "");

        const env = { ...process.env, ADB_SERVER_SOCKET: s.socketSpec };
        const instrument = spawn(ADB!, [
          "shell",
          "am",
          "instrument",
          "-w",
          "-e",
          "disableAnalytics",
          "true",
          "io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner",
        ], { env, stdio: "ignore" });
        try {
          const exited = new Promise<number | null>((resolve) => instrument.on("close", resolve));
          const early = await Promise.race([exited, new Promise((r) => setTimeout(() => r("running"), 500))]);
          assert.equal(early, "running", "am instrument -w stays open");
          assert.match(await sh(s, "ps", "-A"), /io\.appium\.uiautomator2\.server/);
          await sh(s, "am", "force-stop", "io.appium.uiautomator2.server.test");
          assert.equal(await exited, 0);
        } finally {
          instrument.kill("SIGKILL");
        }
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test("every adb command reaches device.log in order", { skip }, async () => {
  await withDevice("settings", async (s, d) => {
    await sh(s, "getprop", "ro.product.model");
    await adb(s.socketSpec, ["exec-out", "screencap", "-p"]);
    assert.deepEqual(d.log.map((l) => `${l.source}:${l.command}`), ["adb:getprop ro.product.model", "adb:screencap '-p'"]);
  });
});

test("am instrument -w ends when the UiAutomator2 server's session is deleted, as the real server process quits", { skip }, async () => {
  await withDevice("settings", async (s, d) => {
    const env = { ...process.env, ADB_SERVER_SOCKET: s.socketSpec };
    const instrument = spawn(ADB!, [
      "shell",
      "am",
      "instrument",
      "-w",
      "io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner",
    ], { env, stdio: "ignore" });
    try {
      const exited = new Promise<number | null>((resolve) => instrument.on("close", resolve));
      const serverRuns = async () => /io\.appium\.uiautomator2\.server\n/.test(await sh(s, "ps"));
      assert.ok(await holdsWithin(serverRuns, LOADED_WAIT_MS), "am instrument started the server process"); // not a guessed time
      d.uia2ServerQuit(); // what the UiAutomator2 server signals after a successful DELETE /session
      assert.equal(await exited, 0);
      assert.doesNotMatch(await sh(s, "ps"), /io\.appium\.uiautomator2\.server/);
    } finally {
      instrument.kill("SIGKILL");
    }
  });
});

test("wait-for-device returns once the device is online", { skip }, async () => {
  await withDevice("settings", async (s, d) => {
    d.setFaults({ state: "offline" });
    const waiting = adb(s.socketSpec, ["wait-for-device"], { timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    d.setFaults({ state: "device" });
    assert.equal((await waiting).code, 0);
  });
});

test("am start by action: android.settings.SETTINGS opens Settings, category HOME goes to the launcher", { skip }, async () => {
  await withDevice("launcher", async (s, d) => {
    d.launch("com.example.notes");
    const started = await adb(s.socketSpec, ["shell", "am", "start", "-W", "-a", "android.settings.SETTINGS"]);
    assert.equal(started.code, 0, started.stderr);
    assert.match(text(started), /^Starting: Intent \{ act=android\.settings\.SETTINGS \}\nStatus: ok\n/);
    assert.equal(d.screenId(), "settings_home");
    await sh(s, "am", "start", "-a", "android.intent.action.MAIN", "-c", "android.intent.category.HOME");
    assert.equal(d.screenId(), "home");
  });
});

test("what other clients ask (mobile-mcp 0.0.62's set) is answered as Android 15 does", { skip }, async () => {
  await withDevice("settings", async (s, d) => {
    const features = (await sh(s, "pm", "list", "features")).split("\n").filter((l) => l !== "");
    assert.equal(features[0], "feature:reqGlEsVersion=0x30000");
    assert.ok(features.every((l) => /^feature:[\w.]+(=\w+)?$/.test(l)), features.join("|"));
    assert.ok(features.includes("feature:android.hardware.touchscreen"));
    assert.equal(features.some((l) => /leanback|television/.test(l)), false, "a phone, not a TV");

    assert.equal(await sh(s, "settings", "get", "system", "user_rotation"), "0\n");
    assert.equal(await sh(s, "settings", "get", "system", "accelerometer_rotation"), "0\n");
    assert.equal(await sh(s, "settings", "get", "system", "no_such_key"), "null\n");
    await sh(s, "content", "insert", "--uri", "content://settings/system", "--bind", "name:s:user_rotation", "--bind", "value:i:1");
    assert.equal(await sh(s, "settings", "get", "system", "user_rotation"), "1\n", "content insert sets it");
    assert.equal(
      await sh(s, "content", "query", "--uri", "content://settings/system", "--where", "name='user_rotation'"),
      "Row: 0 name=user_rotation, value=1\n",
    );

    const launcher = await sh(
      s,
      "cmd",
      "package",
      "query-activities",
      "-a",
      "android.intent.action.MAIN",
      "-c",
      "android.intent.category.LAUNCHER",
    );
    const expected = d.launcherActivities();
    assert.match(
      launcher,
      new RegExp(
        `^${expected.length} activities found:\n  Activity #0:\n    priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n    ActivityInfo:\n      name=com\\.android\\.settings\\.Settings\n      packageName=com\\.android\\.settings\n`,
      ),
    );
    const packages = [
      ...new Set(launcher.split("\n").map((l) => l.trim()).filter((l) => l.startsWith("packageName=")).map((l) => l.slice(12))),
    ];
    assert.deepEqual(packages, expected.map((e) => e.package));
    assert.ok(packages.includes("com.android.chrome") && packages.includes("com.example.notes"));
    assert.equal(packages.includes("com.google.android.apps.nexuslauncher"), false, "the launcher is a HOME activity, not a LAUNCHER one");
    assert.equal(packages.includes("com.android.systemui"), false);
    assert.equal(
      await sh(
        s,
        "cmd",
        "package",
        "query-activities",
        "--components",
        "-a",
        "android.intent.action.MAIN",
        "-c",
        "android.intent.category.LAUNCHER",
        "com.example.notes",
      ),
      "com.example.notes/.MainActivity\n",
    );
    assert.equal(
      await sh(s, "cmd", "package", "query-activities", "-a", "android.intent.action.VIEW", "-c", "android.intent.category.BROWSABLE"),
      "No activities found\n",
    );
    assert.match(
      await sh(
        s,
        "cmd",
        "package",
        "query-activities",
        "--brief",
        "-a",
        "android.intent.action.MAIN",
        "-c",
        "android.intent.category.HOME",
      ),
      /^1 activities found:\n {2}Activity #0:\n {4}priority=0 .*\n {4}com\.google\.android\.apps\.nexuslauncher\/\.NexusLauncherActivity\n$/,
    );

    const surface = await sh(s, "dumpsys", "SurfaceFlinger", "--display-id");
    assert.equal(surface, 'Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName="EMU_display_0"\n');
    const displays = await sh(s, "cmd", "display", "get-displays");
    const lines = displays.split("\n").filter((l) => l.startsWith("Display id "));
    assert.equal(displays.split("\n")[0], "Displays:");
    assert.equal(lines.length, 1);
    assert.match(
      lines[0]!,
      /^Display id 0: DisplayInfo\{"Built-in Screen", displayId 0, .*, real 1080 x 2400, .*, state ON, .*, uniqueId "local:4619827259835644672", app 1080 x 2400, density 420 \(420\.0 x 420\.0\) dpi, .*\}, DisplayMetrics\{density=2\.625, width=1080, height=2400, .*\}, isValid=true$/,
    );
    assert.equal(await sh(s, "cmd", "display", "get-displays", "-i"), "0\n");
    assert.match(
      await sh(s, "dumpsys", "display"),
      /DisplayViewport\{type=INTERNAL[^}]*isActive=true[^}]*uniqueId='local:4619827259835644672'/,
    );

    assert.equal(await sh(s, "getprop", "ro.boot.qemu.avd_name"), "Medium_Phone_API_35\n");
    const shot = await adb(s.socketSpec, ["exec-out", "screencap", "-p", "-d", "4619827259835644672"]);
    assert.equal(shot.stdout.subarray(1, 4).toString("latin1"), "PNG", "screencap -d <the display's id> is that display");
    const wrong = await adb(s.socketSpec, ["shell", "screencap", "-p", "-d", "42"]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /Display id 42 is not valid/);
    const ps = (await sh(s, "ps", "-e")).split("\n").filter((l) => l.startsWith("u")).map((l) => l.trim().split(/\s+/)[8]);
    assert.ok(ps.includes(d.foregroundPackage()), "ps -e: the process name in column 9");
  });
  const real = new ScenarioDevice({
    ...resolveScenario("settings"),
    android: { ...resolveScenario("settings").android, serial: "R58M123ABC" },
  });
  const server = await startAdbServer(real);
  try {
    assert.equal(await sh(server, "getprop", "ro.boot.qemu.avd_name"), "\n", "no AVD name on a phone's serial");
  } finally {
    await server.stop();
  }
});

test("every app Settings lists opens its own App info page, whose Open launches the app (real adb input taps)", { skip }, async () => {
  await withDevice("settings", async (s, d) => {
    const centreOf = (label: string) => {
      const m = new RegExp(`text="${label}"[^>]*bounds="\\[(\\d+),(\\d+)\\]\\[(\\d+),(\\d+)\\]"`).exec(d.hierarchyXml());
      assert.ok(m, `"${label}" is on screen ${d.screenId()}`);
      return [String((Number(m[1]) + Number(m[3])) >> 1), String((Number(m[2]) + Number(m[4])) >> 1)];
    };
    const tap = async (label: string) => void await sh(s, "input", "tap", ...centreOf(label));
    await tap("Apps");
    for (
      const [where, apps] of [["apps", ["Calendar", "Clock", "Chrome"]], ["all_apps", [
        "Calculator",
        "Calendar",
        "Camera",
        "Chrome",
        "Clock",
        "Contacts",
        "Files",
        "Maps",
      ]]] as const
    ) {
      if (where === "all_apps") await tap("All apps");
      for (const app of apps) {
        await tap(app);
        assert.equal(d.screenId(), `app_info_${app.toLowerCase()}`, `${where}: ${app}`);
        assert.match(
          d.hierarchyXml(),
          new RegExp(`text="${app}" resource-id="com\\.android\\.settings:id/entity_header_title"`),
          "the page names the app",
        );
        assert.match(
          await sh(s, "dumpsys", "window", "displays"),
          /mCurrentFocus=Window\{[0-9a-f]+ u0 com\.android\.settings\/com\.android\.settings\.applications\.InstalledAppDetailsTop\}/,
        );
        await sh(s, "input", "keyevent", "4");
        assert.equal(d.screenId(), where);
      }
    }
    await tap("Chrome");
    await tap("Open");
    assert.equal(d.foregroundPackage(), "com.android.chrome", "Open launches the app");
  });
});
