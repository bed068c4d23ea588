#!/usr/bin/env node
// Runs every compiled test file (dist/tests/**/*.test.js) with node's own test runner, whose
// closing summary CI reads. Extra arguments filter the files by substring: `npm test -- screen`.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...collect(path));
    else if (name.endsWith(".test.js")) out.push(path);
  }
  return out;
}

// `--dist DIR` picks another build output (parallel work builds into its own folder).
const argv = process.argv.slice(2);
const distAt = argv.indexOf("--dist");
const dist = distAt === -1 ? "dist" : argv.splice(distAt, 2)[1];
// `--deno`: the end-to-end tests spawn the harness as `deno run -A src/main.ts` (Deno from node_modules),
// so Deno compatibility is proven by the same promises, not only by `deno check`.
const denoAt = argv.indexOf("--deno");
const env = { ...process.env };
if (denoAt !== -1) {
  argv.splice(denoAt, 1);
  env.ANDROID_MCP_HARNESS_CMD = `${join(process.cwd(), "node_modules", ".bin", "deno")} run -A ${join(process.cwd(), "src", "main.ts")}`;
}
// `--binary PATH`: the single-executable tests run against that file (tests/e2e/single_executable.test.ts).
const binaryAt = argv.indexOf("--binary");
if (binaryAt !== -1) env.ANDROID_MCP_BINARY = argv.splice(binaryAt, 2)[1];
const filters = argv;
const files = collect(join(dist, "tests")).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error(`No test files matched ${filters.join(", ") || "dist/tests/**/*.test.js"}; run 'npm run build' first.`);
  process.exit(1);
}
// Without the shared corpus the tests that read it are skipped; say so once, up front, in one line.
const paths = await import(pathToFileURL(resolve(dist, "tests", "support", "paths.js")).href);
const missing = [paths.CORPUS_DIR, paths.ADB_FIXTURES_DIR].filter((dir) => !existsSync(dir));
if (missing.length > 0) console.error(`run-tests: ${paths.corpusMissingLine(missing.join(" and "))}; the tests that read it are skipped.`);
// A test that hangs fails after 4 minutes (its after-hooks still stop what it started) instead of
// blocking the run; the slowest real test (Appium end to end) takes seconds.
const result = spawnSync(process.execPath, ["--test", "--test-concurrency=2", "--test-timeout=240000", ...files], { stdio: "inherit", env });
process.exit(result.status ?? 1);
