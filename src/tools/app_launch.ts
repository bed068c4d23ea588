/**
 * `app_launch`: brings an installed package to the foreground through Appium and waits actively until
 * it is there; with `restart`, force-stops it first (`mobile: terminateApp`; `stopped` says whether it was
 * running), so it starts from its first screen (its data kept: app_clear deletes that); answers the settled new screen with evidence. Errors: INVALID_PACKAGE (validation),
 * APP_NOT_FOUND (not installed), OPERATION_TIMEOUT (never reached the foreground), APPIUM_UNAVAILABLE,
 * EMULATOR_BUSY, SESSION_NOT_FOUND.
 */
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import { checked, defineActTool } from "../device/act.ts";
import { checkInstalled, launchAndWait } from "../device/launch.ts";
import { HarnessError } from "../errors.ts";

export const appLaunchTool = defineActTool("app_launch", {
  before: (args, ctx, ports) => checkInstalled(args.package, ports, { timeoutMs: ctx.remainingMs(), signal: ctx.signal }),
  async act({ driver, ports, ctx }, args) {
    const stopped = args.restart === true ? await checked(ctx, () => driver.terminateApp(args.package)) : undefined;
    if (!(await launchAndWait(driver, args.package, ports, ctx))) {
      throw new HarnessError(
        "OPERATION_TIMEOUT",
        `"${args.package}" did not reach the foreground within ${
          ACT_DEFAULTS.foregroundWaitMs / 1000
        } s of being launched; check the device screen (a crash or a dialog) and retry.`,
        { package: args.package },
      );
    }
    return { package: args.package, ...(stopped === undefined ? {} : { stopped }) };
  },
});
