/**
 * .github/workflows/ci.yml (issue 27): the tests run on every push and pull request, on Node 20 and 22 on
 * ubuntu, with `adb` installed as .ci/run installs it, and the job runs the README's test command (`npm ci`,
 * then `npm test`). .github/workflows/device.yml (issue 24): the real-device campaign runs the direct backend
 * (no APPIUM_URL) first, then the Appium path once. Parsed as YAML, not matched as text.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parse } from "yaml";
import { REPO_ROOT } from "./support/paths.ts";

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<
    string,
    { "runs-on": string; env?: Record<string, string>; strategy?: { matrix?: Record<string, unknown[]> }; steps: Step[] }
  >;
}

const workflow = parse(readFileSync(join(REPO_ROOT, ".github", "workflows", "ci.yml"), "utf8")) as Workflow;
const README = readFileSync(join(REPO_ROOT, "README.md"), "utf8");

/** The shell commands of a job's steps, one per line, comments removed. */
const commands = (steps: Step[]) =>
  steps.flatMap((s) => (s.run ?? "").split("\n")).map((l) => l.replace(/\s+#\s.*$/, "").trim()).filter((l) => l !== "");

test("ci.yml runs on every push and pull request", () => {
  assert.deepEqual(Object.keys(workflow.on).sort(), ["pull_request", "push"]);
  assert.equal(workflow.on["push"], null, "every branch");
  assert.equal(workflow.on["pull_request"], null, "every pull request");
});

test("ci.yml's job runs on ubuntu with Node 20 and 22 from its matrix", () => {
  const jobs = Object.values(workflow.jobs);
  assert.equal(jobs.length, 1);
  const job = jobs[0]!;
  assert.match(job["runs-on"], /^ubuntu-/);
  assert.deepEqual(job.strategy?.matrix?.["node-version"], [20, 22]);
  const setup = job.steps.find((s) => s.uses?.startsWith("actions/setup-node@"));
  assert.equal(setup?.with?.["node-version"], "${{ matrix.node-version }}");
});

test("ci.yml installs adb as .ci/run does, then runs the README's test command in order", () => {
  const job = Object.values(workflow.jobs)[0]!;
  assert.ok(job.steps.some((s) => s.uses?.startsWith("actions/checkout@")));
  const lines = commands(job.steps);
  const ciRun = readFileSync(join(REPO_ROOT, ".ci", "run"), "utf8");
  assert.match(ciRun, /apt-get install -y -qq "\$\{missing\[@\]\}"/, ".ci/run installs adb as a Debian package");
  const adb = lines.findIndex((l) => /apt-get install .*\badb\b/.test(l));
  assert.ok(adb !== -1, "adb comes from apt-get");
  const readmeTest = /^npm ci && npm test\s/m.exec(README);
  assert.ok(readmeTest !== null, "the README's test command is `npm ci && npm test`");
  const ci = lines.findIndex((l) => /^npm ci(\s|$)/.test(l));
  const npmTest = lines.indexOf("npm test");
  assert.ok(adb < ci && ci !== -1 && ci < npmTest, `adb, then npm ci, then npm test: ${JSON.stringify(lines)}`);
});

const device = parse(readFileSync(join(REPO_ROOT, ".github", "workflows", "device.yml"), "utf8")) as Workflow;
const PACKAGE = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };

test("device.yml runs the real-device campaign on the direct backend (no APPIUM_URL), then once through Appium", () => {
  assert.doesNotMatch(PACKAGE.scripts["test:device"]!, /APPIUM_URL/, "npm run test:device sets no Appium URL");
  const job = Object.values(device.jobs)[0]!;
  assert.equal(job.env?.["APPIUM_URL"], undefined, "the job's environment names no Appium URL");
  const emulator = job.steps.find((s) => s.uses?.startsWith("reactivecircus/android-emulator-runner@"));
  const script = String(emulator?.with?.["script"] ?? "").split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const runs = (line: string) => /(^|\s)npm run test:device$/.test(line);
  const direct = script.findIndex((l) => runs(l) && !/APPIUM_URL=/.test(l));
  const appium = script.findIndex((l) => runs(l) && /^APPIUM_URL=http:\/\/127\.0\.0\.1:4723 /.test(l));
  assert.ok(direct !== -1, `the campaign without an Appium URL: ${JSON.stringify(script)}`);
  assert.ok(script.slice(0, direct).includes("node dist/src/main.js doctor"), "doctor passes on the direct backend first");
  assert.ok(appium > direct, `then the Appium path once: ${JSON.stringify(script)}`);
  assert.equal(script.filter((l) => /APPIUM_URL=/.test(l)).length, 1, "one line names Appium");
  const start = commands(job.steps).findIndex((l) => /npx appium --address 127\.0\.0\.1 --port 4723/.test(l));
  assert.ok(start !== -1, "Appium is started for that line");
});
