/**
 * Drafts a killed server left are swept at start (issue 25 item 7, reliability R43): a `.draft` (the private
 * sibling every evidence PNG, report and lock file is written to before it is linked into place) older than
 * DRAFT_MAX_AGE_MS and owned by this user goes, from the artifacts directory and the lock directory, when the
 * next `serve` starts; a young draft (a live writer's), another user's (as root: a second uid), and a file not
 * named as a draft stay. Before, 10 of 10 SIGKILLed servers left an evidence draft, and lock drafts with holder
 * metadata stayed for ever.
 */
import assert from "node:assert/strict";
import { chownSync, existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { homedir, platform } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { DRAFT_MAX_AGE_MS } from "../../src/adapters/evidence/draft_sweep.ts";
import { currentUserFacts, lockDirectory } from "../../src/adapters/evidence/mod.ts";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";

const root = process.getuid?.() === 0;

test("serve sweeps this user's old drafts from the artifacts and lock directories, and keeps young, foreign and other files (R43)", {
  skip: process.platform === "win32" ? "POSIX owners and mtimes" : false,
  timeout: 120_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  mkdirSync(home.artifacts, { mode: 0o700 });
  const locks = lockDirectory(currentUserFacts(platform(), homedir())).path;
  mkdirSync(locks, { recursive: true, mode: 0o700 });
  const tag = `${process.pid}${Date.now()}`;
  const old = (Date.now() - DRAFT_MAX_AGE_MS - 60_000) / 1000;
  const plant = (dir: string, name: string, ageSeconds: number | null, owner?: number) => {
    const path = join(dir, name);
    writeFileSync(path, '{"pid":4242,"host":"h"}');
    if (ageSeconds !== null) utimesSync(path, ageSeconds, ageSeconds);
    if (owner !== undefined) chownSync(path, owner, owner);
    t.after(() => rmSync(path, { force: true }));
    return path;
  };
  const gone = [
    plant(home.artifacts, `.20260101-000000-000000-ui_tap.png.${tag}-1.draft`, old),
    plant(locks, `.tcp_127.0.0.1_5037-emulator-5554-${tag}.lock.${tag}-2.draft`, old),
  ];
  const kept = [
    plant(home.artifacts, `.20260101-000000-000000-ui_tap.png.${tag}-3.draft`, null), // a live writer's, just now
    plant(home.artifacts, `notes-${tag}.draft`, old), // not named as the harness names drafts
    ...(root ? [plant(home.artifacts, `.x.png.${tag}-4.draft`, old, 54_325), plant(locks, `.y.lock.${tag}-5.draft`, old, 54_325)] : []),
  ];
  const served = await spawnServe(["--device", "sim"], home.env);
  t.after(() => served.close());
  assert.equal(envelopeOf(await served.client.callTool({ name: "device_status", arguments: {} })).ok, true);
  await served.close();
  for (const path of gone) assert.equal(existsSync(path), false, `${path} was swept`);
  for (const path of kept) assert.equal(existsSync(path), true, `${path} was kept`);
  assert.match(served.stderr(), /removed \d+ draft/);
});
