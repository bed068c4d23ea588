/**
 * `settings_open`: brings Android Settings (com.android.settings) to the foreground through Appium and
 * waits until it is there; answers the settled new screen with evidence. Errors: SETTINGS_FOREGROUND_FAILED,
 * APPIUM_UNAVAILABLE, EMULATOR_BUSY, SESSION_NOT_FOUND, OPERATION_TIMEOUT.
 */
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import { defineActTool } from "../device/act.ts";
import { launchAndWait } from "../device/launch.ts";
import { HarnessError, isHarnessError } from "../errors.ts";

export const SETTINGS_PACKAGE = "com.android.settings";

export const settingsOpenTool = defineActTool("settings_open", {
  async act({ driver, ports, ctx }) {
    let arrived = false;
    let why = `it was not in the foreground within ${ACT_DEFAULTS.foregroundWaitMs / 1000} s`;
    try {
      arrived = await launchAndWait(driver, SETTINGS_PACKAGE, ports, ctx);
    } catch (error) {
      if (!isHarnessError(error) || error.code !== "APP_NOT_FOUND") throw error;
      why = error.message;
    }
    if (!arrived) {
      throw new HarnessError(
        "SETTINGS_FOREGROUND_FAILED",
        `Settings did not come to the foreground: ${why}. Check the device screen and retry.`,
      );
    }
    return {};
  },
});
