/**
 * `ui_get_tree`: the screen summary of SPEC §5 from a fresh uiautomator dump (never an old screen), with
 * the raw XML (password fields' text blanked) only when `include_raw` is true. Read-only adb. Errors: UI_TREE_UNAVAILABLE,
 * EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT. The reading itself is device/screen_reading.ts.
 */
import { readScreen } from "../device/screen_reading.ts";
import type { ToolHandler } from "../ports/operation.ts";

export const uiGetTreeTool: ToolHandler<"ui_get_tree"> = {
  name: "ui_get_tree",
  async run(args, ctx, ports) {
    const { summary, xml } = await readScreen(ports.observer, { timeoutMs: ctx.remainingMs(), signal: ctx.signal }, ctx.device);
    return { data: args.include_raw === true ? { ...summary, raw: xml } : { ...summary } };
  },
};
