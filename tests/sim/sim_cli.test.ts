/**
 * `android-mcp-harness sim`: started as a real child process (the compiled entry point), it prints the
 * JSON line and the endpoints, a real adb client reaches the device through them, and SIGTERM stops it
 * with exit code 0. A broken scenario file exits 2 with the reason. `--screen` replays a real capture;
 * a missing, unreadable, non-XML or mismatched capture exits 2 with one line.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { LOADED_WAIT_MS } from "../support/time_bounds.ts";
import { fileURLToPath } from "node:url";
import { runCliCaptured } from "../support/cli.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";
import { adb, NO_ADB, text } from "./adb_cli.ts";

const MAIN = fileURLToPath(new URL("../../src/main.js", import.meta.url));

test(
  "sim --json prints only the JSON line on stdout, the endpoints for people on stderr; real adb reaches the device; SIGTERM stops it cleanly",
  { skip: NO_ADB },
  async () => {
    const child = spawn(process.execPath, [MAIN, "sim", "--json", "--scenario", "login"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      let out = "";
      let err = "";
      child.stderr.on("data", (c: Buffer) => void (err += c.toString()));
      const ready = new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (c: Buffer) => {
          out += c.toString();
          if (out.includes("\n")) resolve();
        });
        child.on("close", (code) => reject(new Error(`sim exited early with ${code}: ${out}`)));
        setTimeout(() => reject(new Error(`sim printed no endpoints in ${LOADED_WAIT_MS} ms: ${out}`)), LOADED_WAIT_MS).unref();
      });
      await ready;
      const first = JSON.parse(out);
      assert.equal(first.simulated, true);
      assert.equal(first.scenario, "login");
      assert.match(first.adbServerSocket, /^tcp:127\.0\.0\.1:\d+$/);
      for (let waited = 0; !err.includes("APPIUM_URL=") && waited < LOADED_WAIT_MS; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.match(err, /^Simulated Android device \(not a real phone\): emulator-5554, Android 15 \(API 35\)/m);
      assert.match(err, new RegExp(`^ADB_SERVER_SOCKET=${first.adbServerSocket}$`, "m"));
      assert.match(err, new RegExp(`^APPIUM_URL=${first.appiumUrl.replaceAll(".", "\\.")}$`, "m"));
      const state = await adb(first.adbServerSocket, ["shell", "dumpsys", "input_method"]);
      assert.match(text(state), /mInputShown=true/);
      const status = await fetch(`${first.appiumUrl}/status`);
      assert.equal(status.status, 200);
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      child.kill("SIGTERM");
      assert.equal(await exited, 0);
    } finally {
      child.kill("SIGKILL");
    }
  },
);

test("sim with a broken scenario file exits 2 and says what is wrong", async () => {
  const dir = mkdtempSync(join(tmpdir(), "simadb-cli-"));
  try {
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ name: "x" }));
    const run = await runCliCaptured(["sim", "--scenario", "bad.json"], { cwd: dir });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /bad\.json is not a valid simulated-device scenario/);
    assert.match(run.stderr, /android: /);
    const missing = await runCliCaptured(["sim", "--scenario", "nope"], { cwd: dir });
    assert.equal(missing.code, 2);
    assert.match(
      missing.stderr,
      /Cannot read the scenario file .*nope \(ENOENT\)\. Name a built-in scenario \(settings, launcher, login, flutter, permission, shop, canvas\)/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("sim runs a scenario file and stops when asked", async () => {
  const dir = mkdtempSync(join(tmpdir(), "simadb-cli-"));
  try {
    const { BUILTIN_SCENARIOS } = await import("../../src/sim/scenarios/mod.ts");
    const scenario = structuredClone(BUILTIN_SCENARIOS["permission"]!);
    scenario.name = "my-maps";
    writeFileSync(join(dir, "maps.json"), JSON.stringify(scenario));
    const run = await runCliCaptured(["sim", "--scenario", "maps.json"], { cwd: dir, waitForStop: async () => "SIGINT" });
    assert.equal(run.code, 0);
    assert.match(run.stdout, /scenario "my-maps"/);
    assert.match(run.stderr, /SIGINT received; the simulated device stopped/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("sim writes stdout in one write (`| head -1` never meets a closed pipe mid-way); with --json that write is the JSON line alone", async () => {
  for (const json of [false, true]) {
    const writes: string[] = [];
    const run = await runCliCaptured(["sim", ...(json ? ["--json"] : [])], {
      stdout: (t) => void writes.push(t),
      waitForStop: async () => "SIGTERM",
    });
    assert.equal(run.code, 0);
    assert.equal(writes.length, 1);
    if (json) {
      assert.equal(JSON.parse(writes[0]!).simulated, true);
      assert.match(writes[0]!, /^\{.*\}\n$/);
      assert.match(run.stderr, /^Simulated Android device \(not a real phone\)/);
    } else {
      assert.match(writes[0]!, /^Simulated Android device \(not a real phone\)/);
      assert.match(writes[0]!, /^APPIUM_URL=http/m);
    }
  }
});

test("sim --devices 2: two devices behind one adb server, each its own serial, model and screen, as the real adb lists them", {
  skip: NO_ADB,
}, async () => {
  const writes: string[] = [];
  const seen: { devices?: string; screens?: string[] } = {};
  const run = await runCliCaptured(["sim", "--devices", "2", "--json"], {
    stdout: (t) => void writes.push(t),
    waitForStop: async () => {
      const line = JSON.parse(writes[0]!) as { adbServerSocket: string; serials: string[] };
      seen.devices = text(await adb(line.adbServerSocket, ["devices", "-l"]));
      await adb(line.adbServerSocket, ["-s", "emulator-5556", "shell", "input", "keyevent", "3"]); // HOME on the second alone
      seen.screens = [];
      for (const serial of line.serials) {
        seen.screens.push(text(await adb(line.adbServerSocket, ["-s", serial, "shell", "dumpsys", "window", "displays"])));
      }
      return "SIGTERM";
    },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(writes[0]!).serials, ["emulator-5554", "emulator-5556"]);
  assert.match(
    run.stderr,
    /^2 simulated Android devices behind one adb server: emulator-5554 \(sdk_gphone64_x86_64\), emulator-5556 \(sdk_gphone64_x86_64_2\)/,
  );
  assert.match(seen.devices ?? "", /^emulator-5554 +device product:\S+ model:sdk_gphone64_x86_64 device:\S+ transport_id:1$/m);
  assert.match(seen.devices ?? "", /^emulator-5556 +device product:\S+ model:sdk_gphone64_x86_64_2 device:\S+ transport_id:2$/m);
  const focus = (dump: string) => /mCurrentFocus=Window\{\S+ \S+ ([^/}\s]+)/.exec(dump)?.[1];
  assert.notEqual(focus(seen.screens![0]!), focus(seen.screens![1]!), "HOME on the second left the first as it was");
});

test("sim whose reader is already gone (closed stdout) stops quietly with exit 0, no stack trace", async () => {
  const child = spawn(process.execPath, [MAIN, "sim", "--json"], { stdio: ["ignore", "pipe", "pipe"] });
  try {
    child.stdout.destroy();
    let err = "";
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on("close", resolve);
      setTimeout(() => reject(new Error(`sim kept running with its stdout closed: ${err}`)), LOADED_WAIT_MS).unref();
    });
    assert.equal(code, 0, err);
    assert.match(err, /sim: stdout closed; the simulated device stopped\./);
    assert.doesNotMatch(err, /EPIPE|Error|at /);
  } finally {
    child.kill("SIGKILL");
  }
});

test(
  "sim --screen replays a capture: the banner names the file and its package; --screenshot is read too",
  { skip: corpusSkipReason() },
  async () => {
    const dump = join(CORPUS_DIR, "permission-location-dialog-en.xml");
    const run = await runCliCaptured([
      "sim",
      "--json",
      "--screen",
      dump,
      "--screenshot",
      join(CORPUS_DIR, "permission-location-dialog-en.png"),
    ], { waitForStop: async () => "SIGTERM" });
    assert.equal(run.code, 0, run.stderr);
    const [json] = run.stdout.split("\n");
    const [human] = run.stderr.split("\n"); // with --json the human-readable lines go to stderr
    assert.deepEqual(Object.keys(JSON.parse(json!)).slice(0, 5), ["simulated", "serial", "scenario", "screen", "foregroundPackage"]);
    assert.equal(JSON.parse(json!).screen, dump);
    assert.equal(JSON.parse(json!).foregroundPackage, "com.google.android.permissioncontroller");
    assert.equal(
      human,
      `Simulated Android device (not a real phone): emulator-5554, Android 15 (API 35), 1080x2400 420 dpi, ` +
        `showing ${dump} (com.google.android.permissioncontroller); acts are answered, the screen does not change.`,
    );
  },
);

test(
  "sim --screen: missing, unreadable, non-XML and mismatched files exit 2 with one line each",
  { skip: corpusSkipReason() },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "simadb-cli-"));
    try {
      writeFileSync(join(dir, "page.html"), "<html><body>no</body></html>");
      const cases: [string[], RegExp][] = [
        [
          ["--screen", "nope.xml"],
          /^sim: Cannot read the screen dump .*\/nope\.xml \(ENOENT\)\. Pass the path of a uiautomator dump or Appium page source \(\.xml\)\.\n$/,
        ],
        [["--screen", dir], /^sim: Cannot read the screen dump .* is a directory, not a regular file\)\./],
        [["--screen", "page.html"], /^sim: .*\/page\.html is not a UI dump: the root element is <html>, expected <hierarchy>\./],
        [
          ["--screen", join(CORPUS_DIR, "chrome-webpage-es-appium.png")],
          /is not a UI dump: it is a PNG image \(pass it as --screenshot\), not XML text\./,
        ],
        [
          ["--screen", join(CORPUS_DIR, "chrome-webpage-es-appium.xml"), "--screenshot", "nope.png"],
          /^sim: Cannot read the screenshot .*\/nope\.png \(ENOENT\)\./,
        ],
        [[
          "--screen",
          join(CORPUS_DIR, "automotive-ivi-quick-settings-ko-appium.xml"),
          "--screenshot",
          join(CORPUS_DIR, "chrome-webpage-es-appium.png"),
        ], /is 1080x2400 but the dump reaches 1920x957: pass the screenshot taken with this dump, or leave --screenshot out\./],
        [["--screenshot", "x.png"], /^sim: --screenshot needs --screen: pass the dump the screenshot was taken with/],
        [
          ["--screen", join(CORPUS_DIR, "chrome-webpage-es-appium.xml"), "--scenario", "login"],
          /^sim: --screen and --scenario cannot be combined/,
        ],
      ];
      for (const [args, expected] of cases) {
        const run = await runCliCaptured(["sim", ...args], { cwd: dir, waitForStop: async () => "SIGTERM" });
        assert.equal(run.code, 2, args.join(" "));
        assert.match(run.stderr, expected, args.join(" "));
        assert.equal(run.stderr.trim().split("\n").length, 1, `one line: ${run.stderr}`);
        assert.equal(run.stdout, "");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
