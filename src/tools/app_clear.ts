/**
 * `app_clear`: stops an installed package and deletes all its data (`mobile: clearApp`, i.e. `pm clear`):
 * the app starts next as freshly installed (signed out). Destructive. Answers the settled new screen with
 * evidence. Errors: INVALID_PACKAGE (validation), APP_NOT_FOUND (not installed: checked before any session,
 * or the clear failed), APPIUM_UNAVAILABLE, EMULATOR_BUSY, SESSION_NOT_FOUND, OPERATION_TIMEOUT.
 */
import { checked, defineActTool } from "../device/act.ts";
import { checkInstalled } from "../device/launch.ts";

export const appClearTool = defineActTool("app_clear", {
  before: (args, ctx, ports) => checkInstalled(args.package, ports, { timeoutMs: ctx.remainingMs(), signal: ctx.signal }),
  async act({ driver, ctx }, args) {
    await checked(ctx, () => driver.clearApp(args.package));
    return { package: args.package };
  },
});
