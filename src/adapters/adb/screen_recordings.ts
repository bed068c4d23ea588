/**
 * Screen recordings over adb: `adb exec-out screenrecord --time-limit N /data/local/tmp/amh-rec-….mp4`, a child the
 * server keeps while the device records (one per device). Stopping ends that child (the runner kills it): its
 * connection closes, adbd hangs up the command and `screenrecord` finishes its file on that SIGHUP as on SIGINT
 * (what Maestro's recording relies on too: it closes the shell stream). The server then waits until no
 * `screenrecord` runs on the device (at most FINISH_WAIT_MS), reads the file with `exec-out cat` and removes it.
 * A recording that reached its limit ended by itself; its file is read the same way.
 */
import { HarnessError } from "../../errors.ts";
import type { Clock } from "../../ports/clock.ts";
import type { WaitOptions } from "../../ports/device.ts";
import type { ProcessResult } from "../../ports/process_runner.ts";
import type { FinishedRecording, ScreenRecordings } from "../../ports/screen_recording.ts";
import type { AdbClient } from "./adb_client.ts";
import { ADB_COMMANDS } from "./adb_commands.ts";

/** How long `screenrecord` may take to finish its file after the hang-up before the server reads what is there. */
const FINISH_WAIT_MS = 5_000;
/** How long a start waits for `screenrecord` to refuse (a missing directory, no such program) before it says it runs. */
const START_CHECK_MS = 300;
/** The device's `screenrecord` records 180 s at most. */
const MAX_RECORDING_SECONDS = 180;

interface Running {
  path: string;
  startedAt: number;
  maxSeconds: number;
  stop: AbortController;
  /** The child's end: its result, or the error adb gave. */
  ended: Promise<ProcessResult | HarnessError>;
  done: boolean;
}

export function createAdbScreenRecordings(options: { adb: AdbClient; clock: Clock }): ScreenRecordings {
  const { adb, clock } = options;
  const running = new Map<string, Running>();
  let counter = 0;

  const start = async (udid: string, maxSeconds: number, wait: WaitOptions): Promise<void> => {
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
    const path = `/data/local/tmp/amh-rec-${Math.floor(clock.now())}-${process.pid}-${++counter}.mp4`;
    const stop = new AbortController();
    const entry: Running = {
      path,
      startedAt: clock.now(),
      maxSeconds,
      stop,
      done: false,
      ended: adb.run(ADB_COMMANDS.screenrecord(maxSeconds, path), {
        serial: udid,
        timeoutMs: (maxSeconds + 60) * 1000,
        signal: stop.signal,
      }).then(
        (result) => result,
        (error: unknown) => error instanceof HarnessError ? error : new HarnessError("INTERNAL_ERROR", String(error)),
      ),
    };
    void entry.ended.then(() => (entry.done = true));
    running.set(udid, entry);
    // A refusal comes at once (the device's screenrecord checks its file first); silence means it records.
    await Promise.race([entry.ended, clock.sleep(Math.min(START_CHECK_MS, wait.timeoutMs), wait.signal).catch(() => {})]);
    if (!entry.done) return;
    running.delete(udid);
    const ended = await entry.ended;
    if (ended instanceof HarnessError) throw ended;
    throw new HarnessError(
      "EMULATOR_UNAVAILABLE",
      `The device refused to record its screen (screenrecord: ${ended.stderr.trim() || `exit ${ended.exitCode}`}); check it with doctor.`,
      { udid },
    );
  };

  const stopRecording = async (udid: string, wait: WaitOptions): Promise<FinishedRecording> => {
    const entry = running.get(udid);
    if (entry === undefined) {
      throw new HarnessError(
        "INVALID_ARGUMENT",
        `No screen recording runs on ${udid}: start one with screen_record action "start" first (a recording ends only by a stop).`,
        { udid },
      );
    }
    running.delete(udid);
    const reachedLimit = entry.done;
    entry.stop.abort();
    const ended = await entry.ended;
    const seconds = Math.min(entry.maxSeconds, Math.max(0, (clock.now() - entry.startedAt) / 1000));
    if (ended instanceof HarnessError && ended.code === "EMULATOR_UNAVAILABLE") throw ended;
    // screenrecord writes the end of its file after the hang-up: wait until it is gone.
    const finishBy = clock.now() + Math.min(FINISH_WAIT_MS, wait.timeoutMs);
    while (clock.now() < finishBy) {
      const pids = await adb.run(ADB_COMMANDS.pidofScreenrecord(), { serial: udid, ...wait }).catch(() => null);
      if (pids === null || pids.stdout.toString("utf8").trim() === "") break;
      await clock.sleep(100, wait.signal);
    }
    const file = await adb.run(ADB_COMMANDS.readRecording(entry.path), { serial: udid, ...wait });
    await adb.run(ADB_COMMANDS.removeRecording(entry.path), { serial: udid, ...wait }).catch(() => {});
    return { udid, mp4: new Uint8Array(file.stdout), seconds, reachedLimit };
  };

  return { start, stop: stopRecording, running: () => [...running.keys()] };
}
