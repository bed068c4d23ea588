/**
 * `screen_record`: `start` has the device record its screen (ScreenRecordings: one recording a device, at most
 * `max_seconds`, 180 by default and at most); `stop` ends it and keeps its MP4 as evidence (`artifact://…mp4`,
 * served as video/mp4), named in the envelope and linked. A recording that reached its limit is kept the same way at
 * its stop. Errors: EMULATOR_BUSY (a recording runs on the device already), INVALID_ARGUMENT (stop without a
 * recording), EVIDENCE_WRITE_FAILED, EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT.
 */
import type { ToolHandler } from "../ports/operation.ts";

/** What one recording lasts at most: the device's `screenrecord` limit. */
const MAX_RECORDING_SECONDS = 180;

export const screenRecordTool: ToolHandler<"screen_record"> = {
  name: "screen_record",
  async run(args, ctx, ports) {
    const wait = { timeoutMs: ctx.remainingMs(), signal: ctx.signal };
    const udid = ports.observer.udid;
    if (args.action === "start") {
      const maxSeconds = MAX_RECORDING_SECONDS;
      await ports.recordings.start(udid, maxSeconds, wait);
      return { data: { recording: true, max_seconds: maxSeconds } };
    }
    const finished = await ports.recordings.stop(udid, wait);
    const ref = await ports.evidence.saveVideo("screen_record", finished.mp4);
    ctx.attachEvidence(ref);
    return {
      data: { recording: false, seconds: Math.round(finished.seconds * 10) / 10, reached_limit: finished.reachedLimit },
      content: [{
        type: "resource_link",
        uri: ref.uri,
        name: ref.artifact_id,
        mimeType: "video/mp4",
        description: `Screen recording, ${finished.seconds.toFixed(1)} s`,
      }],
    };
  },
};
