/**
 * `ui_wait`: waits until an element the selector names is on screen (`visible`) or none is (`gone`), for
 * at most `timeout_ms` (default 5000, cut to what the action timeout leaves; at most 30000 and below it); answers the screen
 * summary once it holds. Read-only: reads through a held session like ui_get_tree, never opens one.
 * Errors: INVALID_SELECTOR, INVALID_ARGUMENT, UI_ELEMENT_NOT_FOUND (never appeared), OPERATION_TIMEOUT (never went).
 */
import { waitForCondition } from "../device/screen_wait.ts";
import type { ToolHandler } from "../ports/operation.ts";

export const uiWaitTool: ToolHandler<"ui_wait"> = {
  name: "ui_wait",
  async run(args, ctx, ports) {
    const condition = args.visible !== undefined ? { visible: args.visible } : { gone: args.gone! };
    const met = await waitForCondition(condition, args.timeout_ms, ctx, ports);
    return { data: { waited_ms: met.waitedMs, screen: met.reading.summary } };
  },
};
