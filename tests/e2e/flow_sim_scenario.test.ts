/**
 * A flow names the simulated scenario it was written for, through the real CLI as a new user runs it:
 * the shipped docs/flows/login-form.json passes with `--device sim` alone (its "sim_scenario"); a flow
 * without one, on the default scenario, fails with an APP_NOT_FOUND that names the scenario that has the
 * package; `--scenario` still overrides; an unknown sim_scenario is refused before anything runs.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { actToolsSkipReason } from "../support/act_tools.ts";
import { runCliCaptured } from "../support/cli.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { tempDir } from "../evidence/temp_dir.ts";

const skip = actToolsSkipReason();

async function flow(t: import("node:test").TestContext, file: string, args: string[], env: Record<string, string> = {}) {
  const artifacts = join(tempDir(t, "amh-simscn-"), "artifacts");
  const run = await runCliCaptured(["flow", file, "--artifacts", artifacts, ...args], { env });
  return run;
}

function flowFile(t: import("node:test").TestContext, content: object): string {
  const file = join(tempDir(t, "amh-simscn-flow-"), "flow.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

test("docs/flows/login-form.json passes with --device sim alone: its sim_scenario picks the login scenario", { skip }, async (t) => {
  const run = await flow(t, join(REPO_ROOT, "docs", "flows", "login-form.json"), ["--device", "sim"], {
    SHOP_PASSWORD: "Grüße-aus-Köln-ß",
  });
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stderr, /the simulated device plays the scenario "login" \(the flow's sim_scenario; --scenario overrides it\)/);
  assert.match(run.stdout, /flow "login-form": passed/);
});

test("without sim_scenario, a package only another scenario has: APP_NOT_FOUND names that scenario", { skip }, async (t) => {
  const file = flowFile(t, { version: 1, name: "shop", package_name: "com.example.shop", steps: [{ tool: "ui_get_tree" }] });
  const run = await flow(t, file, ["--device", "sim"]);
  assert.equal(run.code, 1, run.stdout);
  assert.match(
    run.stdout,
    /Package "com\.example\.shop" is not installed on the device\..*the built-in scenarios "login" and "shop" do: start with --scenario login \(a flow file can say "sim_scenario": "login"\)/,
  );
  const fixed = await flow(t, file, ["--device", "sim", "--scenario", "login"]);
  assert.equal(fixed.code, 0, fixed.stdout);
});

test("--scenario overrides the flow's sim_scenario; an unknown sim_scenario is refused with the names", { skip }, async (t) => {
  const login = join(REPO_ROOT, "docs", "flows", "login-form.json");
  const overridden = await flow(t, login, ["--device", "sim", "--scenario", "settings"], { SHOP_PASSWORD: "x" });
  assert.equal(overridden.code, 1, "the settings scenario has no shop app");
  assert.doesNotMatch(overridden.stderr, /the flow's sim_scenario/);
  const unknown = flowFile(t, {
    version: 1,
    name: "x",
    package_name: "com.android.settings",
    sim_scenario: "nonesuch",
    steps: [{ tool: "ui_get_tree" }],
  });
  const refused = await flow(t, unknown, ["--device", "sim"]);
  assert.equal(refused.code, 1);
  assert.match(
    refused.stdout + refused.stderr,
    /sim_scenario "nonesuch" is not a built-in scenario \(settings, launcher, login, flutter, permission, shop, canvas\)/,
  );
});
