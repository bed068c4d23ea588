/**
 * `screen_record`: `start` has the device record its screen (ScreenRecordings: one recording a device, at most
 * MAX_RECORDING_SECONDS, in segments of 180 s, the device's `screenrecord` limit, joined into one MP4 at the stop);
 * `stop` keeps the MP4 as evidence (`artifact://…mp4`, served as video/mp4); segments the join did not read are each
 * kept: the first named in the envelope, every one linked and listed in `segments`. A recording that reached its limit is kept the same way at its stop;
 * a segment the device left incomplete is left out (said in `skipped`) unless none is complete. Errors: EMULATOR_BUSY (a recording runs on the device already), INVALID_ARGUMENT (stop without a
 * recording), EVIDENCE_WRITE_FAILED, EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT.
 */
import { keepRecording } from "../device/recording_evidence.ts";
import type { ToolHandler } from "../ports/operation.ts";

/** What one recording lasts at most (in segments of 180 s). */
const MAX_RECORDING_SECONDS = 600;

export const screenRecordTool: ToolHandler<"screen_record"> = {
  name: "screen_record",
  async run(args, ctx, ports) {
    const wait = { timeoutMs: ctx.remainingMs(), signal: ctx.signal };
    const udid = ports.observer.udid;
    if (args.action === "start") {
      await ports.recordings.start(udid, MAX_RECORDING_SECONDS, wait);
      return { data: { recording: true, max_seconds: MAX_RECORDING_SECONDS } };
    }
    const finished = await ports.recordings.stop(udid, wait);
    const { refs, failures } = await keepRecording(ports.evidence, finished.segments);
    ctx.attachEvidence(refs[0]!);
    const seconds = Math.round(finished.seconds * 10) / 10;
    return {
      data: {
        recording: false,
        seconds,
        reached_limit: finished.reachedLimit,
        ...(refs.length > 1 ? { segments: refs.map((ref) => ref.uri) } : {}),
        ...(failures.length > 0 ? { skipped: failures.length } : {}),
      },
      content: refs.map((ref, i) => ({
        type: "resource_link" as const,
        uri: ref.uri,
        name: ref.artifact_id,
        mimeType: "video/mp4",
        description: refs.length === 1 ? `Screen recording, ${seconds} s` : `Screen recording, segment ${i + 1} of ${refs.length}`,
      })),
    };
  },
};
