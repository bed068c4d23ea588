/**
 * Evidence capture: takes one screenshot through adb and stores it as the operation's PNG evidence
 * (ui_screenshot, every act's after-screen, a missed element's moment). Errors: EVIDENCE_WRITE_FAILED
 * (a flat one-colour image is refused by the store), EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT. `captureScreenshotWith`
 * also runs the caller's pixel work (ui_screenshot's model copy) while the file is written.
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
  return (await captureScreenshotWith(observer, evidence, tool, wait, () => undefined)).shot;
}

/**
 * The moment of a miss (an element not found, covered, or still there), as the operation's evidence: what the agent
 * would have seen. Best effort: a capture that fails leaves the answer (the miss itself) without evidence.
 */
export async function attachMomentEvidence(
  ports: { observer: DeviceObserver; evidence: EvidenceStore },
  ctx: { attachEvidence(evidence: EvidenceRef): void },
  tool: string,
  wait: WaitOptions,
): Promise<void> {
  const shot = await captureScreenshot(ports.observer, ports.evidence, tool, wait).catch(() => null);
  if (shot !== null) ctx.attachEvidence(shot.evidence);
}

/**
 * Takes and stores one screenshot, and runs `alongside` on its bytes while the file is being written (the store's
 * one-colour check first: `alongside` never sees a refused capture): CPU work on the pixels overlaps the disk's.
 * Answers once both are done; a failed store fails the call as captureScreenshot does.
 */
export async function captureScreenshotWith<T>(
  observer: DeviceObserver,
  evidence: EvidenceStore,
  tool: string,
  wait: WaitOptions,
  alongside: (png: Uint8Array) => T,
): Promise<{ shot: SavedScreenshot; alongside: T }> {
  const png = await observer.screenshot(wait);
  const { width, height } = pngSize(png);
  const saving = evidence.savePng(tool, png);
  let value: T;
  try {
    value = alongside(png);
  } catch (error) {
    await saving.catch(() => {});
    throw error;
  }
  return { shot: { evidence: await saving, png, width, height }, alongside: value };
}
