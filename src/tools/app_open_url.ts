/**
 * `app_open_url`: opens a deep link through the UI session (`mobile: deepLink`: a VIEW intent for the URL,
 * optionally only in `package`); the URL's shape and scheme are checked by its declaration
 * (contracts/tool_inputs.ts UrlSchema) before anything reaches the device. Answers the settled new screen
 * with evidence. Errors: INVALID_ARGUMENT (a refused URL), INVALID_PACKAGE, APP_NOT_FOUND (the package is
 * not installed, checked before any session, or nothing handles the link), APPIUM_UNAVAILABLE, EMULATOR_BUSY,
 * SESSION_NOT_FOUND, OPERATION_TIMEOUT.
 */
import { checked, defineActTool } from "../device/act.ts";
import { checkInstalled } from "../device/launch.ts";

export const appOpenUrlTool = defineActTool("app_open_url", {
  before: async (args, ctx, ports) => {
    if (args.package !== undefined) await checkInstalled(args.package, ports, { timeoutMs: ctx.remainingMs(), signal: ctx.signal });
  },
  async act({ driver, ctx }, args) {
    await checked(ctx, () => driver.deepLink(args.url, args.package));
    return { url: args.url };
  },
});
