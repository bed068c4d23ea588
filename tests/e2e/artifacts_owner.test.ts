/**
 * Another local user cannot reach into the artifacts directory (issue 25 item 1, reliability R41). As root, with a
 * second uid (files chowned to it) standing for her, through the compiled binary: a directory she owns, or one of
 * ours that she can write (0777, or group-writable), is refused at start with EVIDENCE_WRITE_FAILED saying what to
 * do; in a directory of ours, an `audit.jsonl` she planted as a symlink is not followed (her target stays empty), a
 * 0666 `audit.jsonl` of hers is not appended to, and an evidence PNG of hers under an evidence name is neither
 * served by `artifact://` nor listed. Before, each of these was trusted. Skipped, with the reason, unless root.
 */
import assert from "node:assert/strict";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { evidenceId } from "../../src/adapters/evidence/evidence_id.ts";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";
import { runCli } from "../support/run_cli.ts";

const HER = 54_323; // no account: a second local user

const skip = process.platform !== "linux" ? "Linux only" : process.getuid?.() !== 0 ? "needs root (to plant files as another uid)" : false;

test(
  "an artifacts directory another user owns or can write is refused at start, saying what to do (R41)",
  { skip, timeout: 120_000 },
  async (t) => {
    const home = makeServeHome();
    t.after(() => home.remove());
    const hers = join(home.root, "hers");
    mkdirSync(hers, { mode: 0o700 });
    chownSync(hers, HER, HER);
    const open = join(home.root, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    const group = join(home.root, "group");
    mkdirSync(group);
    chmodSync(group, 0o770);
    for (const [dir, says] of [[hers, /belongs to user 54323/], [open, /other users can write/], [group, /its group can write/]] as const) {
      for (const args of [["serve", "--device", "sim", "--artifacts", dir]]) {
        const ran = await runCli(args, home.env, { limitMs: 60_000 });
        assert.equal(ran.hung, false);
        assert.equal(ran.code, 1, `${args.join(" ")}: ${ran.stderr}`);
        assert.match(ran.stderr, /EVIDENCE_WRITE_FAILED|cannot be used/, ran.stderr);
        assert.match(ran.stderr, says, ran.stderr);
        assert.match(ran.stderr, /chmod|chown|ANDROID_MCP_ARTIFACTS_DIR/, `it says what to do: ${ran.stderr}`);
      }
    }
    const doctor = await runCli(["doctor", "--device", "sim", "--artifacts", hers, "--json"], home.env, { limitMs: 60_000 });
    const check = (JSON.parse(doctor.stdout) as { checks: { id: string; ok: boolean; detail: string }[] }).checks.find((c) =>
      c.id === "artifacts"
    );
    assert.equal(check?.ok, false, JSON.stringify(check));
    assert.match(check!.detail, /belongs to user 54323/);
  },
);

test("files another user planted in our artifacts directory are neither followed, appended to, nor served (R41)", {
  skip,
  timeout: 120_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  mkdirSync(home.artifacts, { mode: 0o700 });
  // Her target for the symlinked audit log, and her own readable audit log.
  const target = join(home.root, "her-target");
  writeFileSync(target, "");
  chownSync(target, HER, HER);
  symlinkSync(target, join(home.artifacts, "audit.jsonl"));

  const served = await spawnServe(["--device", "sim"], home.env);
  t.after(() => served.close());
  const shot = envelopeOf(await served.client.callTool({ name: "ui_screenshot", arguments: {} }));
  assert.equal(shot.ok, true, JSON.stringify(shot.error));
  assert.equal(readFileSync(target, "utf8"), "", "no audit line went through her symlink");
  assert.match(served.stderr(), /audit line .* not written/);

  // Her PNG under an evidence name (a copy of a real screenshot, so only the owner tells it apart).
  const swapped = evidenceId(Date.now() * 1000, "ui_tap");
  copyFileSync(shot.evidence!.path, join(home.artifacts, swapped));
  chownSync(join(home.artifacts, swapped), HER, HER);
  const listed = (await served.client.listResources()).resources.map((r) => r.uri);
  assert.ok(listed.includes(shot.evidence!.uri), "our own screenshot is listed");
  assert.ok(!listed.includes(`artifact://${swapped}`), "her PNG is not listed");
  await assert.rejects(served.client.readResource({ uri: `artifact://${swapped}` }), /-32002|not found|No evidence/i, "her PNG is refused");
  await served.close();

  // Her 0666 audit log: not appended to (she would read every line).
  const log = join(home.artifacts, "audit.jsonl");
  rmSync(log);
  writeFileSync(log, "", { mode: 0o666 });
  chmodSync(log, 0o666);
  chownSync(log, HER, HER);
  const again = await spawnServe(["--device", "sim"], home.env);
  t.after(() => again.close());
  assert.equal(envelopeOf(await again.client.callTool({ name: "device_status", arguments: {} })).ok, true);
  await again.close();
  assert.equal(readFileSync(log, "utf8"), "", "no audit line in her file");
  assert.ok(existsSync(log) && statSync(log).uid === HER);
});
