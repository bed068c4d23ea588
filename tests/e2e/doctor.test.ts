/**
 * `doctor` as users run it, the compiled executable in its own process: `doctor --device sim --json`
 * prints only JSON and exits; with every program and server hanging it still exits by itself soon after
 * its timeout (no child or socket keeps it alive); and `serve --device sim` offers doctor://report to a real MCP
 * client over stdio, reporting the simulated device online.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { assertEndedByDeadline } from "../support/time_bounds.ts";
import type { DoctorReport } from "../../src/doctor/mod.ts";
import { HANGING, programDir, writeProgram } from "../support/fake_programs.ts";
import { harnessCommand, spawnServe } from "../support/mcp_client.ts";
import { killQuietly, makeServeHome } from "../support/mcp_e2e.ts";
import { tcpServer } from "../doctor/tcp_servers.ts";

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  tookMs: number;
}

function runHarness(args: string[], env: Record<string, string>, cwd: string, limitMs: number): Promise<Finished> {
  const [command, ...prefix] = harnessCommand();
  const started = Date.now();
  const child = spawn(command, [...prefix, ...args], { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => void (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => void (stderr += c.toString("utf8")));
  const limit = setTimeout(() => killQuietly(child.pid), limitMs);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, stderr, tookMs: Date.now() - started });
    });
  });
}

test("doctor --device sim --json: only the JSON report on stdout, the device simulated and online", async () => {
  const home = makeServeHome();
  try {
    const run = await runHarness(["doctor", "--device", "sim", "--json"], home.env, home.root, 30_000);
    const report = JSON.parse(run.stdout) as DoctorReport;
    assert.equal(report.total, 8);
    assert.equal(report.simulated, true);
    assert.equal(report.checks.find((c) => c.id === "device")?.ok, true, run.stdout);
    assert.equal(run.code, report.ok ? 0 : 1);
  } finally {
    home.remove();
  }
});

test("everything hangs: the process answers and exits by itself soon after its timeout, exit 1", async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const bin = programDir(t);
  for (const name of ["java", "adb", "appium"]) writeProgram(bin, name, HANGING);
  const [adbServer, appium] = [await tcpServer(t, null), await tcpServer(t, null)];
  const env = {
    ...home.env,
    PATH: `${bin}:${home.env["PATH"]}`,
    ADB_SERVER_SOCKET: `tcp:127.0.0.1:${adbServer.port}`,
    APPIUM_URL: `http://127.0.0.1:${appium.port}`,
  };
  // A hung child or socket would keep the process alive until this test's 60 s kill (exit code null).
  const run = await runHarness(["doctor", "--timeout", "1"], env, home.root, 60_000);
  assert.equal(run.code, 1, `doctor exits by itself, not killed by the test: ${run.stderr}`);
  assertEndedByDeadline(run.tookMs, 1000 + 5000, "doctor with a 1 s timeout (plus its start-up)");
  assert.match(run.stdout, /\[MISS\] Java +`.*java -version` did not answer within 1 s/);
  assert.match(run.stdout, /6 of 8 checks block a real campaign:/); // the five that hang, and no ANDROID_HOME
});

test("serve --device sim offers doctor://report to a real MCP client over stdio", async () => {
  const home = makeServeHome();
  const served = await spawnServe(["--device", "sim"], home.env, { cwd: home.root });
  try {
    const { resources } = await served.client.listResources();
    assert.ok(resources.some((r) => r.uri === "doctor://report"), JSON.stringify(resources));
    const read = await served.client.readResource({ uri: "doctor://report" });
    const report = JSON.parse((read.contents[0] as { text: string }).text) as DoctorReport;
    assert.equal(report.simulated, true);
    const device = report.checks.find((c) => c.id === "device")!;
    assert.equal(device.ok, true, device.detail);
    assert.match(device.detail, /SIMULATED/);
    assert.equal(report.checks.find((c) => c.id === "appium")?.ok, true);
  } finally {
    await served.close();
    home.remove();
  }
});
