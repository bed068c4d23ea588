/**
 * The observe promises, end to end: the simulated device runs in this test process (so the test can
 * read its command log and switch faults), `serve` is the compiled entry point on real stdio, and the
 * real adb client talks to the sim. Observing never navigates; two screenshots never collide; a
 * one-colour screencap is refused; artifact:// serves nothing but issued ids inside the directory.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { LOADED_WAIT_MS } from "../support/time_bounds.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { envelopeOf, type SpawnedServer, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";
import { ARGUMENT_FREE_OBSERVE_TOOLS } from "../support/observe_tools.ts";

type Sim = Awaited<ReturnType<typeof startSimDevice>>;
let sim: Sim;
let home: ServeHome;
let served: SpawnedServer;

before(async () => {
  sim = await startSimDevice({});
  home = makeServeHome();
  served = await spawnServe([], { ...home.env, ADB_SERVER_SOCKET: sim.adbServerSocket, ANDROID_UDID: sim.device.serial });
});

after(async () => {
  await served?.close();
  await sim?.stop();
  home?.remove();
});

const call = async (name: string, args: Record<string, unknown> = {}) =>
  envelopeOf(await served.client.callTool({ name, arguments: args }));

/** Commands that change what the device shows: input events and activity/package starts. */
const NAVIGATING =
  /(^|[\s:'])(input|monkey|am|cmd activity|cmd package|pm (clear|disable|enable|install|uninstall)|svc|wm (size|density) \d)\b/;

test("observing does not change the foreground app: the device receives no input or start command", async () => {
  const before = { pkg: sim.device.foregroundPackage(), xml: sim.device.hierarchyXml() };
  const from = sim.device.log.length;
  for (let round = 0; round < 2; round++) {
    for (const tool of ARGUMENT_FREE_OBSERVE_TOOLS) {
      const envelope = await call(tool);
      assert.equal(envelope.ok, true, `${tool}: ${JSON.stringify(envelope.error)}`);
    }
  }
  const commands = sim.device.log.slice(from);
  assert.ok(commands.length > 0, "the observe calls reached the device");
  assert.deepEqual(commands.filter((c) => c.source !== "adb"), [], "no UiAutomator2 traffic");
  const navigating = commands.filter((c) => NAVIGATING.test(c.command)).map((c) => c.command);
  assert.deepEqual(navigating, []);
  assert.equal(sim.device.foregroundPackage(), before.pkg);
  assert.equal(sim.device.hierarchyXml(), before.xml);
});

test("two screenshots in a row produce two distinct evidence files (R23)", async () => {
  const first = await call("ui_screenshot");
  const second = await call("ui_screenshot");
  assert.equal(first.ok && second.ok, true);
  assert.notEqual(first.evidence!.artifact_id, second.evidence!.artifact_id);
  assert.notEqual(first.evidence!.path, second.evidence!.path);
  assert.ok(existsSync(first.evidence!.path) && existsSync(second.evidence!.path));
});

test("a one-colour screencap is EVIDENCE_WRITE_FAILED and leaves no evidence (R21)", async () => {
  sim.device.faults.blankScreencap = true;
  try {
    const envelope = await call("ui_screenshot");
    assert.equal(envelope.ok, false);
    assert.equal(envelope.error?.code, "EVIDENCE_WRITE_FAILED");
    assert.equal(envelope.evidence, null);
    assert.deepEqual(envelope.data, {});
  } finally {
    sim.device.faults.blankScreencap = false;
  }
  assert.equal((await call("ui_screenshot")).ok, true, "the fault switched off, screenshots work again");
});

test("artifact:// refuses traversal, absolute paths, encoded traversal and unknown ids", async () => {
  const issued = (await call("ui_screenshot")).evidence!;
  // Real files at the places a traversal would reach, so a refusal is not just a missing file.
  writeFileSync(join(dirname(home.artifacts), "x"), "secret");
  writeFileSync(join(home.artifacts, "notes.txt"), "not evidence");
  const refused = [
    "artifact://../x",
    "artifact://..%2fx",
    "artifact://%2e%2e/x",
    "artifact://%2e%2e%2fx",
    "artifact://%2E%2E%2Fx",
    `artifact://${encodeURIComponent(join(dirname(home.artifacts), "x"))}`,
    `artifact://${join(dirname(home.artifacts), "x")}`,
    "artifact:///etc/passwd",
    "artifact://notes.txt",
    "artifact://audit.jsonl",
    `artifact://${issued.artifact_id.replace(/\d{6}-ui/, "000000-ui")}`,
    `artifact://${issued.artifact_id}/../x`,
    `artifact://${issued.artifact_id}%00.txt`,
    // R11: URIs the SDK could not even parse (-32603 "Invalid URL") or match (-32602) are the same refusal.
    "artifact://%",
    "artifact:",
    "not a uri",
    `file://${issued.path}`,
    "artifact://a/b",
    "",
  ];
  for (const uri of refused) {
    await assert.rejects(served.client.readResource({ uri }), (error: Error & { code?: number }) => {
      assert.doesNotMatch(error.message, /secret|not evidence/);
      assert.equal(error.code, -32002, `${uri}: ${error.code} ${error.message}`);
      return true;
    }, uri);
  }
  const good = await served.client.readResource({ uri: issued.uri });
  assert.deepEqual(Buffer.from((good.contents[0] as { blob: string }).blob, "base64"), readFileSync(issued.path));
});

test("artifact:// serves regular files only: a planted FIFO, symlink or directory is neither listed nor read, and never blocks (R10, R11)", async () => {
  const issued = (await call("ui_screenshot")).evidence!;
  const planted = (n: number) => join(home.artifacts, `2099010${n}-000000-000000-ui-screenshot.png`);
  execFileSync("mkfifo", [planted(1)]);
  symlinkSync("/etc/hostname", planted(2));
  symlinkSync(issued.path, planted(3));
  mkdirSync(planted(4));
  const listed = (await served.client.listResources()).resources.map((r) => r.uri);
  assert.ok(listed.includes(issued.uri), "the issued evidence is listed");
  for (const n of [1, 2, 3, 4]) {
    const uri = `artifact://${planted(n).slice(home.artifacts.length + 1)}`;
    assert.ok(!listed.includes(uri), `${uri} is not listed`);
    // A read that blocked (a FIFO without a writer) would end in the client's timeout (-32001), not -32002.
    await assert.rejects(served.client.readResource({ uri }, { timeout: LOADED_WAIT_MS }), (error: Error & { code?: number }) => {
      assert.equal(error.code, -32002, `${uri}: ${error.code} ${error.message}`);
      return true;
    });
  }
  assert.equal((await call("device_status")).ok, true, "the server still serves calls after the FIFO");
});
