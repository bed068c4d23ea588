/**
 * Screen recordings over adb: `adb exec-out screenrecord --time-limit N --bit-rate 4000000 /data/local/tmp/amh-rec-….mp4`, a child the
 * server keeps while the device records (one per device). The device's `screenrecord` stops at 180 s: when a segment
 * ends by itself before the recording's limit, the next one starts at once (a new file), so a recording is a list of
 * segments of at most 180 s, joined at the stop into one MP4 (`../video/mp4_join.ts`; kept apart when the join does not
 * read one of them). Stopping ends the running child (the runner kills it):
 * its connection closes, adbd hangs up the command and `screenrecord` finishes its file on that SIGHUP as on SIGINT
 * (what Maestro's recording relies on too: it closes the shell stream). The server then waits until no
 * `screenrecord` runs on the device (at most FINISH_WAIT_MS), reads each file with `exec-out cat` and removes it.
 */
import { HarnessError } from "../../errors.ts";
import type { Clock } from "../../ports/clock.ts";
import type { WaitOptions } from "../../ports/device.ts";
import type { ProcessResult } from "../../ports/process_runner.ts";
import type { FinishedRecording, ScreenRecordings } from "../../ports/screen_recording.ts";
import { joinMp4Segments } from "../video/mp4_join.ts";
import type { AdbClient } from "./adb_client.ts";
import { isCompleteMp4, MAX_VIDEO_BYTES } from "../evidence/evidence_store.ts";
import { ADB_COMMANDS } from "./adb_commands.ts";

/** How long `screenrecord` may take to finish its file after the hang-up before the server reads what is there. */
const FINISH_WAIT_MS = 5_000;
/**
 * How long a start waits for `screenrecord` to refuse (a missing directory, no such program) before it says it runs;
 * a refusal that comes later (a slow adb) is said by the stop.
 */
const START_CHECK_MS = 1_000;
/** The longest recording (in segments). */
const MAX_RECORDING_SECONDS = 600;
/** The device's `screenrecord` records 180 s at most: one segment. */
export const SEGMENT_SECONDS = 180;

/** One `screenrecord` child: its file, how to end it, its end (its result, or the error adb gave). */
interface Segment {
  path: string;
  stop: AbortController;
  ended: Promise<ProcessResult | HarnessError>;
  done: boolean;
}

interface Running {
  startedAt: number;
  maxSeconds: number;
  segments: Segment[];
  /** Set by stop: no next segment starts. */
  stopping: boolean;
  /** The recording reached its limit (the last segment ended by itself there). */
  reachedLimit: boolean;
  /** When the first stop came (a stop whose read failed is retried). */
  stoppedAt?: number;
}

export interface ScreenRecordingOptions {
  adb: AdbClient;
  clock: Clock;
  /** The longest segment; SEGMENT_SECONDS unless a test makes it shorter. */
  segmentSeconds?: number;
  /** START_CHECK_MS unless a test on a loaded machine waits longer. */
  startCheckMs?: number;
  /** The largest file read and joined: the evidence store's MAX_VIDEO_BYTES unless a test makes it smaller. */
  maxVideoBytes?: number;
}

export function createAdbScreenRecordings(options: ScreenRecordingOptions): ScreenRecordings {
  const { adb, clock } = options;
  const segmentSeconds = options.segmentSeconds ?? SEGMENT_SECONDS;
  const startCheckMs = options.startCheckMs ?? START_CHECK_MS;
  const maxVideoBytes = options.maxVideoBytes ?? MAX_VIDEO_BYTES;
  const running = new Map<string, Running>();
  /** Devices whose recording a stop is reading: no start (a failed read puts that recording back) and no second stop. */
  const stopping = new Set<string>();
  let counter = 0;

  /** Starts one segment of at most `seconds`; when it ends by itself, the next (unless stopped or at the limit). */
  const startSegment = (udid: string, entry: Running, seconds: number): Segment => {
    const path = `/data/local/tmp/amh-rec-${Math.floor(clock.now())}-${process.pid}-${++counter}.mp4`;
    const stop = new AbortController();
    const segment: Segment = {
      path,
      stop,
      done: false,
      ended: adb.run(ADB_COMMANDS.screenrecord(seconds, path), { serial: udid, timeoutMs: (seconds + 60) * 1000, signal: stop.signal })
        .then(
          (result) => result,
          (error: unknown) => error instanceof HarnessError ? error : new HarnessError("INTERNAL_ERROR", String(error)),
        ),
    };
    entry.segments.push(segment);
    void segment.ended.then((ended) => {
      segment.done = true;
      // Only a segment that ended by itself (exit 0 at its time limit) is followed; a killed one (exit null) is not.
      if (entry.stopping || ended instanceof HarnessError || ended.exitCode !== 0 || refusedWords(ended) !== null) return;
      const left = entry.maxSeconds - (clock.now() - entry.startedAt) / 1000;
      if (left < 1) entry.reachedLimit = true;
      else startSegment(udid, entry, Math.min(segmentSeconds, Math.floor(left)));
    });
    return segment;
  };

  const start = async (udid: string, maxSeconds: number, wait: WaitOptions): Promise<void> => {
    if (stopping.has(udid)) throw stopUnderWay(udid);
    if (running.has(udid)) {
      throw new HarnessError(
        "EMULATOR_BUSY",
        `A screen recording already runs on ${udid}; stop it first (screen_record with action "stop"), then start another.`,
        { udid },
      );
    }
    if (!Number.isInteger(maxSeconds) || maxSeconds < 1 || maxSeconds > MAX_RECORDING_SECONDS) {
      throw new HarnessError("INVALID_ARGUMENT", `max_seconds must be a whole number from 1 to ${MAX_RECORDING_SECONDS}.`);
    }
    const entry: Running = { startedAt: clock.now(), maxSeconds, segments: [], stopping: false, reachedLimit: false };
    running.set(udid, entry);
    const first = startSegment(udid, entry, Math.min(segmentSeconds, maxSeconds));
    // A refusal comes at once (the device's screenrecord checks its file first); silence means it records.
    await Promise.race([first.ended, clock.sleep(Math.min(startCheckMs, wait.timeoutMs), wait.signal).catch(() => {})]);
    if (!first.done) return;
    const ended = await first.ended;
    if (!(ended instanceof HarnessError) && refusedWords(ended) === null) return; // a recording shorter than the check
    entry.stopping = true;
    running.delete(udid);
    throw refusal(udid, ended);
  };

  const stopRecording = async (udid: string, wait: WaitOptions): Promise<FinishedRecording> => {
    const entry = running.get(udid);
    if (stopping.has(udid)) throw stopUnderWay(udid);
    if (entry === undefined) {
      throw new HarnessError(
        "INVALID_ARGUMENT",
        `No screen recording runs on ${udid}: start one with screen_record action "start" first (a recording ends only by a stop).`,
        { udid },
      );
    }
    running.delete(udid);
    stopping.add(udid);
    try {
      return await finish(udid, entry, wait);
    } finally {
      stopping.delete(udid);
    }
  };

  /** Ends the recording's children, reads its files (keeping it for a retry when a read fails), removes and joins them. */
  const finish = async (udid: string, entry: Running, wait: WaitOptions): Promise<FinishedRecording> => {
    entry.stopping = true;
    const reachedLimit = entry.reachedLimit;
    for (const segment of entry.segments) segment.stop.abort();
    const ends = await Promise.all(entry.segments.map((segment) => segment.ended));
    entry.stoppedAt ??= clock.now(); // a retried stop (its read failed) says how long it recorded, not how long ago it began
    const seconds = Math.min(entry.maxSeconds, Math.max(0, (entry.stoppedAt - entry.startedAt) / 1000));
    const lost = ends.find((ended) => ended instanceof HarnessError && ended.code === "EMULATOR_UNAVAILABLE");
    if (lost !== undefined) throw lost;
    // The first segment refused after the start's check (nothing was recorded): the device's words.
    const first = ends[0]!;
    if (ends.length === 1 && !(first instanceof HarnessError) && refusedWords(first) !== null) throw refusal(udid, first);
    // screenrecord writes the end of its file after the hang-up: wait until it is gone.
    const finishBy = clock.now() + Math.min(FINISH_WAIT_MS, wait.timeoutMs);
    while (clock.now() < finishBy) {
      const pids = await adb.run(ADB_COMMANDS.pidofScreenrecord(), { serial: udid, ...wait }).catch(() => null);
      if (pids === null || pids.stdout.toString("utf8").trim() === "") break;
      await clock.sleep(100, wait.signal);
    }
    const segments: Uint8Array[] = [];
    try {
      for (const segment of entry.segments) {
        // Read up to the video evidence's limit (past the client's per-command cap); a longer file comes back cut,
        // which the evidence store refuses as incomplete.
        const file = await adb.run(ADB_COMMANDS.readRecording(segment.path), { serial: udid, ...wait, maxOutputBytes: maxVideoBytes });
        segments.push(new Uint8Array(file.stdout.buffer, file.stdout.byteOffset, file.stdout.byteLength)); // a view, not a copy
      }
    } catch (error) {
      // Nothing is lost: every file stays on the device and the recording stays here, stopped and unread, so the
      // retry of the stop the error asks for reads them all again.
      running.set(udid, entry);
      const failure = error instanceof HarnessError ? error : new HarnessError("INTERNAL_ERROR", String(error));
      throw new HarnessError(
        failure.code,
        `${failure.message} The recording is kept, stopped, its files on the device: call screen_record with action "stop" again to read them.`,
        { ...failure.details, udid },
      );
    }
    for (const segment of entry.segments) {
      await adb.run(ADB_COMMANDS.removeRecording(segment.path), { serial: udid, ...wait }).catch(() => {});
    }
    // A segment the device never wrote (the stop came before its screenrecord started) recorded nothing: left out.
    const written = segments.filter((bytes) => !isMissingFile(bytes));
    // None written: the device refused, and the stop's hang-up ended adb before its words came through.
    // (adb ended by the hang-up may have answered an error of its own: the device's part is what counts.)
    if (written.length === 0) throw first instanceof HarnessError ? refusal(udid, null) : refusal(udid, first);
    // The complete segments are joined into one MP4 (one the device left incomplete stays beside it, for the evidence
    // to count); when the join does not read them, or would pass the video evidence's limit (which the store would
    // refuse), they stay apart, each within it: nothing is lost.
    const complete = written.filter(isCompleteMp4);
    const joined = complete.length > 1 ? joinMp4Segments(complete, maxVideoBytes) : null;
    const kept = joined === null ? written : [joined, ...written.filter((bytes) => !isCompleteMp4(bytes))];
    return { udid, segments: kept, seconds, reachedLimit };
  };

  return { start, stop: stopRecording, running: () => [...running.keys()] };
}

/** toybox `cat`'s words for a file that is not there (`exec-out` gives no exit status): the device wrote no recording. */
function isMissingFile(bytes: Uint8Array): boolean {
  return bytes.length < 512 && /^cat: \S+: No such file or directory\s*$/.test(new TextDecoder().decode(bytes));
}

/**
 * Lines that say nothing was refused: AOSP screenrecord's encoder fallback (`WARNING: failed at WxH, retrying at WxH`,
 * then it records) and the adb client's own start of its server (`* daemon not running; starting now ...`).
 */
const NOT_A_REFUSAL = /^(WARNING: |\* daemon |\s*$)/;

/**
 * What `screenrecord` said when it refused, or null when it recorded: `exec-out` is raw (no exit status, its stderr
 * in stdout), and `screenrecord` prints nothing when it records (no `--verbose`), so any text or a failing exit is a refusal.
 * A child killed by a signal (exit null: the stop's abort, or the harness's own stop killing its children) hung up
 * the device's `screenrecord`, which finishes its file as on a stop: not a refusal.
 */
function refusedWords(ended: ProcessResult): string | null {
  const words = `${ended.stdout.toString("utf8")}${ended.stderr}`
    .split("\n")
    .filter((line) => !NOT_A_REFUSAL.test(line))
    .join("\n")
    .trim();
  if (words !== "") return words;
  return ended.exitCode !== 0 && ended.exitCode !== null && !ended.aborted ? `exit ${ended.exitCode}` : null;
}

function stopUnderWay(udid: string): HarnessError {
  return new HarnessError(
    "EMULATOR_BUSY",
    `A stop of the screen recording on ${udid} is under way (reading its files); wait for its answer, then start again.`,
    { udid },
  );
}

/** The device's `screenrecord` refused (its words), or adb failed (its error). */
function refusal(udid: string, ended: ProcessResult | HarnessError | null): HarnessError {
  if (ended instanceof HarnessError) return ended;
  return new HarnessError(
    "EMULATOR_UNAVAILABLE",
    `The device refused to record its screen (screenrecord: ${
      (ended && refusedWords(ended)) ?? "no file"
    }); nothing was recorded: start a new recording, and if it is refused again, check the device with doctor.`,
    { udid },
  );
}
