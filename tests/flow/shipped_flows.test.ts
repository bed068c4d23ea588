/**
 * The flows shipped in docs/flows/ are valid version-1 flows and hold on the scenarios they name
 * (through the runner and the real gate with stand-in acts; tests/e2e/flow_shipped runs them with the
 * real act tools through the CLI).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseFlowText, resolveFlowEnv } from "../../contracts/flow.ts";
import { runFlow } from "../../src/flow/runner.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { tempDir } from "../evidence/temp_dir.ts";
import { scenarioWorld } from "./scenario_world.ts";

const FLOWS = join(REPO_ROOT, "docs", "flows");
const SCENARIO_OF: Record<string, string> = { "settings-exploration.json": "settings", "login-form.json": "login" };
/** What the shipped flows read from the environment (login-form's password). */
const SHIPPED_ENV = { SHOP_PASSWORD: "Grüße-aus-Köln-ß" };

test("every shipped flow is valid and names its scenario here", () => {
  const files = readdirSync(FLOWS).filter((f) => f.endsWith(".json")).sort();
  assert.deepEqual(files, Object.keys(SCENARIO_OF).sort());
  for (const file of files) {
    const parsed = parseFlowText(readFileSync(join(FLOWS, file), "utf8"));
    assert.ok(parsed.ok, `${file}: ${JSON.stringify(!parsed.ok && parsed.problems)}`);
    assert.match(parsed.flow.description ?? "", new RegExp(`flow docs/flows/${file}`), `${file} says how to run it`);
    assert.equal(
      parsed.flow.sim_scenario ?? "settings",
      SCENARIO_OF[file],
      `${file} names the scenario it holds on (sim_scenario; settings is the default)`,
    );
  }
});

for (const [file, scenario] of Object.entries(SCENARIO_OF)) {
  test(`${file} holds on the ${scenario} scenario`, async (t) => {
    const parsed = parseFlowText(readFileSync(join(FLOWS, file), "utf8"));
    assert.ok(parsed.ok);
    const resolved = resolveFlowEnv(parsed.flow, SHIPPED_ENV);
    assert.ok(resolved.ok, JSON.stringify(!resolved.ok && resolved.problems));
    const world = scenarioWorld(scenario, tempDir(t, "amh-shipped-"));
    const run = await runFlow(resolved.flow, world.harness, { pollIntervalMs: 20 });
    assert.equal(run.outcome, "passed", JSON.stringify(run.failure));
  });
}
