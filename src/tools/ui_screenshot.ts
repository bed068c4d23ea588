/**
 * `ui_screenshot`: saves the full-resolution screen as PNG evidence (refused when it is one flat colour)
 * and answers with its size, a downscaled image for the model and a `resource_link` to artifact://ID.
 * Read-only adb. Errors: EVIDENCE_WRITE_FAILED, EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT.
 */
import { downscaleForModel } from "../adapters/evidence/downscale.ts";
import { pngSize } from "../adapters/evidence/png_pixels.ts";
import type { DeviceObserver, WaitOptions } from "../ports/device.ts";
import type { EvidenceRef, EvidenceStore } from "../ports/evidence.ts";
import { defineTool } from "./tool_definition.ts";

export interface SavedScreenshot {
  evidence: EvidenceRef;
  png: Uint8Array;
  width: number;
  height: number;
}

/** Takes and stores one screenshot; shared with the act tools' after-action evidence. */
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

export const uiScreenshotTool = defineTool({
  name: "ui_screenshot",
  async run(_args, ctx, ports) {
    const shot = await captureScreenshot(ports.observer, ports.evidence, "ui_screenshot", {
      timeoutMs: ctx.remainingMs(),
      signal: ctx.signal,
    });
    ctx.attachEvidence(shot.evidence);
    const image = downscaleForModel(shot.png);
    return {
      data: { width: shot.width, height: shot.height },
      content: [
        { type: "image", data: Buffer.from(image.bytes).toString("base64"), mimeType: image.mimeType },
        {
          type: "resource_link",
          uri: shot.evidence.uri,
          name: shot.evidence.artifact_id,
          mimeType: "image/png",
          description: `Full-resolution screenshot, ${shot.width}x${shot.height}`,
        },
      ],
    };
  },
});
