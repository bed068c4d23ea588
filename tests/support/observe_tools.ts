/**
 * The observe tools a test can call with no arguments, from the declarations (contracts/tools.ts): every
 * published tool declared `observe` whose input accepts `{}` (ui_wait needs a selector), so a new observe tool
 * is in each test that promises something of them all (no device, a held device, observing never navigates)
 * without an edit.
 */
import { AVAILABLE_TOOL_NAMES, TOOL_CONTRACT_BY_NAME, TOOL_INPUTS } from "../../contracts/tools.ts";

export const ARGUMENT_FREE_OBSERVE_TOOLS: readonly string[] = AVAILABLE_TOOL_NAMES.filter((name) =>
  TOOL_CONTRACT_BY_NAME[name].annotations.readOnlyHint && TOOL_INPUTS[name].safeParse({}).success
);
