/**
 * Issue 25's defects of leaking and lingering, tried again on every run (reliability R41–R45), beside the
 * hardening section's: a 1.5 GB path argument refused from its size (R44).
 */
import { truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeServeHome } from "../../tests/support/mcp_e2e.ts";
import { runCli } from "../../tests/support/run_cli.ts";
import type { Tally } from "./tally.ts";

/** The longest a child may take to start, answer or exit on a loaded two-core machine before it counts as hung. */
const WAIT_MS = 60_000;

export async function runLeaks(tally: Tally, done: string[]): Promise<void> {
  await hugeArguments(tally, done);
}

/** R44: a 1.5 GB (sparse) file as `tree --file`, `flow` or `serve --screen` is refused from its size with the refusal's exit code. */
async function hugeArguments(tally: Tally, done: string[]): Promise<void> {
  if (process.platform === "win32") return void done.push("huge path arguments: skipped (no sparse files here)");
  const home = makeServeHome();
  try {
    const huge = join(home.root, "huge");
    writeFileSync(huge, "");
    truncateSync(huge, 1.5 * 1024 ** 3);
    const cases = [[["tree", "--file", huge], 2], [["flow", huge, "--device", "sim"], 1], [
      ["serve", "--device", "sim", "--screen", huge],
      2,
    ]];
    for (const [args, code] of cases as [string[], number][]) {
      tally.inputsTried++;
      const ran = await runCli(args, home.env, { limitMs: WAIT_MS });
      if (ran.hung) tally.violation("hangs", `leaks: ${args[0]} on a 1.5 GB file still ran after ${WAIT_MS / 1000} s`);
      else if (ran.code !== code || !/is at most \d+ MiB/.test(ran.stderr)) {
        tally.violation("file rules broken", `leaks: ${args.join(" ")} on a 1.5 GB file exited ${ran.code}: ${ran.stderr.slice(0, 200)}`);
      }
    }
    done.push("1.5 GB path arguments refused from their size");
  } finally {
    home.remove();
  }
}
