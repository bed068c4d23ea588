/**
 * `device_press`: presses one key of a closed list through the UI session: home, app_switch (recents),
 * enter and delete as key events (`mobile: pressKey`), notifications by pulling the shade down
 * (`mobile: openNotifications`). Back is device_back. Answers the settled new screen with evidence.
 * Errors: INVALID_ARGUMENT (a key not in the list), APPIUM_UNAVAILABLE, EMULATOR_BUSY, SESSION_NOT_FOUND, OPERATION_TIMEOUT.
 */
import { checked, defineActTool } from "../device/act.ts";

export const devicePressTool = defineActTool("device_press", {
  async act({ driver, ctx }, { key }) {
    if (key === "notifications") await checked(ctx, () => driver.openNotifications());
    else await checked(ctx, () => driver.pressKey(key));
    return { key };
  },
});
