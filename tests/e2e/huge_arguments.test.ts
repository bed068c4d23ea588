/**
 * A huge regular file as a path argument is refused from its size, before a byte of it is read (issue 25 item 8):
 * a 1.5 GB file (sparse: no disk used) as `flow FILE`, `serve --scenario`, `serve --screen`, `sim --screen`,
 * `--screenshot` or `tree --file` is one stderr line naming the limit of that kind of file, with the exit code of
 * any refused path (the FIFO's). Before, each read it whole (11–22 s, GBs of memory) and `serve --screen` ended
 * with "internal error: Cannot create a string longer than …".
 */
import assert from "node:assert/strict";
import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { makeServeHome } from "../support/mcp_e2e.ts";
import { runCli } from "../support/run_cli.ts";

const HUGE = 1.5 * 1024 * 1024 * 1024;

test("a 1.5 GB file as a path argument is refused from its size, with the limit, one line and the refused path's code", {
  skip: process.platform === "win32",
  timeout: 300_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const huge = join(home.root, "huge");
  writeFileSync(huge, "");
  truncateSync(huge, HUGE);
  const xml = join(home.root, "small.xml");
  writeFileSync(xml, '<?xml version="1.0"?><hierarchy rotation="0"></hierarchy>');
  const cases: [string[], number, RegExp][] = [
    [["flow", huge, "--device", "sim"], 1, /flow file .* at most 4 MiB/],
    [["serve", "--device", "sim", "--scenario", huge], 2, /scenario file .* at most 16 MiB/],
    [["serve", "--device", "sim", "--screen", huge], 2, /screen dump .* at most 50 MiB/],
    [["sim", "--screen", huge], 2, /screen dump .* at most 50 MiB/],
    [["sim", "--screen", xml, "--screenshot", huge], 2, /screenshot .* at most 32 MiB/],
    [["tree", "--file", huge], 2, /UI dump .* at most 50 MiB/],
  ];
  for (const [args, code, says] of cases) {
    // Killed at the limit: before, a run held GBs for many seconds.
    const ran = await runCli(args, home.env, { limitMs: 60_000 });
    assert.equal(ran.hung, false, `${args.join(" ")} hung`);
    assert.match(ran.stderr, says, args.join(" "));
    assert.match(ran.stderr, /1610612736 bytes/, `the refusal says the file's size: ${ran.stderr}`);
    assert.equal(ran.code, code, `${args.join(" ")}: ${ran.stderr}`);
    assert.equal(ran.stderr.trim().split("\n").length, 1, `one line: ${ran.stderr}`);
  }
});
