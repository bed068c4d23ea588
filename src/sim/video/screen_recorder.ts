/**
 * What the simulated `screenrecord` writes: the screens the device showed from start to stop, a quarter of the
 * screen's size, as H.264 (I_PCM) in MP4. The screen is looked at every FRAME_MS; a frame is coded only when the
 * screen changed, and each frame lasts until the next one (or the stop), so the file's duration is the time recorded.
 */
import { idrSlice, pictureParameterSet, type PictureSize, rgbaToYuv420, sequenceParameterSet } from "./h264_pcm.ts";
import { writeMp4 } from "./mp4.ts";
import { pngPixels } from "./png_pixels.ts";

/** How often the screen is looked at (2 frames a second at most). */
export const FRAME_MS = 500;
/** The recorded picture is the screen shrunk by this factor each way. */
const SCALE = 4;

export class ScreenRecorder {
  readonly #screenPng: () => Uint8Array;
  readonly #now: () => number;
  readonly #startedAt: number;
  readonly #frames: { at: number; slice: Uint8Array }[] = [];
  #lastPng: Uint8Array | null = null;
  #size: PictureSize | null = null;

  /** `screenPng` answers the current screen (the same bytes while it is unchanged); `now` is the device's clock. */
  constructor(screenPng: () => Uint8Array, now: () => number) {
    this.#screenPng = screenPng;
    this.#now = now;
    this.#startedAt = now();
    this.look();
  }

  /** Looks at the screen: a new frame when it changed since the last one. */
  look(): void {
    const at = this.#now();
    const png = this.#screenPng();
    if (this.#lastPng !== null && sameBytes(png, this.#lastPng)) return;
    this.#lastPng = png;
    const image = pngPixels(png);
    // The first frame fixes the size (screenrecord keeps its size when the display rotates).
    const size = this.#size ??= { width: even(image.width / SCALE), height: even(image.height / SCALE) };
    const yuv = rgbaToYuv420(image.rgba, image.width, image.height, size, SCALE);
    this.#frames.push({ at, slice: idrSlice(size, yuv, this.#frames.length % 2) });
  }

  /** The MP4 of everything from the start until now, or until `limitMs` after the start when that came first. */
  finish(limitMs = Number.POSITIVE_INFINITY): Uint8Array {
    const end = Math.max(Math.min(this.#now(), this.#startedAt + limitMs), this.#startedAt + 1);
    while (this.#frames.length > 1 && this.#frames.at(-1)!.at >= end) this.#frames.pop();
    const size = this.#size!;
    const sps = sequenceParameterSet(size);
    const pps = pictureParameterSet();
    const samples = this.#frames.map((frame, i) => {
      const until = this.#frames[i + 1]?.at ?? end;
      const from = i === 0 ? this.#startedAt : frame.at;
      // SPS and PPS travel in the sample entry (avcC); each frame lasts at least one tick.
      return { nals: [frame.slice], duration: Math.max(1, Math.round(until - from)) };
    });
    return writeMp4({ width: size.width, height: size.height, timescale: 1000, sps, pps, samples });
  }
}

const even = (n: number) => Math.max(2, Math.floor(n / 2) * 2);

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
