/**
 * Port: screen recordings, one at a time per device (the device's `screenrecord`, kept by the server between the
 * calls that start and stop it). Throws only HarnessError: EMULATOR_BUSY (one runs on the device already, or a stop
 * is reading it),
 * INVALID_ARGUMENT (none runs), EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT.
 */
import type { WaitOptions } from "./device.ts";

export interface FinishedRecording {
  udid: string;
  /**
   * The recording's MP4: the device's segments (its `screenrecord` stops at 180 s; the next starts) joined into one, or,
   * when they could not be joined (one incomplete or unlike the others), each segment's own MP4, in order.
   */
  segments: Uint8Array[];
  /** How long it recorded (the server's clock), at most its limit. */
  seconds: number;
  /** Whether it reached its limit before it was stopped (the device had stopped it). */
  reachedLimit: boolean;
}

export interface ScreenRecordings {
  /** Starts recording device `udid` for at most `maxSeconds` (1 to 600), in segments of at most 180 s. */
  start(udid: string, maxSeconds: number, wait: WaitOptions): Promise<void>;
  /** Stops the device's recording and brings its MP4s back (the files on the device are removed). */
  stop(udid: string, wait: WaitOptions): Promise<FinishedRecording>;
  /** The devices recording now. */
  running(): string[];
}
