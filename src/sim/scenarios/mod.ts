/**
 * The built-in scenarios by name; "settings" is the default. Each is plain data (a Scenario) that
 * still passes through validateScenario before a device plays it. The names are contracts/scenario_names.ts's
 * (the CLI lists them without loading the simulated device): one missing here, or one more, does not compile.
 */
import type { BuiltinScenarioName } from "../../../contracts/scenario_names.ts";
import type { Scenario } from "../scenario/types.ts";
import { CANVAS_SCENARIO } from "./canvas_game.ts";
import { FLUTTER_SCENARIO } from "./flutter_tabs.ts";
import { LAUNCHER_SCENARIO } from "./launcher_notes.ts";
import { LOGIN_SCENARIO } from "./login_form.ts";
import { PERMISSION_SCENARIO } from "./permission_dialog.ts";
import { SETTINGS_SCENARIO } from "./settings.ts";
import { SHOP_SCENARIO } from "./shop_hands.ts";

export const BUILTIN_SCENARIOS: Readonly<Record<string, Scenario>> = {
  settings: SETTINGS_SCENARIO,
  launcher: LAUNCHER_SCENARIO,
  login: LOGIN_SCENARIO,
  flutter: FLUTTER_SCENARIO,
  permission: PERMISSION_SCENARIO,
  shop: SHOP_SCENARIO,
  canvas: CANVAS_SCENARIO,
} satisfies Record<BuiltinScenarioName, Scenario>;

export const DEFAULT_SCENARIO: BuiltinScenarioName = "settings";
