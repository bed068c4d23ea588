#!/usr/bin/env node
// Runs compiled test files (dist/tests/**/*.test.js) with node's own test runner, whose closing summary
// CI reads. Without arguments: every file but the slow batteries in SLOW (`npm test`, a few minutes on two
// busy cores); `--slow`: only those (`npm run test:slow`, which .ci/run adds); `--all`: both (`npm run
// test:full`). Other arguments filter all files by substring, slow or not: `npm test -- screen`.
// `--profile` (Linux): the same files one process each, then a table of every file's wall and CPU seconds
// (user + system, with the processes it started and waited for), the costliest first.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

// The slow batteries (paths under tests/, a folder ends in "/"): the campaign, the real-Appium runs, the
// end-to-end tests that spawn many processes or wait out real timeouts, and those that need a built binary
// or a fresh clone. The end-to-end tests not named here are `npm test`'s representative set. A file moved
// here for its cost (`--profile` measures it) says why `npm test` keeps the promise without it.
const SLOW = [
  "campaign/",
  "sim/appium_uia2.test.js",
  // A corpus-wide battery (every offered action of the 38 real captures pressed twice, 18 s of CPU); npm test keeps
  // the sim's touch dispatch in sim/uia2_hands and sim/adb_hands, and the corpus is absent in a fresh clone anyway.
  "sim/touch_corpus.test.js",
  // The takeover of a SIGKILLed server's session (R37): e2e/warm_sim proves it end to end in npm test.
  "e2e/stale_session.test.js",
  // Moved for its cost (23 CPU-seconds, `--profile` on 2026-12-04): record → replay of the launcher's Save and the shop's
  // search. npm test keeps serve --record over stdio replayed green by flow (e2e/flow_fingerprint), the two behaviours
  // (sim/scenario_fidelity), a ui_wait recorded as its own step (flow/recorder), and submit: search and app_launch
  // restart through the direct backend (e2e/hands_direct). A model's straight quotes finding Android's typographic
  // ones is proven in screen/locate, which reads ../shared's captures (skipped in a fresh clone).
  "e2e/flow_record_today.test.js",
  "e2e/act_promises.test.js",
  "e2e/act_real_appium.test.js",
  "e2e/appium_credentials.test.js",
  "e2e/device_ownership.test.js",
  "e2e/flow_devices.test.js",
  "e2e/flow_exit_codes.test.js",
  "e2e/flow_interrupt.test.js",
  "e2e/flow_record_replay.test.js",
  "e2e/flow_shipped.test.js",
  "e2e/hands_promises.test.js",
  "e2e/fresh_clone.test.js",
  "e2e/glob_links.test.js",
  "e2e/huge_arguments.test.js",
  "e2e/inspector_cli.test.js",
  "e2e/network_use.test.js",
  "e2e/npm_pack.test.js",
  "e2e/real_device.test.js",
  "e2e/server_death.test.js",
  "e2e/signal_mid_call.test.js",
  "e2e/sim_screen.test.js",
  "e2e/single_executable.test.js",
  "e2e/stop_children.test.js",
];

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
// `--all` / `--slow`: which part of the tree a run without filters takes.
const take = (flag) => {
  const at = argv.indexOf(flag);
  if (at !== -1) argv.splice(at, 1);
  return at !== -1;
};
const [all, slowOnly, profile] = [take("--all"), take("--slow"), take("--profile")];
const filters = argv;
const testsDir = join(dist, "tests");
const isSlow = (file) => SLOW.some((entry) => relative(testsDir, file).split(sep).join("/").startsWith(entry));
const every = collect(testsDir);
const stale = SLOW.filter((entry) => !every.some((f) => relative(testsDir, f).split(sep).join("/").startsWith(entry)));
if (stale.length > 0) {
  console.error(`run-tests: SLOW names ${stale.join(", ")}, which no test file matches; fix the list in scripts/run-tests.mjs.`);
  process.exit(1);
}
const files = every.filter((f) => {
  if (filters.length > 0) return filters.some((x) => f.includes(x));
  return all || (slowOnly ? isSlow(f) : !isSlow(f));
});
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
// The fresh clone's test (npm run test:clone) runs a whole `npm ci` and `npm test` inside (over 5 minutes): the
// file's own limit there is 20 minutes (a timeout cancels a whole file in the runner's process isolation).
const fileLimitMs = env.ANDROID_MCP_CLONE_TEST === "1" ? 1_200_000 : 240_000;
if (profile) process.exit(await profileFiles(files));
// `npm test` runs six files at a time: its end-to-end files spend much of their wall time waiting on their servers,
// and beside other work on the machine each runnable file is one more share of the CPU (issue 27, two busy loops on
// two cores, a fresh clone: 352 s at four files and 285 s at six, both with 58 CPU-seconds of files in SLOW that are
// back in npm test now). The slow batteries, the Deno run and filtered runs keep two: the campaign, real Appium and
// the process-heavy files were proven at that pace.
const concurrency = all || slowOnly || filters.length > 0 || denoAt !== -1 ? 2 : 6;
const result = spawnSync(process.execPath, ["--test", `--test-concurrency=${concurrency}`, `--test-timeout=${fileLimitMs}`, ...files], {
  stdio: "inherit",
  env,
});
process.exit(result.status ?? 1);

// One wrapper process per file runs `node --test FILE` and, once it has been waited for, reads its own
// /proc/self/stat: cutime and cstime (fields 16 and 17, in clock ticks of 1/100 s) are the CPU the file's
// process and every descendant it reaped used. Two files at a time (as the slow run does), so walls stay comparable.
async function profileFiles(list) {
  const wrapper = `
    const { spawnSync } = require("node:child_process");
    const started = Date.now();
    const r = spawnSync(process.execPath, ["--test", "--test-timeout=${fileLimitMs}", process.argv[1]], { stdio: "inherit", env: process.env });
    const wall = (Date.now() - started) / 1000;
    const f = require("node:fs").readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    console.error("PROFILE " + JSON.stringify({ wall, user: Number(f[13]) / 100, sys: Number(f[14]) / 100, status: r.status }));`;
  const rows = [];
  let next = 0;
  const one = () =>
    new Promise((done) => {
      const file = list[next++];
      const child = spawn(process.execPath, ["-e", wrapper, file], { env, stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      child.stdout.on("data", (b) => (text += b));
      child.stderr.on("data", (b) => (text += b));
      child.on("close", () => {
        const line = text.split("\n").find((l) => l.startsWith("PROFILE "));
        const row = line ? JSON.parse(line.slice(8)) : { wall: NaN, user: NaN, sys: NaN, status: null };
        const tests = Number(/^# tests (\d+)/m.exec(text)?.[1] ?? NaN);
        rows.push({ file: relative(testsDir, file), tests, ...row });
        if (row.status !== 0) console.error(`run-tests: ${relative(testsDir, file)} failed:\n${text.slice(-4000)}`);
        done();
      });
    });
  const lane = async () => {
    while (next < list.length) await one();
  };
  await Promise.all([lane(), lane()]);
  rows.sort((a, b) => b.user + b.sys - (a.user + a.sys));
  const sum = (key) => rows.reduce((n, r) => n + r[key], 0);
  console.log("cpu_s\twall_s\ttests\tfile");
  for (const r of rows) console.log(`${(r.user + r.sys).toFixed(1)}\t${r.wall.toFixed(1)}\t${r.tests}\t${r.file}`);
  console.log(`${(sum("user") + sum("sys")).toFixed(1)}\t${sum("wall").toFixed(1)}\t${sum("tests")}\ttotal (${rows.length} files)`);
  return rows.every((r) => r.status === 0) ? 0 : 1;
}
