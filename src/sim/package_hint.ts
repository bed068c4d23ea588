/**
 * For the simulated device's APP_NOT_FOUND: which built-in scenario has the package, so the user learns the
 * `--scenario` (or a flow's "sim_scenario") to start with. Plain data over BUILTIN_SCENARIOS; no I/O.
 */
import { BUILTIN_SCENARIOS } from "./scenarios/mod.ts";

/** One sentence to append to "Package … is not installed", naming the scenarios that install it. */
export function missingPackageHint(packageName: string): string {
  const having = Object.entries(BUILTIN_SCENARIOS)
    .filter(([, scenario]) => scenario.packages.some((p) => p.name === packageName))
    .map(([name]) => name);
  if (having.length === 0) {
    return `No built-in scenario of the simulated device installs it (${Object.keys(BUILTIN_SCENARIOS).join(", ")}); a scenario file can.`;
  }
  const first = having[0]!;
  const names = having.map((n) => `"${n}"`);
  const which = names.length === 1
    ? `the built-in scenario ${names[0]} does`
    : `the built-in scenarios ${names.slice(0, -1).join(", ")} and ${names.at(-1)} do`;
  return `The simulated device's scenario does not install it; ${which}: ` +
    `start with --scenario ${first} (a flow file can say "sim_scenario": "${first}").`;
}
