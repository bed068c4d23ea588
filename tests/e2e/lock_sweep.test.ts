/**
 * A `serve --device sim` killed with SIGKILL leaves its device's lock behind, keyed by the simulated device's
 * random adb port, which no later acquire ever names: the next harness to open (any command: here `tree
 * --device sim`) sweeps it, because its holder is dead and nothing answers at its adb server any more. Before,
 * such locks piled up in /tmp/android-mcp-harness-<uid>.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { currentUserFacts, lockDirectory } from "../../src/adapters/evidence/mod.ts";
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
  process.kill(pid, "SIGKILL");
  assert.ok(await pidGoneWithin(pid, LOADED_WAIT_MS), "serve is gone after SIGKILL");
  // Any harness that opens on this machine sweeps it, and test files run side by side: one may have come first.
  const afterKill = locksOf(pid);
  if (afterKill.length === 0) t.diagnostic("another harness on this machine swept the dead holder's lock first");
  else assert.deepEqual(afterKill, left, "SIGKILL left the lock (nothing ran to release it)");

  const tree = await runCliCaptured(["tree", "--device", "sim"], { env: home.env });
  assert.equal(tree.code, 0, tree.stderr);
  assert.deepEqual(locksOf(pid), [], "the dead holder's lock on a gone adb server was swept");
});
