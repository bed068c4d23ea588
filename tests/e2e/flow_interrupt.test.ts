/**
 * `flow` asked to stop (Ctrl+C, a CI job's SIGTERM) in the middle of a step: the real binary against a
 * simulated device in this process. The flow stops within seconds, deletes its UI session on the
 * UiAutomator2 side (a Grid slot or an Appium device is not left held until newCommandTimeout), writes
 * its reports naming the interrupted step, and exits 1 (an error, not a screen verdict).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { assertEndedByDeadline } from "../support/time_bounds.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { actToolsSkipReason } from "../support/act_tools.ts";
import { harnessCommand } from "../support/mcp_client.ts";
import { privateStateHome } from "../support/cli.ts";
import { tempDir } from "../evidence/temp_dir.ts";

const flow = {
  version: 1,
  name: "interrupted",
  package_name: "com.android.settings",
  steps: [
    { tool: "settings_open", expect: { visible: { text: "Network & internet" } } },
    // Polls for a minute: the signal arrives while this step waits.
    { tool: "ui_tap", args: { selector: { text: "Display" } }, expect: { visible: { text: "Never shown" }, timeout_ms: 60_000 } },
    { tool: "device_back" },
  ],
};

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  test(
    `${signal} during a step: the session is deleted, the reports are written, exit 1`,
    { skip: actToolsSkipReason(), timeout: 60_000 },
    async (t) => {
      const sim = await startSimDevice();
      t.after(() => sim.stop());
      const dir = tempDir(t, "amh-flow-int-");
      const file = join(dir, "flow.json");
      writeFileSync(file, JSON.stringify(flow));
      const [command, ...prefix] = harnessCommand();
      const child = spawn(command, [...prefix, "flow", file, "--json", "--artifacts", join(dir, "artifacts")], {
        env: {
          PATH: process.env["PATH"] ?? "",
          XDG_STATE_HOME: privateStateHome(),
          ADB_SERVER_SOCKET: sim.adbServerSocket,
          APPIUM_URL: sim.appiumUrl,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      t.after(() => {
        try {
          if (child.pid !== undefined) process.kill(child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => void (stdout += c.toString("utf8")));
      let sent = 0;
      child.stderr.on("data", (c: Buffer) => {
        stderr += c.toString("utf8");
        if (sent === 0 && /step 1 of 3 settings_open passed/.test(stderr)) {
          sent = Date.now();
          // The tap of step 2 is answered in well under a second; then its expectation polls.
          setTimeout(() => child.kill(signal), 1500);
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
      assert.ok(sent > 0, stderr);
      // Stopped soon after the signal (1.5 s after `sent`), not after its 60 s expectation.
      assertEndedByDeadline(Date.now() - sent, 10_000, "the flow after the signal");
      assert.equal(code, 1, stderr);
      const sessions = await (await fetch(`${sim.appiumUrl}/appium/sessions`)).json() as { value: unknown[] };
      assert.deepEqual(sessions.value, [], "the flow's UI session was deleted on the UiAutomator2 side");
      const report = JSON.parse(stdout);
      assert.equal(report.exit_code, 1);
      assert.equal(report.runs[0].failure.step, 2);
      assert.match(report.runs[0].failure.reason, new RegExp(`interrupted \\(${signal}\\)`));
      assert.equal(report.runs[0].session.closed, true);
      assert.deepEqual(report.runs[0].steps.map((s: { outcome: string }) => s.outcome), ["passed", "error", "skipped"]);
      assert.ok(existsSync(report.reports.junit) && existsSync(report.reports.html));
    },
  );
}
