/**
 * `app_uninstall`: removes an installed package and all its data (`adb uninstall`). Destructive. A package that
 * is not installed is APP_NOT_FOUND before any session (saying to list packages with app_list); the harness's own
 * helpers are refused as arguments (removing one ends the UI session). Answers the settled new screen (the app's
 * screens are gone). Errors: INVALID_PACKAGE, APP_NOT_FOUND, EMULATOR_BUSY, SESSION_NOT_FOUND,
 * EMULATOR_UNAVAILABLE, APPIUM_UNAVAILABLE, OPERATION_TIMEOUT, ACT_UNCONFIRMED.
 */
import { checked, defineActTool } from "../device/act.ts";
import { checkInstalled } from "../device/launch.ts";

export const appUninstallTool = defineActTool("app_uninstall", {
  before: (args, ctx, ports) => checkInstalled(args.package, ports, { timeoutMs: ctx.remainingMs(), signal: ctx.signal }),
  async act({ ports, ctx }, args) {
    await checked(ctx, () => {
      ctx.noteActed("sent"); // only once the call limit let it go to the device
      return ports.apps.uninstall(ports.observer.udid, args.package, { timeoutMs: ctx.remainingMs(), signal: ctx.signal });
    });
    return { package: args.package };
  },
});
