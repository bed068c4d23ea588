/**
 * A flow harness over a scenario device in process, for the runner's own tests: the lead's act world
 * (tests/support/act_world.ts: the real served tools, the real UI session layer and its session-aware
 * lock over a recording file lock, a driver and an observer reading the same ScenarioDevice) with a real
 * evidence store and audit log in a temporary directory, so reports embed real screenshots. Every call
 * passes the real gate (runOperation). The end-to-end tests drive the real CLI over adb and WebDriver.
 * `virtualScenarioWorld` is the same world on the virtual clock, with the act world's in-memory evidence and
 * audit: for a runner test whose promise is about time (no real file I/O, so the virtual time is exact).
 */
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import { createAuditLog, createEvidenceStore, createNodeFileSystem } from "../../src/adapters/evidence/mod.ts";
import type { FlowHarness } from "../../src/flow/runner.ts";
import type { Scenario } from "../../src/sim/mod.ts";
import { SERVED_TOOLS } from "../../src/tools/mod.ts";
import { type ActWorld, actWorld } from "../support/act_world.ts";
import { LOADED_WAIT_MS } from "../support/time_bounds.ts";

export interface ScenarioWorld extends ActWorld {
  harness: FlowHarness;
  artifactsDir: string;
}

/** On the virtual clock, evidence and audit in memory: the runner's waits are exact whatever the machine's load. */
export function virtualScenarioWorld(scenario: string | Scenario): ActWorld & { harness: FlowHarness } {
  const world = actWorld({ scenario, actionTimeoutMs: LOADED_WAIT_MS });
  return { ...world, harness: harnessOf(world) };
}

function harnessOf(world: ActWorld): FlowHarness {
  return { deps: world.deps, tools: SERVED_TOOLS, description: `simulated device ${world.device.serial}`, simulated: true };
}

export function scenarioWorld(
  scenario: string | Scenario,
  artifactsDir: string,
  options: { actionTimeoutMs?: number } = {},
): ScenarioWorld {
  // Real files, so real time; an operation limit a loaded machine never reaches unless a test asks for less.
  const world = actWorld({ scenario, actionTimeoutMs: LOADED_WAIT_MS, ...options, clock: createSystemClock() });
  const fs = createNodeFileSystem();
  const log = createAuditLog({ directory: artifactsDir, fs });
  const { audit } = world;
  world.deps.ports.evidence = createEvidenceStore({ directory: artifactsDir, fs, clock: world.deps.clock });
  world.deps.audit = {
    append: async (record) => {
      audit.push(record);
      await log.append(record);
    },
  };
  return {
    ...world,
    artifactsDir,
    harness: harnessOf(world),
  };
}
