/**
 * The names of the simulated device's built-in scenarios: what `--scenario` and a flow file's "sim_scenario" accept.
 * The CLI's help text lists them without loading the simulated device (it loads only when a command starts one);
 * the simulated device's BUILTIN_SCENARIOS is typed by them, so a scenario added or removed there without this list
 * does not compile.
 */
export const BUILTIN_SCENARIO_NAMES = ["settings", "launcher", "login", "flutter", "permission", "shop", "canvas"] as const;

export type BuiltinScenarioName = typeof BUILTIN_SCENARIO_NAMES[number];

/** The most simulated devices one adb server serves (`--devices N` of `sim`, and of `serve`/`tree` with `--device sim`). */
export const MAX_SIM_DEVICES = 8;
