/**
 * Check 3 (adb) through the real process runner: a fake adb printing 29.0.6's `adb version`, found on
 * PATH, through ADB and under ANDROID_HOME/platform-tools (which wins over PATH); a missing or hanging
 * adb is a miss. The server is probed over a socket: the simulated device's adb server (protocol 41)
 * answers; a server of another protocol and a port held by something that is not adb are misses.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { assertEndedByDeadline } from "../support/time_bounds.ts";
import { parseAdbVersion } from "../../src/doctor/adb_facts.ts";
import { adbCheck } from "../../src/doctor/check_adb.ts";
import type { SocketProbe } from "../../src/ports/socket_probe.ts";
import { type RunningSim, startSimDevice } from "../../src/sim/mod.ts";
import { freePort } from "../support/outcomes.ts";
import { HANGING, programDir, writeProgram } from "../support/fake_programs.ts";
import { doctorInputs, runCheck } from "./doctor_inputs.ts";
import { tcpServer } from "./tcp_servers.ts";

/** Debian's adb 29.0.6 `adb version`, with the fake's own path as "Installed as". */
const ADB_29 = `printf 'Android Debug Bridge version 1.0.41\\nVersion 29.0.6-debian\\nInstalled as %s\\n' "$0"`;
const refused: SocketProbe = { exchange: async () => ({ kind: "failure", reason: "refused", message: "ECONNREFUSED" }) };

let sim: RunningSim | undefined;
before(async () => {
  sim = await startSimDevice({});
});
after(() => sim?.stop());

test("parseAdbVersion reads client, version and path; an old adb has only the first line", () => {
  assert.deepEqual(
    parseAdbVersion("Android Debug Bridge version 1.0.41\nVersion 29.0.6-debian\nInstalled as /usr/lib/android-sdk/platform-tools/adb\n"),
    { client: "1.0.41", version: "29.0.6-debian", installedAs: "/usr/lib/android-sdk/platform-tools/adb" },
  );
  assert.deepEqual(parseAdbVersion("Android Debug Bridge version 1.0.32\nRevision 09a0d98bebce-android\n"), { client: "1.0.32" });
  assert.equal(parseAdbVersion("usage: something else\n"), null);
});

test("an adb on PATH printing 29.0.6 is ok with its version; no server yet at adb's default is fine", async (t) => {
  const bin = programDir(t);
  const adb = writeProgram(bin, "adb", ADB_29);
  const result = await runCheck(adbCheck, doctorInputs(t, { PATH: bin }, { socket: refused }));
  assert.equal(result.ok, true, result.detail);
  assert.equal(
    result.detail,
    `adb 29.0.6-debian (1.0.41) at ${adb}, from PATH; no adb server running at tcp:127.0.0.1:5037 yet (adb starts one on first use)`,
  );
  assert.equal(result.facts["version"], "29.0.6-debian");
});

test("ADB names the program; ANDROID_HOME/platform-tools/adb wins over PATH", async (t) => {
  const bin = programDir(t);
  writeProgram(bin, "adb", ADB_29);
  const named = writeProgram(programDir(t), "my-adb", ADB_29);
  const viaAdb = await runCheck(adbCheck, doctorInputs(t, { PATH: bin, ADB: named }, { socket: refused }));
  assert.match(viaAdb.detail, new RegExp(`at ${named}, from ADB;`));
  const sdk = programDir(t);
  const inSdk = writeProgram(sdk, "platform-tools/adb", ADB_29);
  const viaHome = await runCheck(adbCheck, doctorInputs(t, { PATH: bin, ANDROID_HOME: sdk }, { socket: refused }));
  assert.match(viaHome.detail, new RegExp(`at ${inSdk}, from ANDROID_HOME;`));
});

test("no adb anywhere, or ADB naming a missing file, is a miss with the install line", async (t) => {
  const empty = programDir(t);
  const none = await runCheck(adbCheck, doctorInputs(t, { PATH: empty }, { socket: refused }));
  assert.equal(none.ok, false);
  assert.equal(none.detail, "adb not found: ADB is not set, ANDROID_HOME is not set, and no adb is on PATH");
  assert.match(none.remedy ?? "", /sudo apt-get install -y adb && export ANDROID_HOME=\/usr\/lib\/android-sdk/);
  const wrong = await runCheck(adbCheck, doctorInputs(t, { PATH: empty, ADB: join(empty, "nope") }, { socket: refused }));
  assert.equal(wrong.ok, false);
  assert.match(wrong.detail, /^ADB is .*nope, which does not exist or cannot be run$/);
});

test("an adb that hangs is a miss within the timeout", async (t) => {
  const bin = programDir(t);
  writeProgram(bin, "adb", HANGING);
  const result = await runCheck(adbCheck, doctorInputs(t, { PATH: bin }, { socket: refused }), 1000);
  assert.equal(result.ok, false);
  assert.match(result.detail, /adb version` did not answer within 1 s and was stopped/);
  assertEndedByDeadline(result.tookMs, 1000, "the adb check");
});

test("the simulated device's adb server answers host:version with protocol 41, as adb 1.0.41 speaks", async (t) => {
  const bin = programDir(t);
  writeProgram(bin, "adb", ADB_29);
  const result = await runCheck(adbCheck, doctorInputs(t, { PATH: bin, ADB_SERVER_SOCKET: sim!.adbServerSocket }));
  assert.equal(result.ok, true, result.detail);
  assert.match(result.detail, new RegExp(`; server at ${sim!.adbServerSocket} answers \\(protocol 41\\)$`));
});

test("a server speaking protocol 40 to adb 1.0.41 is a miss: the first adb call would restart it", async (t) => {
  const bin = programDir(t);
  writeProgram(bin, "adb", ADB_29);
  const old = await tcpServer(t, "OKAY00040028");
  const result = await runCheck(adbCheck, doctorInputs(t, { PATH: bin, ADB_SERVER_SOCKET: `tcp:127.0.0.1:${old.port}` }));
  assert.equal(result.ok, false);
  assert.match(result.detail, /speaks protocol 40, this adb 41: the first adb call would restart it/);
  assert.match(result.remedy ?? "", /Use one adb for everything: set ADB to/);
});

test("a port held by something that is not adb is a miss; a configured server that is down is left to the device check", async (t) => {
  const bin = programDir(t);
  writeProgram(bin, "adb", ADB_29);
  const http = await tcpServer(t, "HTTP/1.1 400 Bad Request\r\n\r\n");
  const other = await runCheck(adbCheck, doctorInputs(t, { PATH: bin, ANDROID_ADB_SERVER_PORT: String(http.port) }));
  assert.equal(other.ok, false);
  assert.match(other.detail, new RegExp(`tcp:127\\.0\\.0\\.1:${http.port} is not an adb server: it answered "HTTP/1\\.1 400`));
  const port = await freePort();
  const down = await runCheck(adbCheck, doctorInputs(t, { PATH: bin, ANDROID_ADB_SERVER_PORT: String(port) }));
  assert.equal(down.ok, true);
  assert.match(down.detail, new RegExp(`no adb server answers at tcp:127\\.0\\.0\\.1:${port} \\(nothing listens there; see Device\\)`));
});

const REAL_ADB = "/usr/bin/adb";
test("the machine's real adb reads as itself", { skip: existsSync(REAL_ADB) ? false : `no ${REAL_ADB}` }, async (t) => {
  const result = await runCheck(adbCheck, doctorInputs(t, { PATH: "/usr/bin", ADB_SERVER_SOCKET: sim!.adbServerSocket }));
  assert.equal(result.ok, true, result.detail);
  assert.match(String(result.facts["client"]), /^1\.0\.\d+$/);
});
