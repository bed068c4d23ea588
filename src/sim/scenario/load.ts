/**
 * Turns what a user names into a playable, validated Scenario: a built-in name ("settings",
 * "login", …), a parsed JSON value, or JSON text (from `--scenario FILE`). Errors are HarnessError
 * INVALID_ARGUMENT that say which names exist or where the JSON broke.
 */
import { HarnessError } from "../../../contracts/errors.ts";
import { BUILTIN_SCENARIOS, DEFAULT_SCENARIO } from "../scenarios/mod.ts";
import type { Scenario } from "./types.ts";
import { validateScenario } from "./validate.ts";

export type ScenarioSource = string | Scenario | undefined;

/**
 * A built-in name, or a Scenario object; undefined = the default ("settings"). A Scenario object is validated; a
 * built-in one is the package's own typed data, checked once by its tests (tests/sim/scenario_device.test.ts), not on
 * every start (a first zod parse of a scenario costs a start about 0.05 CPU-seconds): a deep copy, as a parse gives.
 */
export function resolveScenario(source: ScenarioSource): Scenario {
  if (source === undefined) return structuredClone(BUILTIN_SCENARIOS[DEFAULT_SCENARIO]!);
  if (typeof source !== "string") return validateScenario(source);
  const builtin = BUILTIN_SCENARIOS[source];
  if (builtin === undefined) {
    throw new HarnessError(
      "INVALID_ARGUMENT",
      `There is no built-in scenario named "${source}". Use one of ${Object.keys(BUILTIN_SCENARIOS).join(", ")}, or pass a scenario file.`,
    );
  }
  return structuredClone(builtin);
}

/** JSON text of a scenario file; `origin` names the file in messages. */
export function parseScenarioText(text: string, origin: string): Scenario {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HarnessError(
      "INVALID_ARGUMENT",
      `The scenario file ${origin} is not valid JSON (${(error as Error).message}). Fix the file and start the sim again.`,
    );
  }
  return validateScenario(value, `scenario file ${origin}`);
}
