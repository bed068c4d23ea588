/**
 * `device_back`: presses Back through the UI session. With the soft keyboard open, Back closes it
 * (Android's own rule); `keyboard_closed` says so, and `changed` is true then (the keyboard is not in the page
 * source). Answers the settled new screen with evidence.
 * Errors: APPIUM_UNAVAILABLE, EMULATOR_BUSY, SESSION_NOT_FOUND, OPERATION_TIMEOUT.
 */
import { checked, defineActTool } from "../device/act.ts";

export const deviceBackTool = defineActTool("device_back", {
  asksKeyboard: true, // beside the read before Back
  async act({ driver, ctx, keyboardShown }) {
    const keyboardOpen = await keyboardShown();
    await checked(ctx, () => driver.back());
    return { keyboard_closed: keyboardOpen };
  },
  // The keyboard is not in the page source: Back that closed it changed the screen all the same.
  changedBeyondSource: (extra, screen) => extra.keyboard_closed && screen.keyboard?.open !== true,
});
