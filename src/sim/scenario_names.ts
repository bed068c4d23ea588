/**
 * The names of the built-in scenarios, without loading them: the CLI's help text lists them while the
 * simulated device itself is loaded only when a command starts one (a test checks this list against
 * BUILTIN_SCENARIOS).
 */
export const BUILTIN_SCENARIO_NAMES = ["settings", "launcher", "login", "flutter", "permission", "shop"] as const;
