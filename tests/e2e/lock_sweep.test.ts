/**
 * A `serve --device sim` killed with SIGKILL leaves its device's lock behind, keyed by the simulated device's
 * random adb port, which no later acquire ever names: the next harness to open (any command: here `tree
 * --device sim`) sweeps it, because its holder is dead and its adb server ran inside it (the lock's note says
 * so). Before, such locks piled up in /tmp/android-mcp-harness-<uid>. The sweep opens no connection (a start
 * connects only to configured endpoints).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { currentUserFacts, lockDirectory, lockFileName } from "../../src/adapters/evidence/mod.ts";
import { envelopeOf, type SpawnedServer, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome, pidGoneWithin } from "../support/mcp_e2e.ts";
import { runCliCaptured } from "../support/cli.ts";
import { LOADED_WAIT_MS } from "../support/time_bounds.ts";

const home = makeServeHome();
let served: SpawnedServer | undefined;

after(async () => {
  await served?.close();
  home.remove();
});

const locks = lockDirectory(currentUserFacts(process.platform, "")).path;

/** The lock files whose holder is this pid. */
function locksOf(pid: number): string[] {
  if (!existsSync(locks)) return [];
  return readdirSync(locks).filter((name) => name.endsWith(".lock")).filter((name) => {
    try {
      return JSON.parse(readFileSync(join(locks, name), "utf8")).pid === pid;
    } catch {
      return false;
    }
  });
}

test("the lock a SIGKILLed serve --device sim left is swept by the next harness that opens (R41)", async (t) => {
  served = await spawnServe(["--device", "sim"], home.env);
  const opened = envelopeOf(await served.client.callTool({ name: "ui_session_open", arguments: {} }));
  assert.equal(opened.ok, true, JSON.stringify(opened.error));
  const pid = served.pid!;
  const left = locksOf(pid);
  assert.equal(left.length, 1, "the open session holds its simulated device's lock");
  assert.equal(
    JSON.parse(readFileSync(join(locks, left[0]!), "utf8")).adb_server_in_process,
    true,
    "the lock says its adb server was in process",
  );
  process.kill(pid, "SIGKILL");
  assert.ok(await pidGoneWithin(pid, LOADED_WAIT_MS), "serve is gone after SIGKILL");
  // Any harness that opens on this machine sweeps it, and test files run side by side: one may have come first.
  const afterKill = locksOf(pid);
  if (afterKill.length === 0) t.diagnostic("another harness on this machine swept the dead holder's lock first");
  else assert.deepEqual(afterKill, left, "SIGKILL left the lock (nothing ran to release it)");

  const tree = await runCliCaptured(["tree", "--device", "sim"], { env: home.env });
  assert.equal(tree.code, 0, tree.stderr);
  assert.deepEqual(locksOf(pid), [], "the dead holder's lock with its adb server in process was swept");
});

test("the start-up sweep sends nothing to the session a dead holder noted, and takes no lock it may not (R41, network_use)", async (t) => {
  // Two dead holders (a pid that exited, on this host), each with a session noted at a loopback listener of this
  // test and an adb server where nothing listens (port 1): one whose adb server ran inside it (as `serve --device
  // sim` notes) is swept; one on an adb server outside it is left to that device's next acquire. The listener hears
  // no request for their sessions. Before, every start asked each dead holder's adb server `host:version` (here:
  // refused, so "gone") and sent each swept holder's session a DELETE: connections to ports a dead process wrote
  // down, which network_use caught. Only a request naming these sessions counts: test files run side by side, and
  // another one may connect to this random port after taking it for a free one.
  const heard: string[] = [];
  const listener = createServer((request, response) => {
    if (request.url?.includes("sweep-test-session") === true) heard.push(`${request.method} ${request.url}`);
    response.end("{}");
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  t.after(() => listener.close());
  const sessionPort = (listener.address() as AddressInfo).port;
  const gone = spawnSync(process.execPath, ["-e", ""]);
  mkdirSync(locks, { recursive: true, mode: 0o700 });
  const plant = (inProcess: boolean) => {
    const adbServer = "tcp:127.0.0.1:1";
    const udid = `sweep-test-${process.pid}-${inProcess ? "sim" : "outside"}`;
    const path = join(locks, lockFileName({ adbServer, udid }));
    writeFileSync(
      path,
      JSON.stringify({
        pid: gone.pid,
        pid_start: "gone",
        host: hostname(),
        operation_id: "op-sweep-test",
        tool: "ui_session_open",
        udid,
        adb_server: adbServer,
        ...(inProcess ? { adb_server_in_process: true } : {}),
        acquired_at: new Date().toISOString(),
        token: `sweep-test-${inProcess}`,
        appium_url: `http://127.0.0.1:${sessionPort}`,
        appium_session_id: `sweep-test-session-${inProcess ? "sim" : "outside"}`,
      }),
    );
    t.after(() => rmSync(path, { force: true }));
    return path;
  };
  const inProcess = plant(true);
  const outside = plant(false);

  const tree = await runCliCaptured(["tree", "--device", "sim"], { env: home.env });
  assert.equal(tree.code, 0, tree.stderr);
  assert.equal(existsSync(inProcess), false, "the dead holder's lock with its adb server in process was swept");
  assert.equal(existsSync(outside), true, "a dead holder's lock on an adb server outside it is left to its device's next acquire");
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(heard, [], "no request reached the sessions the dead holders noted");
});
