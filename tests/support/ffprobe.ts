/**
 * Debian's ffprobe and ffmpeg (package `ffmpeg`, which `.ci/run` installs) read the MP4 recordings: the duration and
 * frame count ffprobe reports, a decode without error, a frame's pixels. `ffprobeSkipReason()` says why a test cannot.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

function onPath(name: string): string | null {
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) if (dir !== "" && existsSync(join(dir, name))) return join(dir, name);
  return null;
}

export function ffprobeSkipReason(): string | false {
  return onPath("ffprobe") !== null && onPath("ffmpeg") !== null ? false : "ffprobe/ffmpeg not installed (apt-get install ffmpeg)";
}

export interface VideoFacts {
  codec: string;
  width: number;
  height: number;
  frames: number;
  /** The container's duration, in seconds. */
  duration: number;
}

export function probeVideo(path: string): VideoFacts {
  const out = execFileSync("ffprobe", [
    "-v",
    "error",
    "-select_streams",
    "v:0",
    "-count_frames",
    "-show_entries",
    "stream=codec_name,width,height,nb_read_frames:format=duration",
    "-of",
    "json",
    path,
  ], { encoding: "utf8", timeout: 60_000 });
  const json = JSON.parse(out) as { streams: Record<string, string | number>[]; format: { duration: string } };
  const s = json.streams[0]!;
  return {
    codec: String(s["codec_name"]),
    width: Number(s["width"]),
    height: Number(s["height"]),
    frames: Number(s["nb_read_frames"]),
    duration: Number(json.format.duration),
  };
}

/** Every frame decoded as RGB (24 bits a pixel), in order; throws when ffmpeg reports any error. */
export function decodeFrames(path: string, facts: VideoFacts): Uint8Array[] {
  const raw = execFileSync("ffmpeg", [
    "-v",
    "error",
    "-xerror",
    "-i",
    path,
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgb24",
    "-fps_mode",
    "passthrough",
    "-",
  ], {
    timeout: 60_000,
    maxBuffer: 512 * 1024 * 1024,
  });
  const size = facts.width * facts.height * 3;
  const frames: Uint8Array[] = [];
  for (let at = 0; at + size <= raw.length; at += size) frames.push(raw.subarray(at, at + size));
  return frames;
}
