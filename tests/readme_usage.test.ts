/**
 * The README's usage lines and the commands' help agree, as a new user reads them: every option a
 * command's `help` lists is on that command's README line, no help text cites the SPEC (users do not have
 * it), each "eight prerequisites (…)" list names eight things, and the scenario table lists every built-in
 * scenario of the simulated device with an app it installs.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CHECK_IDS } from "../src/doctor/types.ts";
import { BUILTIN_SCENARIOS } from "../src/sim/mod.ts";
import { runCliCaptured } from "./support/cli.ts";
import { REPO_ROOT } from "./support/paths.ts";

const README = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
const COMMANDS = ["serve", "tree", "doctor", "flow", "sim"];

/** The help text as the command prints it (the CLI in process, as tests/cli.test.ts runs it). */
async function help(args: string[]): Promise<string> {
  const run = await runCliCaptured(args);
  assert.equal(run.code, 0, run.stderr);
  return run.stdout;
}

/** The first cell of the README's command table row for `name`. */
function usageLine(name: string): string {
  const row = README.split("\n").find((line) => line.startsWith(`| \`${name} `) || line.startsWith(`| \`${name}\``));
  assert.ok(row !== undefined, `the README's command table has no row for ${name}`);
  return row.split(" | ")[0]!;
}

test("every option a command's help lists is on its README usage line", async () => {
  for (const name of COMMANDS) {
    const options = [...(await help(["help", name])).matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]!).filter((o) => o !== "--help");
    assert.ok(options.length > 0, `help ${name} lists options`);
    const line = usageLine(name);
    assert.deepEqual(options.filter((option) => !line.includes(option)), [], `README's ${name} line: ${line}`);
  }
});

test("no help text cites the SPEC, which users do not have", async () => {
  for (const args of [["--help"], ...COMMANDS.map((name) => ["help", name])]) {
    assert.doesNotMatch(await help(args), /SPEC/, args.join(" "));
  }
});

test("each 'eight prerequisites (…)' list in the README and doctor's help names eight things, as doctor checks", () => {
  assert.equal(CHECK_IDS.length, 8);
  const lists = [...README.replaceAll("\n", " ").matchAll(/eight prerequisites of a real campaign[^(]*\(([^)]*)\)/g)].map((m) => m[1]!);
  assert.ok(lists.length >= 2, "the README names them twice");
  for (const list of lists) assert.equal(list.split(", ").length, 8, list);
});

test("the README's scenario table lists every built-in scenario with an app it installs", () => {
  const rows = new Map([...README.matchAll(/^\| `([a-z]+)` \| [^|]+ \| `([a-z0-9_.]+)` \|$/gm)].map((m) => [m[1]!, m[2]!]));
  assert.deepEqual([...rows.keys()], Object.keys(BUILTIN_SCENARIOS));
  for (const [name, app] of rows) {
    assert.ok(BUILTIN_SCENARIOS[name]!.packages.some((p) => p.name === app), `${name} installs ${app}`);
  }
});
