/**
 * `ui_session_close`: closes a UI session of this server (deleted on the Appium side, device released).
 * Idempotent: an unknown, expired or already closed id answers ok with `closed: false`. Touches no device.
 * Errors: INVALID_ARGUMENT (malformed id), EMULATOR_BUSY (another operation is using the session now).
 */
import type { ToolHandler } from "../ports/operation.ts";

export const uiSessionCloseTool: ToolHandler<"ui_session_close"> = {
  name: "ui_session_close",
  async run(args, _ctx, ports) {
    const closed = await ports.ui.close(args.session_id);
    return { data: { session_id: args.session_id, closed } };
  },
};
