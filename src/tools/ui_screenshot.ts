/**
 * `ui_screenshot`: saves the full-resolution screen as PNG evidence (refused when it is one flat colour)
 * and answers with its size, its fingerprint (src/png/fingerprint.ts), a downscaled image for the model and a
 * `resource_link` to artifact://ID.
 * With `annotate: true` it also reads the screen summary (as ui_get_tree does), answers its `actions`
 * in `data` and draws each one's number (its position in `actions`) at its bounds on the model image (not for
 * one covered where a tap lands or under the keyboard);
 * the evidence PNG stays as captured. Read-only adb. Errors: EVIDENCE_WRITE_FAILED, UI_TREE_UNAVAILABLE
 * (annotate only), EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT.
 */
import { readScreen } from "../device/screen_reading.ts";
import { captureScreenshotWith } from "../device/screenshot.ts";
import { downscaleForModel, type Mark, screenFingerprint } from "../png/mod.ts";
import type { ToolHandler } from "../ports/operation.ts";
import type { ActionEntry } from "../screen/mod.ts";

/**
 * One mark per action a tap reaches, numbered by its position in `actions`: one drawn over where a tap lands
 * (`covered_by`: a sheet's option over a row) or under the open keyboard gets none, as its mark would sit on what
 * covers it.
 */
export function actionMarks(actions: readonly ActionEntry[]): Mark[] {
  return actions.flatMap((action, number) =>
    action.covered_by === undefined && action.covered_by_keyboard !== true ? [{ number, box: action.bounds }] : []
  );
}

export const uiScreenshotTool: ToolHandler<"ui_screenshot"> = {
  name: "ui_screenshot",
  async run(args, ctx, ports) {
    const wait = () => ({ timeoutMs: ctx.remainingMs(), signal: ctx.signal });
    // The summary first, then the pixels: both show the screen as it is when the call starts.
    const actions = args.annotate === true ? (await readScreen(ports.observer, wait())).summary.actions : undefined;
    // The model copy and the fingerprint are made while the evidence file is written.
    const pixelWork = (png: Uint8Array) => ({
      image: downscaleForModel(png, actions === undefined ? {} : { marks: actionMarks(actions) }),
      fingerprint: screenFingerprint(png),
    });
    const { shot, alongside } = await captureScreenshotWith(ports.observer, ports.evidence, "ui_screenshot", wait(), pixelWork);
    const { image, fingerprint } = alongside;
    ctx.attachEvidence(shot.evidence);
    const size = { width: shot.width, height: shot.height, fingerprint };
    return {
      data: actions === undefined ? size : { ...size, actions },
      content: [
        { type: "image", data: Buffer.from(image.bytes).toString("base64"), mimeType: image.mimeType },
        {
          type: "resource_link",
          uri: shot.evidence.uri,
          name: shot.evidence.artifact_id,
          mimeType: "image/png",
          description: `Full-resolution screenshot, ${shot.width}x${shot.height}${actions === undefined ? "" : " (without marks)"}`,
        },
      ],
    };
  },
};
