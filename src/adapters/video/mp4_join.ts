/**
 * Joins a screen recording's segments (each an MP4 whose video track is H.264, as the device's `screenrecord` writes
 * them) into one MP4 (ISO/IEC 14496-12): the first segment's ftyp, then moov with one video track whose sample tables
 * hold every segment's samples in order (each segment one chunk), then one mdat of all their bytes. Durations are summed
 * (rescaled to the first segment's timescales), sync-sample indices offset. Pure: bytes in, bytes (or null) out.
 * The video track alone is joined: Android 11+ `screenrecord` adds a timed-metadata track (hdlr `meta`, Winscope's
 * frame times), which is left out.
 * It returns null, and the caller keeps the segments apart, for anything it does not read: not exactly one video track,
 * another track that is not timed metadata (audio is not dropped silently), a fragmented MP4 (`moof`), sample
 * descriptions (stsd: codec, size, avcC) or a track matrix (rotation) that differ between segments, tables that do not
 * add up (a header too short, counts past the samples there are), a joined file larger than the caller keeps
 * (`maxBytes`; offsets stay 32-bit), more than MAX_SAMPLES samples. It never throws: a table that lies is null too.
 * Edit lists (edts) are not carried over.
 */
import { Buffer } from "node:buffer";

interface Box {
  type: string;
  /** The whole box, header included. */
  bytes: Uint8Array;
  /** Its content, after the header. */
  body: Uint8Array;
}

interface Segment {
  ftyp: Uint8Array;
  mvhd: Box;
  tkhd: Box;
  mdhd: Box;
  /** mdia's other children (hdlr) and minf's (vmhd, dinf), kept from the first segment. */
  mdiaRest: Uint8Array[];
  minfRest: Uint8Array[];
  stsd: Uint8Array;
  mediaTimescale: number;
  /** Each sample: its bytes, duration and composition offset (media ticks), and whether it is a sync sample. */
  samples: { bytes: Uint8Array; duration: number; offset: number; sync: boolean }[];
  hasCtts: boolean;
  hasStss: boolean;
}

/** The largest joined file (its chunk offsets stay 32-bit). */
const MAX_BYTES = 2 ** 31;
/** The most samples read (a frame each millisecond for over 17 minutes): a count past it is refused before any table is built. */
const MAX_SAMPLES = 2 ** 20;
/** A full box's least body length (version 0, version 1): mvhd, tkhd and mdhd, whose figures the join reads and rewrites. */
const HEADER_BODY = { mvhd: [100, 112], tkhd: [84, 96], mdhd: [24, 36] } as const;

const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

function boxes(data: Uint8Array): Box[] | null {
  const out: Box[] = [];
  const v = view(data);
  let at = 0;
  while (at < data.length) {
    if (at + 8 > data.length) return null;
    let size = v.getUint32(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > data.length) return null;
      size = Number(v.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = data.length - at;
    if (size < header || at + size > data.length) return null;
    const type = String.fromCharCode(...data.subarray(at + 4, at + 8));
    out.push({ type, bytes: data.subarray(at, at + size), body: data.subarray(at + header, at + size) });
    at += size;
  }
  return out;
}

function only(list: Box[] | null, type: string): Box | null {
  const found = list?.filter((b) => b.type === type) ?? [];
  return found.length === 1 ? found[0]! : null;
}

/** A full box's entries after version/flags and the count: `count` of `width` u32 each (null when short). */
function table(b: Box | null, width: number, skip = 0): number[][] | null {
  if (b === null || b.body.length < 8 + skip) return null;
  const v = view(b.body);
  const count = v.getUint32(4 + skip);
  if (8 + skip + count * width * 4 > b.body.length) return null;
  const rows: number[][] = [];
  for (let i = 0; i < count; i++) {
    const row: number[] = [];
    for (let j = 0; j < width; j++) row.push(v.getUint32(8 + skip + (i * width + j) * 4));
    rows.push(row);
  }
  return rows;
}

/** A track's handler type (`vide`, `soun`, `meta`, …), or null when it has none to read. */
function handlerOf(trak: Box): string | null {
  const mdia = only(boxes(trak.body), "mdia");
  const hdlr = mdia === null ? null : only(boxes(mdia.body), "hdlr");
  return hdlr === null || hdlr.body.length < 12 ? null : String.fromCharCode(...hdlr.body.subarray(8, 12));
}

function readSegment(data: Uint8Array): Segment | null {
  const top = boxes(data);
  if (top === null || top.some((b) => b.type === "moof")) return null;
  const ftyp = only(top, "ftyp");
  const moov = only(top, "moov");
  if (ftyp === null || moov === null) return null;
  const moovKids = boxes(moov.body);
  const mvhd = only(moovKids, "mvhd");
  // The one video track; any other must be timed metadata (screenrecord's Winscope track), left out.
  const traks = moovKids?.filter((b) => b.type === "trak") ?? [];
  const handlers = traks.map(handlerOf);
  const trak = handlers.filter((h) => h === "vide").length === 1 ? traks[handlers.indexOf("vide")]! : null;
  if (handlers.some((h) => h !== "vide" && h !== "meta")) return null;
  if (mvhd === null || trak === null || moovKids!.some((b) => b.type === "mvex")) return null;
  const trakKids = boxes(trak.body);
  const tkhd = only(trakKids, "tkhd");
  const mdia = only(trakKids, "mdia");
  const mdiaKids = boxes(mdia?.body ?? new Uint8Array());
  const mdhd = only(mdiaKids, "mdhd");
  const hdlr = only(mdiaKids, "hdlr");
  const minf = only(mdiaKids, "minf");
  if (tkhd === null || mdhd === null || hdlr === null || minf === null || hdlr.body.length < 12) return null;
  const whole = (b: Box, type: keyof typeof HEADER_BODY) => b.body.length >= HEADER_BODY[type][b.body[0] === 1 ? 1 : 0];
  if (!whole(mvhd, "mvhd") || !whole(tkhd, "tkhd") || !whole(mdhd, "mdhd")) return null;
  if (String.fromCharCode(...hdlr.body.subarray(8, 12)) !== "vide") return null;
  const minfKids = boxes(minf.body);
  const stbl = only(minfKids, "stbl");
  const stblKids = boxes(stbl?.body ?? new Uint8Array());
  const stsd = only(stblKids, "stsd");
  const stsz = only(stblKids, "stsz");
  const stts = table(only(stblKids, "stts"), 2);
  const stsc = table(only(stblKids, "stsc"), 3);
  const stco = table(only(stblKids, "stco"), 1);
  const co64 = table(only(stblKids, "co64"), 2);
  const stssBox = only(stblKids, "stss");
  const cttsBox = only(stblKids, "ctts");
  if (stsd === null || stsz === null || stts === null || stsc === null || (stco === null && co64 === null)) return null;
  if (stsd.body.length < 8 || view(stsd.body).getUint32(4) !== 1) return null;
  const chunkOffsets = stco !== null ? stco.map((r) => r[0]!) : co64!.map((r) => r[0]! * 2 ** 32 + r[1]!);
  // Sizes: a constant one, or a table.
  if (stsz.body.length < 12) return null;
  const constant = view(stsz.body).getUint32(4);
  const count = view(stsz.body).getUint32(8);
  // The counts are checked before anything is built from them (2^32 - 1 samples claimed is a crash, not a refusal).
  const claimed = (rows: number[][]) => rows.reduce((n, [runLength]) => n + runLength!, 0);
  if (count > MAX_SAMPLES || count * constant > data.length || claimed(stts) !== count) return null;
  const sizes = constant !== 0 ? new Array<number>(count).fill(constant) : table(stsz, 1, 4)?.map((r) => r[0]!);
  if (sizes === undefined || sizes.length !== count) return null;
  const durations = stts.flatMap(([n, d]) => new Array<number>(n!).fill(d!));
  const version = mdhd.body[0]!;
  const mediaTimescale = view(mdhd.body).getUint32(version === 1 ? 20 : 12);
  if (mediaTimescale === 0) return null;
  let offsets = new Array<number>(count).fill(0);
  if (cttsBox !== null) {
    const rows = table(cttsBox, 2);
    if (rows === null || claimed(rows) !== count) return null;
    const signed = cttsBox.body[0] === 1;
    offsets = rows.flatMap(([n, o]) => new Array<number>(n!).fill(signed ? o! | 0 : o!));
  }
  const syncs = stssBox === null ? null : new Set(table(stssBox, 1)?.map((r) => r[0]! - 1) ?? [-1]);
  if (syncs?.has(-1)) return null;
  // Each chunk's samples, from stsc's runs (each from its first chunk, numbered from 1, in increasing order).
  const samples: Segment["samples"] = [];
  let sample = 0;
  let runAt = -1;
  for (let chunk = 0; chunk < chunkOffsets.length; chunk++) {
    while (runAt + 1 < stsc.length && stsc[runAt + 1]![0]! <= chunk + 1) runAt++;
    const run = stsc[runAt];
    if (run === undefined || run[2] !== 1) return null;
    let at = chunkOffsets[chunk]!;
    for (let i = 0; i < run[1]! && sample < count; i++, sample++) {
      const size = sizes[sample]!;
      if (at + size > data.length) return null;
      samples.push({
        bytes: data.subarray(at, at + size),
        duration: durations[sample]!,
        offset: offsets[sample]!,
        sync: syncs?.has(sample) ?? true,
      });
      at += size;
    }
  }
  if (sample !== count) return null;
  return {
    ftyp: ftyp.bytes,
    mvhd,
    tkhd,
    mdhd,
    mdiaRest: mdiaKids!.filter((b) => b.type === "hdlr").map((b) => b.bytes),
    minfRest: minfKids!.filter((b) => b.type !== "stbl").map((b) => b.bytes),
    stsd: stsd.bytes,
    mediaTimescale,
    samples,
    hasCtts: cttsBox !== null,
    hasStss: stssBox !== null,
  };
}

/** The parts end to end (a Buffer is a Uint8Array). */
const concat = (parts: readonly Uint8Array[]): Uint8Array => Buffer.concat(parts);

/** The values as big-endian u32s (an array, not arguments: a table of 100,000 rows spread as arguments throws). */
function u32s(values: readonly number[]): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  values.forEach((n, i) => view(out).setUint32(i * 4, n >>> 0));
  return out;
}

function box(type: string, ...content: Uint8Array[]): Uint8Array {
  const body = concat(content);
  return concat([u32s([8 + body.length]), Uint8Array.from(type, (c) => c.charCodeAt(0)), body]);
}

/** A copy of mvhd, tkhd or mdhd with its duration replaced (at its place in the body, in version 0 or 1). */
function withDuration(header: Box, at0: number, at1: number, duration: number): Uint8Array | null {
  const out = header.bytes.slice();
  const start = header.bytes.length - header.body.length; // 8, or 16 after a 64-bit size
  const v = view(out);
  if (header.body[0] === 1) {
    v.setBigUint64(start + at1, BigInt(duration));
  } else {
    if (duration > 0xffffffff) return null;
    v.setUint32(start + at0, duration);
  }
  return out;
}

/**
 * The segments as one MP4 of at most `maxBytes`, or null when one of them is not an MP4 this joins or the join would be
 * larger (the caller keeps them apart).
 */
export function joinMp4Segments(segments: readonly Uint8Array[], maxBytes = MAX_BYTES): Uint8Array | null {
  try {
    return join(segments, Math.min(maxBytes, MAX_BYTES));
  } catch {
    return null; // a table that lies in a way the checks above did not foresee: apart, never an error that loses the recording
  }
}

function join(segments: readonly Uint8Array[], maxBytes: number): Uint8Array | null {
  const read = segments.map(readSegment);
  if (read.length === 0 || read.some((s) => s === null)) return null;
  const parts = (read as Segment[]).filter((s) => s.samples.length > 0);
  const first = parts[0];
  if (first === undefined) return null;
  const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);
  // The picture's placement: tkhd's matrix, width and height (its last 44 bytes in either version).
  const placement = (s: Segment) => s.tkhd.bytes.subarray(s.tkhd.bytes.length - 44);
  if (parts.some((s) => !same(s.stsd, first.stsd) || !same(placement(s), placement(first)))) return null;
  if (parts.reduce((n, s) => n + s.samples.length, 0) > MAX_SAMPLES) return null;
  const timescale = first.mediaTimescale;
  const all = parts.flatMap((s) => {
    // Rescaled to the first segment's timescale (equal timescales leave every figure as it is): each sample's start
    // is rounded, not its duration, so the rounding does not add up over thousands of frames.
    let start = 0;
    const rescaled = (ticks: number) => Math.round((ticks * timescale) / s.mediaTimescale);
    return s.samples.map((x) => {
      const duration = rescaled(start + x.duration) - rescaled(start);
      start += x.duration;
      return { ...x, duration, offset: rescaled(x.offset) };
    });
  });
  const bytes = all.reduce((n, x) => n + x.bytes.length, 0);
  if (bytes > maxBytes) return null;
  const mediaDuration = all.reduce((n, x) => n + x.duration, 0);
  const mvhdBody = first.mvhd.body;
  const movieTimescale = view(mvhdBody).getUint32(mvhdBody[0] === 1 ? 20 : 12);
  if (movieTimescale === 0) return null;
  const movieDuration = Math.round((mediaDuration * movieTimescale) / timescale);
  const stts: number[][] = [];
  for (const x of all) {
    const last = stts.at(-1);
    if (last !== undefined && last[1] === x.duration) last[0]!++;
    else stts.push([1, x.duration]);
  }
  const stsc: number[][] = [];
  parts.forEach((s, i) => {
    if (stsc.at(-1)?.[1] !== s.samples.length) stsc.push([i + 1, s.samples.length, 1]);
  });
  const stbl = (mdatStart: number) => {
    const chunkOffsets: number[] = [];
    let at = mdatStart;
    for (const s of parts) {
      chunkOffsets.push(at);
      at += s.samples.reduce((n, x) => n + x.bytes.length, 0);
    }
    const syncs = all.flatMap((x, i) => (x.sync ? [i + 1] : []));
    const ctts: number[][] = [];
    for (const x of all) {
      const last = ctts.at(-1);
      if (last !== undefined && last[1] === x.offset) last[0]!++;
      else ctts.push([1, x.offset]);
    }
    const negative = all.some((x) => x.offset < 0);
    return box(
      "stbl",
      first.stsd,
      box("stts", u32s([0, stts.length, ...stts.flat()])),
      ...(parts.some((s) => s.hasCtts) ? [box("ctts", u32s([negative ? 0x01000000 : 0, ctts.length, ...ctts.flat()]))] : []),
      ...(parts.some((s) => s.hasStss) ? [box("stss", u32s([0, syncs.length, ...syncs]))] : []),
      box("stsc", u32s([0, stsc.length, ...stsc.flat()])),
      box("stsz", u32s([0, 0, all.length, ...all.map((x) => x.bytes.length)])),
      box("stco", u32s([0, chunkOffsets.length, ...chunkOffsets])),
    );
  };
  const mvhd = withDuration(first.mvhd, 16, 24, movieDuration);
  const tkhd = withDuration(first.tkhd, 20, 28, movieDuration);
  const mdhd = withDuration(first.mdhd, 16, 24, mediaDuration);
  if (mvhd === null || tkhd === null || mdhd === null) return null;
  const moov = (mdatStart: number) =>
    box("moov", mvhd, box("trak", tkhd, box("mdia", mdhd, ...first.mdiaRest, box("minf", ...first.minfRest, stbl(mdatStart)))));
  // The chunk offsets depend on moov's size, which does not depend on their values.
  const mdatStart = first.ftyp.length + moov(0).length + 8;
  if (mdatStart + bytes > maxBytes) return null;
  return concat([
    first.ftyp,
    moov(mdatStart),
    u32s([8 + bytes]),
    Uint8Array.from("mdat", (c) => c.charCodeAt(0)),
    ...all.map((x) => x.bytes),
  ]);
}
