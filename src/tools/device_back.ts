/**
 * `device_back`: presses Back through the UI session. With the soft keyboard open, Back closes it
 * (Android's own rule); `keyboard_closed` says so. Answers the settled new screen with evidence.
 * Errors: APPIUM_UNAVAILABLE, EMULATOR_BUSY, SESSION_NOT_FOUND, OPERATION_TIMEOUT.
 */
import { checked, performAct } from "../device/act.ts";
import { defineTool } from "./tool_definition.ts";

export const deviceBackTool = defineTool({
  name: "device_back",
  run(args, ctx, ports) {
    return performAct("device_back", args.session_id, ctx, ports, async ({ driver }) => {
      const keyboardOpen = await checked(ctx, () => driver.isKeyboardShown());
      await checked(ctx, () => driver.back());
      return { keyboard_closed: keyboardOpen };
    });
  },
});
