/**
 * Whether this build serves the act tools (ACT_CONTRACT.md step 2): end-to-end flow tests need them
 * and are skipped, visibly and with this reason, when they are not served.
 */
import { SERVED_TOOLS } from "../../src/tools/mod.ts";

export function actToolsSkipReason(): string | false {
  const served = new Set(SERVED_TOOLS.map((t) => t.name));
  const missing = [
    "ui_session_open",
    "ui_session_close",
    "settings_open",
    "app_launch",
    "ui_tap",
    "ui_type_text",
    "ui_scroll",
    "device_back",
  ]
    .filter((name) => !served.has(name as never));
  return missing.length === 0 ? false : `this build does not serve the act tools yet (${missing.join(", ")})`;
}
