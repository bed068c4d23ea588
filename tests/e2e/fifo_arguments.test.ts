/**
 * Every path argument that is not a regular file (a FIFO, a directory) is refused at once by the real binary
 * with one stderr line and the command's usage exit code (issue 18); before, a FIFO hung flow, serve
 * --scenario, sim --screen and tree --file (each waited for a writer that never came). What a command writes
 * (--artifacts, --record) is checked before the simulated device starts, so the refusal is the only line.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { makeServeHome } from "../support/mcp_e2e.ts";
import { runCli } from "../support/run_cli.ts";
import { REPO_ROOT } from "../support/paths.ts";

// Generous for a loaded machine; a FIFO read blocks forever.
const run = (args: string[], env: Record<string, string>) => runCli(args, env, { limitMs: 30_000 });

// An unusable artifacts directory is EVIDENCE_WRITE_FAILED, as a read-only one is: the command's failure code.
const ARTIFACTS_REFUSED = /The artifacts directory ".*" \(from --artifacts\) cannot be created or written/;

test("a FIFO or a directory as a path argument is refused at once with one line and the usage code", {
  skip: process.platform === "win32",
  timeout: 150_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const fifo = join(home.root, "f");
  execFileSync("mkfifo", [fifo]);
  const cases: [string[], number, RegExp][] = [
    [["flow", fifo, "--device", "sim"], 1, /FIFO/],
    [["flow", home.root, "--device", "sim"], 1, /a directory/],
    [["serve", "--device", "sim", "--scenario", fifo], 2, /FIFO/],
    [["sim", "--screen", fifo], 2, /FIFO/],
    [["tree", "--file", fifo], 2, /FIFO/],
    // Checked before the simulated device starts: one line, nothing else said first.
    [
      ["flow", join(REPO_ROOT, "docs", "flows", "settings-exploration.json"), "--device", "sim", "--artifacts", fifo],
      1,
      ARTIFACTS_REFUSED,
    ],
    [["serve", "--device", "sim", "--artifacts", fifo], 1, ARTIFACTS_REFUSED],
    [["serve", "--device", "sim", "--record", fifo], 2, /--record: cannot create .*: it already exists/],
    [["serve", "--device", "sim", "--record", join(home.root, "no-such-dir", "x.json")], 2, /its directory does not exist/],
  ];
  for (const [args, code, says] of cases) {
    const ran = await run(args, home.env);
    assert.equal(ran.hung, false, `${args.join(" ")} hung`);
    assert.equal(ran.code, code, `${args.join(" ")}: ${ran.stderr}`);
    assert.match(ran.stderr, says);
    assert.equal(ran.stderr.trim().split("\n").length, 1, `one line: ${ran.stderr}`);
  }
});
