/**
 * Another local user cannot block every tool (issue 18): root plants `/tmp/android-mcp-harness-<uid>` (0755,
 * root's, undeletable by that user in the sticky /tmp); `serve --device sim` run as that uid still answers
 * device_status and takes its locks in a directory of its own. Needs root (to plant and to run as another uid).
 */
import assert from "node:assert/strict";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { envelopeOf, MAIN_JS, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";

const UID = 54_321; // no account: the harness falls back to $HOME for the account home
const SQUATTED = `/tmp/android-mcp-harness-${UID}`;

function skipReason(): string | false {
  if (process.platform !== "linux") return "Linux only";
  if (process.getuid?.() !== 0) return "needs root (to plant the directory and run as another uid)";
  if (existsSync(SQUATTED) && !leftOverByThisTest()) return `${SQUATTED} already exists and is not this test's leftover`;
  const hidden = closedToOthers(MAIN_JS);
  if (hidden !== null) return `another user cannot reach the harness here: ${hidden} is closed to others (e.g. a private temporary clone)`;
  return false;
}

/** An empty directory of root's at SQUATTED: what a run of this test killed before its cleanup leaves (it is reused). */
function leftOverByThisTest(): boolean {
  const stat = lstatSync(SQUATTED);
  return stat.isDirectory() && stat.uid === 0 && readdirSync(SQUATTED).length === 0;
}

/** The first folder on the way to `file` that another user cannot enter, or `file` if they cannot read it; null if open. */
function closedToOthers(file: string): string | null {
  if ((statSync(file).mode & 0o004) === 0) return file;
  for (let dir = dirname(file);; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return dir;
    if (dirname(dir) === dir) return null;
  }
}

test("a lock directory squatted by root does not block another user's tools", { skip: skipReason(), timeout: 60_000 }, async (t) => {
  if (!existsSync(SQUATTED)) mkdirSync(SQUATTED, { mode: 0o755 });
  chmodSync(SQUATTED, 0o755);
  t.after(() => rmSync(SQUATTED, { recursive: true, force: true }));
  const home = makeServeHome();
  t.after(() => home.remove());
  chmodSync(home.root, 0o755);
  chownSync(home.root, UID, UID);
  const served = await spawnServe(["--device", "sim"], home.env, { runAs: { uid: UID, gid: UID } });
  t.after(() => served.close());
  const status = envelopeOf(await served.client.callTool({ name: "device_status", arguments: {} }));
  assert.equal(status.ok, true, JSON.stringify(status.error));
  const opened = envelopeOf(await served.client.callTool({ name: "ui_session_open", arguments: {} }));
  assert.equal(opened.ok, true, JSON.stringify(opened.error));
  assert.deepEqual(readdirSync(SQUATTED), [], "nothing was written into the other user's directory");
  const locks = join(home.root, ".local", "state", "android-mcp-harness");
  const own = readdirSync(locks).find((name) => name.startsWith("locks-"));
  assert.ok(own !== undefined, `a lock directory of its own under ${locks}`);
  assert.equal(statSync(join(locks, own)).uid, UID);
  assert.equal(statSync(join(locks, own)).mode & 0o777, 0o700);
});
