/**
 * Reading the current screen as a summary (SPEC §5) from a fresh capture, never an old screen: through
 * the UI session this server holds on the device when there is one (`uiautomator dump` can fail then: one
 * UiAutomation connection at a time), else through adb. Observing never opens a session. The XML answered
 * is the document without what the device printed around it, with the text of password fields and of the nodes under
 * them blanked (maskPasswordText); the summary never shows it either.
 */
import { isHarnessError } from "../errors.ts";
import type { DeviceObserver, WaitOptions } from "../ports/device.ts";
import type { DeviceHandle } from "../ports/ui_sessions.ts";
import { maskPasswordText, summaryFromCapture } from "../screen/mod.ts";
import type { ScreenSummary, UiTree } from "../screen/mod.ts";

export interface ScreenReading {
  summary: ScreenSummary;
  xml: string;
  /** The parsed XML the summary was made from (what a poller hands the locator). */
  tree: UiTree;
}

/**
 * Captures and summarizes the current screen through summaryFromCapture (as `tree` on a live device
 * does). While this server holds a UI session on the device, the XML is the session's page source.
 * A session that Appium ended is dropped and the screen is dumped through adb instead.
 */
export async function readScreen(observer: DeviceObserver, wait: WaitOptions, device?: DeviceHandle): Promise<ScreenReading> {
  const held = device?.heldDriver() ?? null;
  if (held !== null) {
    // The device's facts through adb beside the page source through the session: one wait instead of two.
    const [source, context] = await Promise.allSettled([held.source(), observer.screenContext(wait)]);
    if (source.status === "fulfilled") {
      if (context.status === "rejected") throw context.reason;
      const read = summaryFromCapture({ xml: source.value, ...context.value });
      return { ...read, xml: maskPasswordText(source.value, read.tree) };
    }
    const error: unknown = source.reason;
    if (!isHarnessError(error) || error.code !== "SESSION_NOT_FOUND") throw error; // else the session died: adb can dump again
  }
  const capture = await observer.captureTree(wait);
  const read = summaryFromCapture(capture);
  return { ...read, xml: maskPasswordText(capture.xml, read.tree) };
}
