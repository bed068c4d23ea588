/**
 * `tree` on a live device: the built-in simulated device started in process and read through the real
 * adb client (/usr/bin/adb over ADB_SERVER_SOCKET), in text, --json and --raw; and the typed errors
 * (no adb server, adb missing) printed as messages with exit 1.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { adbServerAddress } from "../../src/adapters/adb/adb_server_address.ts";
import {
  createDeviceLock,
  createNodeFileSystem,
  createNodeProcessProbe,
  currentUserFacts,
  lockDirectory,
} from "../../src/adapters/evidence/mod.ts";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { runCliCaptured } from "../support/cli.ts";
import { freePort } from "../support/outcomes.ts";

const ADB = process.env["ADB"] ?? "/usr/bin/adb";
const skip = existsSync(ADB) ? false : `the real adb client is not installed at ${ADB}`;
const env = { ADB };

test("tree --device sim prints the live screen in text on stdout; that the device is simulated goes to stderr", { skip }, async () => {
  const run = await runCliCaptured(["tree", "--device", "sim"], { env });
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split("\n");
  assert.equal(lines[0], "screen com.android.settings · scrollable · keyboard closed");
  assert.doesNotMatch(run.stdout, /SIMULATED/);
  assert.match(run.stderr, /^tree: the device is SIMULATED \(the built-in emulator-5554\), not a real phone$/m);
  assert.ok(lines.includes(`  button {"text":"Network & internet"} @0,490 1080x220`), run.stdout);
});

test("tree --device sim --json: the summary object on stdout, the simulated device named on stderr", { skip }, async () => {
  const run = await runCliCaptured(["tree", "--device", "sim", "--json"], { env });
  assert.equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout);
  assert.equal(summary.foreground_package, "com.android.settings");
  assert.equal("keyboard" in summary, false, "a closed keyboard is the default: left out");
  const row = summary.actions.find((a: { selector: unknown }) => JSON.stringify(a.selector) === `{"text":"Network & internet"}`);
  assert.deepEqual(row, { selector: { text: "Network & internet" }, bounds: [0, 490, 1080, 220] });
  assert.match(run.stderr, /the device is SIMULATED/);
});

test("tree --device sim --raw prints the device's XML without the dump trailer", { skip }, async () => {
  const run = await runCliCaptured(["tree", "--device", "sim", "--raw"], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^<\?xml[^>]*>\s*<hierarchy/);
  assert.match(run.stdout, /<\/hierarchy>\n$/);
  assert.match(run.stdout, /text="Network &amp; internet"/);
});

test("with no adb server reachable, tree exits 1 with EMULATOR_UNAVAILABLE and what to do", { skip }, async () => {
  const run = await runCliCaptured(["tree", "--json"], { env: { ...env, ADB_SERVER_SOCKET: `tcp:127.0.0.1:${await freePort()}` } });
  assert.equal(run.code, 1);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, /^tree: EMULATOR_UNAVAILABLE: .*adb/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
});

test("with adb missing, tree exits 1 with a typed error naming the ADB variable", { skip }, async () => {
  const run = await runCliCaptured(["tree"], { env: { ADB: "/nonexistent/adb", ADB_SERVER_SOCKET: `tcp:127.0.0.1:${await freePort()}` } });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /^tree: EMULATOR_UNAVAILABLE: Cannot run adb .*ADB points to "\/nonexistent\/adb"/);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
});

test("a bad --device value is a usage error (exit 2)", async () => {
  const run = await runCliCaptured(["tree", "--device", "bad serial!"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--device must be a device serial/);
});

test("tree on a device another owner holds is EMULATOR_BUSY at once (one owner per device, across commands)", { skip }, async (t) => {
  const sim = await startSimDevice({});
  t.after(() => sim.stop());
  const lock = createDeviceLock({
    directory: lockDirectory(currentUserFacts(process.platform, "")).path, // where every harness process of this user looks
    fs: createNodeFileSystem(),
    clock: createSystemClock(),
    probe: createNodeProcessProbe(),
  });
  const lease = await lock.acquire({ adbServer: adbServerAddress(sim.adbServerSocket), udid: sim.device.serial }, {
    operationId: "op-held",
    tool: "ui_tap",
  });
  try {
    const busy = await runCliCaptured(["tree", "--device", sim.device.serial], { env: { ...env, ADB_SERVER_SOCKET: sim.adbServerSocket } });
    assert.equal(busy.code, 1);
    assert.match(busy.stderr, /EMULATOR_BUSY: .*ui_tap \(operation op-held\)/);
  } finally {
    await lease.release();
  }
  const free = await runCliCaptured(["tree", "--device", sim.device.serial], { env: { ...env, ADB_SERVER_SOCKET: sim.adbServerSocket } });
  assert.equal(free.code, 0, free.stderr);
});
