/**
 * `ui_get_tree`: the screen summary of SPEC §5 from a fresh uiautomator dump (never an old screen), with
 * the raw XML (password fields' text blanked) only when `include_raw` is true. Read-only adb. Errors: UI_TREE_UNAVAILABLE,
 * EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT.
 */
import { isHarnessError } from "../errors.ts";
import type { DeviceObserver, WaitOptions } from "../ports/device.ts";
import type { UiSessions } from "../ports/ui_sessions.ts";
import { maskPasswordText, summaryFromCapture } from "../screen/mod.ts";
import type { ScreenSummary } from "../screen/types.ts";
import { defineTool } from "./tool_definition.ts";

export interface ScreenReading {
  summary: ScreenSummary;
  xml: string;
}

/**
 * Captures and summarizes the current screen through summaryFromCapture (as `tree` on a live device
 * does). While this server holds a UI session on the device, the XML is the session's page source
 * (`uiautomator dump` can fail then: one UiAutomation connection at a time); observing never opens one.
 * A session that Appium ended is dropped and the screen is dumped through adb instead.
 */
export async function readScreen(observer: DeviceObserver, wait: WaitOptions, ui?: UiSessions): Promise<ScreenReading> {
  const held = ui?.heldDriver(observer.udid) ?? null;
  if (held !== null) {
    const xml = await held.source().catch((error: unknown) => {
      if (isHarnessError(error) && error.code === "SESSION_NOT_FOUND") return null; // the session died: adb can dump again
      throw error;
    });
    if (xml !== null) {
      const context = await observer.screenContext(wait);
      return { summary: summaryFromCapture({ xml, ...context }).summary, xml: maskPasswordText(xml) };
    }
  }
  const capture = await observer.captureTree(wait);
  return { summary: summaryFromCapture(capture).summary, xml: maskPasswordText(capture.xml) };
}

export const uiGetTreeTool = defineTool({
  name: "ui_get_tree",
  async run(args, ctx, ports) {
    const { summary, xml } = await readScreen(ports.observer, { timeoutMs: ctx.remainingMs(), signal: ctx.signal }, ports.ui);
    return { data: args.include_raw === true ? { ...summary, raw: xml } : { ...summary } };
  },
});
