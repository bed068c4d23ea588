/**
 * `app_launch`: brings an installed package to the foreground through Appium and waits actively until
 * it is there; answers the settled new screen with evidence. Errors: INVALID_PACKAGE (validation),
 * APP_NOT_FOUND (not installed), OPERATION_TIMEOUT (never reached the foreground), APPIUM_UNAVAILABLE,
 * EMULATOR_BUSY, SESSION_NOT_FOUND.
 */
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import { performAct } from "../device/act.ts";
import { checkInstalled, launchAndWait } from "../device/launch.ts";
import { HarnessError } from "../errors.ts";
import { defineTool } from "./tool_definition.ts";

export const appLaunchTool = defineTool({
  name: "app_launch",
  async run(args, ctx, ports) {
    await checkInstalled(args.package, ports, { timeoutMs: ctx.remainingMs(), signal: ctx.signal });
    return performAct("app_launch", args.session_id, ctx, ports, async ({ driver }) => {
      if (!(await launchAndWait(driver, args.package, ports, ctx))) {
        throw new HarnessError("OPERATION_TIMEOUT",
          `"${args.package}" did not reach the foreground within ${ACT_DEFAULTS.foregroundWaitMs / 1000} s of being launched; check the device screen (a crash or a dialog) and retry.`,
          { package: args.package });
      }
      return { package: args.package };
    });
  },
});
