/**
 * `ui_session_open`: opens a UI session (an Appium session) that holds the device for this server until
 * closed or idle for ANDROID_MCP_FLOW_IDLE_TIMEOUT; sends MCP progress while the driver starts. With
 * `package`, launches it and waits for the foreground (the session is closed again if that fails), then reads the
 * screen through the new session. Answers `session_id` and its expiry, and with `package` the screen summary (`screen`). Errors: INVALID_PACKAGE, APP_NOT_FOUND, OPERATION_TIMEOUT,
 * APPIUM_UNAVAILABLE, EMULATOR_BUSY (another owner, or a session already open here).
 */
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import { checked, summaryOf, uiOperation } from "../device/act.ts";
import { deviceOf } from "../device/device_handle.ts";
import { checkInstalled, launchAndWait } from "../device/launch.ts";
import { HarnessError } from "../errors.ts";
import { captureScreenshot } from "../device/screenshot.ts";
import type { ToolHandler } from "../ports/operation.ts";
import type { ScreenSummary } from "../screen/mod.ts";

export const uiSessionOpenTool: ToolHandler<"ui_session_open"> = {
  name: "ui_session_open",
  async run(args, ctx, ports) {
    const wait = () => ({ timeoutMs: ctx.remainingMs(), signal: ctx.signal });
    if (args.package !== undefined) await checkInstalled(args.package, ports, wait());
    const device = deviceOf(ctx);
    const session = await device.open(uiOperation(ctx));
    if (args.package === undefined) return { data: { ...session } };
    const pkg = args.package;
    let screen: ScreenSummary;
    try {
      screen = await device.withDriver(uiOperation(ctx), async (driver) => { // in the session just opened
        if (!(await launchAndWait(driver, pkg, ports, ctx))) {
          throw new HarnessError(
            "OPERATION_TIMEOUT",
            `"${pkg}" did not reach the foreground within ${
              ACT_DEFAULTS.foregroundWaitMs / 1000
            } s; the session was closed again. Check the device screen and retry.`,
            { package: pkg },
          );
        }
        return summaryOf(await checked(ctx, () => driver.source()), ports, wait());
      });
      const shot = await captureScreenshot(ports.observer, ports.evidence, "ui_session_open", wait());
      ctx.attachEvidence(shot.evidence);
    } catch (error) {
      await ports.ui.close(session.session_id, ctx.operationId).catch(() => {});
      throw error;
    }
    return { data: { ...(ports.ui.describe(session.session_id) ?? session), package: pkg, foreground_package: pkg, screen } };
  },
};
