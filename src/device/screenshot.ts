/**
 * Evidence capture: takes one screenshot through adb and stores it as the operation's PNG evidence
 * (ui_screenshot, every act's after-screen, a missed element's moment). Errors: EVIDENCE_WRITE_FAILED
 * (a flat one-colour image is refused by the store), EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT.
 */
import { pngSize } from "../png/mod.ts";
import type { DeviceObserver, WaitOptions } from "../ports/device.ts";
import type { EvidenceRef, EvidenceStore } from "../ports/evidence.ts";

export interface SavedScreenshot {
  evidence: EvidenceRef;
  png: Uint8Array;
  width: number;
  height: number;
}

/** Takes and stores one screenshot, named after the tool that took it. */
export async function captureScreenshot(
  observer: DeviceObserver,
  evidence: EvidenceStore,
  tool: string,
  wait: WaitOptions,
): Promise<SavedScreenshot> {
  const png = await observer.screenshot(wait);
  const { width, height } = pngSize(png);
  const ref = await evidence.savePng(tool, png);
  return { evidence: ref, png, width, height };
}
