/**
 * An MP4 file of one H.264 video track (ISO/IEC 14496-12 and -15): ftyp, then moov (sample tables: each sample its
 * own chunk, one `stts` entry per run of equal durations), then mdat, so a player can start before the end.
 */
import { LEVEL, PROFILE_BASELINE, PROFILE_CONSTRAINTS } from "./h264_pcm.ts";

export interface Mp4Video {
  width: number;
  height: number;
  /** Ticks a second of the durations. */
  timescale: number;
  sps: Uint8Array;
  pps: Uint8Array;
  /** Each sample: its NAL units (written length-prefixed) and how long it shows, in ticks. */
  samples: readonly { nals: readonly Uint8Array[]; duration: number }[];
}

const text = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

function u32(n: number): Uint8Array {
  return Uint8Array.of(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
}

function u16(n: number): Uint8Array {
  return Uint8Array.of((n >>> 8) & 255, n & 255);
}

function join(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function box(type: string, ...content: Uint8Array[]): Uint8Array {
  const body = join(content);
  return join([u32(8 + body.length), text(type), body]);
}

function fullBox(type: string, version: number, flags: number, ...content: Uint8Array[]): Uint8Array {
  return box(type, u32((version << 24) | flags), ...content);
}

const zeros = (n: number) => new Uint8Array(n);
/** The identity transformation matrix of mvhd and tkhd. */
const MATRIX = join([u32(0x10000), u32(0), u32(0), u32(0), u32(0x10000), u32(0), u32(0), u32(0), u32(0x40000000)]);

export function writeMp4(video: Mp4Video): Uint8Array {
  const duration = video.samples.reduce((n, s) => n + s.duration, 0);
  const payloads = video.samples.map((s) => join(s.nals.flatMap((n) => [u32(n.length), n])));
  const ftyp = box("ftyp", text("isom"), u32(512), text("isomiso2avc1mp41"));
  const moovFor = (firstOffset: number) => {
    const offsets: number[] = [];
    let at = firstOffset;
    for (const p of payloads) {
      offsets.push(at);
      at += p.length;
    }
    const runs: [number, number][] = [];
    for (const s of video.samples) {
      const last = runs.at(-1);
      if (last !== undefined && last[1] === s.duration) last[0]++;
      else runs.push([1, s.duration]);
    }
    const avcC = box(
      "avcC",
      Uint8Array.of(1, PROFILE_BASELINE, PROFILE_CONSTRAINTS, LEVEL, 0xff, 0xe1),
      u16(video.sps.length),
      video.sps,
      Uint8Array.of(1),
      u16(video.pps.length),
      video.pps,
    );
    const avc1 = box(
      "avc1",
      zeros(6),
      u16(1), // data_reference_index
      zeros(16),
      u16(video.width),
      u16(video.height),
      u32(0x480000),
      u32(0x480000),
      u32(0),
      u16(1), // frame_count
      zeros(32), // compressorname
      u16(0x18),
      u16(0xffff),
      avcC,
    );
    const stbl = box(
      "stbl",
      fullBox("stsd", 0, 0, u32(1), avc1),
      fullBox("stts", 0, 0, u32(runs.length), ...runs.flatMap(([count, delta]) => [u32(count), u32(delta)])),
      fullBox("stsc", 0, 0, u32(1), u32(1), u32(1), u32(1)),
      fullBox("stsz", 0, 0, u32(0), u32(payloads.length), ...payloads.map((p) => u32(p.length))),
      fullBox("stco", 0, 0, u32(offsets.length), ...offsets.map(u32)),
    );
    const minf = box(
      "minf",
      fullBox("vmhd", 0, 1, zeros(8)),
      box("dinf", fullBox("dref", 0, 0, u32(1), fullBox("url ", 0, 1))),
      stbl,
    );
    const mdia = box(
      "mdia",
      fullBox("mdhd", 0, 0, u32(0), u32(0), u32(video.timescale), u32(duration), u16(0x55c4), u16(0)),
      fullBox("hdlr", 0, 0, u32(0), text("vide"), zeros(12), text("VideoHandler\0")),
      minf,
    );
    const tkhd = fullBox(
      "tkhd",
      0,
      3,
      u32(0),
      u32(0),
      u32(1), // track_ID
      u32(0),
      u32(duration),
      zeros(8),
      u16(0),
      u16(0),
      u16(0),
      u16(0),
      MATRIX,
      u32(video.width << 16),
      u32(video.height << 16),
    );
    const mvhd = fullBox(
      "mvhd",
      0,
      0,
      u32(0),
      u32(0),
      u32(video.timescale),
      u32(duration),
      u32(0x10000),
      u16(0x100),
      zeros(10),
      MATRIX,
      zeros(24),
      u32(2), // next_track_ID
    );
    return box("moov", mvhd, box("trak", tkhd, mdia));
  };
  // The offsets depend on moov's size, which does not depend on their values.
  const moovSize = moovFor(0).length;
  const mdatHeader = 8;
  const moov = moovFor(ftyp.length + moovSize + mdatHeader);
  const mdat = box("mdat", ...payloads);
  return join([ftyp, moov, mdat]);
}
