/**
 * The join of a screen recording's segments (src/adapters/video/mp4_join.ts) on MP4s the simulated device's writer
 * makes: one MP4 that ffprobe reads as the segments' sum (duration, frames, H.264) and ffmpeg decodes without an
 * error, the frames in the segments' order; anything it does not read (incomplete, fragmented, unlike) is null. The
 * adb screen recordings' stop gives the joined MP4, or the segments apart when the join does not read one.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createAdbClient } from "../../src/adapters/adb/adb_client.ts";
import { createAdbScreenRecordings } from "../../src/adapters/adb/screen_recordings.ts";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import { joinMp4Segments } from "../../src/adapters/video/mp4_join.ts";
import { idrSlice, pictureParameterSet, type PictureSize, sequenceParameterSet, writeMp4 } from "../../src/sim/mod.ts";
import { commandOf, fakeRunner } from "../adb/fake_runner.ts";
import { decodeFrames, ffprobeSkipReason, probeVideo, type VideoFacts } from "../support/ffprobe.ts";

const skip = ffprobeSkipReason();

/** A segment of flat grey frames (luma `levels[i]`), each lasting `durations[i]` ticks of `timescale`. */
function segment(levels: number[], durations: number[], timescale: number, size: PictureSize = { width: 64, height: 48 }): Uint8Array {
  const plane = (n: number, value: number) => new Uint8Array(n).fill(value);
  const [w, h] = [Math.ceil(size.width / 16) * 16, Math.ceil(size.height / 16) * 16];
  const samples = levels.map((level, i) => ({
    nals: [idrSlice(size, { y: plane(w * h, level), cb: plane((w * h) / 4, 128), cr: plane((w * h) / 4, 128) }, i % 2)],
    duration: durations[i]!,
  }));
  return writeMp4({ ...size, timescale, sps: sequenceParameterSet(size), pps: pictureParameterSet(), samples });
}

function withFile<T>(bytes: Uint8Array, body: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "amh-join-"));
  try {
    const file = join(dir, "joined.mp4");
    writeFileSync(file, bytes);
    return body(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("segments join into one MP4: ffprobe reads the sum of their durations and frames, ffmpeg decodes them in order", { skip }, () => {
  // The second segment's timescale differs (rescaled to the first's): 1.25 s + 0.75 s, 3 + 2 frames.
  const first = segment([30, 90, 150], [500, 500, 250], 1000);
  const second = segment([200, 60], [45_000, 22_500], 90_000);
  const joined = joinMp4Segments([first, second]);
  assert.ok(joined !== null, "the segments join");
  withFile(joined, (file) => {
    const facts: VideoFacts = probeVideo(file);
    assert.equal(facts.codec, "h264");
    assert.equal(facts.frames, 5);
    assert.ok(Math.abs(facts.duration - 2) <= 0.001, `duration ${facts.duration} s, the sum 2 s`);
    assert.deepEqual([facts.width, facts.height], [64, 48]);
    execFileSync("ffmpeg", ["-v", "error", "-i", file, "-f", "null", "-"], { timeout: 60_000 }); // throws on a non-zero exit
    const greys = decodeFrames(file, facts).map((rgb) => rgb[3 * (24 * 64 + 32)]!);
    assert.equal(greys.length, 5);
    const expected = [30, 90, 150, 200, 60].map((y) => Math.round((255 / 219) * (y - 16)));
    greys.forEach((grey, i) => assert.ok(Math.abs(grey - expected[i]!) <= 3, `frame ${i + 1}: ${greys} against ${expected}`));
  });
  // Three segments: the first's bytes come back whole in the joined file's mdat, in order.
  const three = joinMp4Segments([first, second, first])!;
  withFile(three, (file) => assert.equal(probeVideo(file).frames, 8));
});

test("a segment the join does not read leaves the segments apart (null): incomplete, fragmented, unlike, none", () => {
  const a = segment([30, 90], [500, 500], 1000);
  const b = segment([150], [700], 1000);
  assert.ok(joinMp4Segments([a, b]) !== null, "the two complete, alike segments join");
  // Cut short as a device killed mid-write leaves it: its mdat (last) ends early.
  assert.equal(joinMp4Segments([a, b.subarray(0, b.length - 10)]), null);
  // Cut in the middle of a box header.
  assert.equal(joinMp4Segments([a, b.subarray(0, 30)]), null);
  // A fragmented MP4: a moof box at the top level.
  const moof = Uint8Array.of(0, 0, 0, 8, ...Array.from("moof", (c) => c.charCodeAt(0)));
  const fragmented = new Uint8Array(b.length + moof.length);
  fragmented.set(b);
  fragmented.set(moof, b.length);
  assert.equal(joinMp4Segments([a, fragmented]), null);
  // Another picture size: the sample descriptions differ.
  assert.equal(joinMp4Segments([a, segment([150], [700], 1000, { width: 80, height: 48 })]), null);
  // Another placement: the track's matrix turned (tkhd's matrix is its last 44 bytes but width and height).
  const turned = b.slice();
  const tkhd = Buffer.from(turned).indexOf("tkhd") + 4;
  const matrix = tkhd + 40;
  turned.set([0, 0, 0, 0, 0, 1, 0, 0], matrix); // a = 0, b = 1.0: a quarter turn
  assert.equal(joinMp4Segments([a, turned]), null);
  // Not an MP4 at all, and nothing.
  assert.equal(joinMp4Segments([a, new TextEncoder().encode("screenrecord: permission denied")]), null);
  assert.equal(joinMp4Segments([]), null);
});

/** A copy of `mp4` with `edit(body)` applied to the body of its first `type` box (found by its four letters). */
function patched(mp4: Uint8Array, type: string, edit: (body: DataView, at: number) => void): Uint8Array {
  const out = mp4.slice();
  const at = Buffer.from(out).indexOf(type) + 4;
  assert.ok(at > 4, `a ${type} box`);
  edit(new DataView(out.buffer, out.byteOffset, out.byteLength), at);
  return out;
}

/** `mp4` with its mdhd cut to version and flags (a 12-byte box; the rest of it a free box): no timescale to read. */
const withShortMdhd = (mp4: Uint8Array) =>
  patched(mp4, "mdhd", (v, at) => {
    const size = v.getUint32(at - 8);
    v.setUint32(at - 8, 12);
    v.setUint32(at + 4, size - 12);
    [..."free"].forEach((c, i) => v.setUint8(at + 8 + i, c.charCodeAt(0)));
  });

test("a segment whose tables lie (a short header, counts past its samples) is not joined: null at once, never a throw or a hang", () => {
  const a = segment([30, 90], [500, 500], 1000);
  const b = segment([150], [700], 1000);
  const shortMdhd = withShortMdhd(b);
  assert.equal(joinMp4Segments([a, shortMdhd]), null);
  // stts says 2^32 - 1 samples in its first run (the segment has 1), stsz a constant size for as many.
  // Before, the join built those tables: V8 aborted the whole process (out of memory), the test runner with it.
  assert.equal(joinMp4Segments([a, patched(b, "stts", (v, at) => v.setUint32(at + 8, 0xffff_ffff))]), null);
  assert.equal(joinMp4Segments([a, patched(b, "stsz", (v, at) => (v.setUint32(at + 4, 1), v.setUint32(at + 8, 0xffff_ffff)))]), null);
});

test("segments whose join would pass the size kept (the evidence store's limit) are not joined", () => {
  const a = segment([30, 90], [500, 500], 1000);
  const b = segment([150], [700], 1000);
  const joined = joinMp4Segments([a, b])!;
  assert.ok(joinMp4Segments([a, b], joined.length) !== null, "a join of exactly the limit");
  assert.equal(joinMp4Segments([a, b], joined.length - 1), null);
});

test("a segment of another timescale is rescaled without drift: the joined duration is the segments' sum", { skip }, () => {
  // 60 frames of 1/60 s at 90 kHz (1,500 ticks each), rescaled to 1 kHz: 16.67 ms, not 17 ms each (1.02 s).
  const first = segment([30], [1000], 1000);
  const second = segment(new Array<number>(60).fill(120), new Array<number>(60).fill(1500), 90_000);
  withFile(joinMp4Segments([first, second])!, (file) => {
    const facts = probeVideo(file);
    assert.equal(facts.frames, 61);
    assert.ok(Math.abs(facts.duration - 2) <= 0.002, `duration ${facts.duration} s, the sum 2 s`);
  });
});

/** A recording of these segments through a scripted adb: each but the last ends by itself (the device's limit), the last at the stop. */
async function recordSegments(files: Uint8Array[], maxVideoBytes?: number) {
  const paths: string[] = [];
  const lines: string[] = [];
  const runner = fakeRunner((args) => {
    const command = commandOf(args);
    lines.push(command);
    if (command.startsWith("exec-out screenrecord")) {
      paths.push(args.at(-1)!);
      return paths.length < files.length ? {} : { hang: true };
    }
    if (command.startsWith("exec-out cat ")) return { stdout: files[paths.indexOf(args.at(-1)!)]! };
    if (command.startsWith("shell pidof")) return { exitCode: 1 };
    if (command.startsWith("shell rm -f")) return {};
    return undefined;
  });
  const adb = createAdbClient({ runner, program: { program: "/sdk/adb", source: "ADB" } });
  const recordings = createAdbScreenRecordings({
    adb,
    clock: createSystemClock(),
    segmentSeconds: 1,
    startCheckMs: 50,
    ...(maxVideoBytes === undefined ? {} : { maxVideoBytes }),
  });
  await recordings.start("emulator-5554", 600, { timeoutMs: 5_000 });
  while (paths.length < files.length) await new Promise((r) => setTimeout(r, 5));
  const finished = await recordings.stop("emulator-5554", { timeoutMs: 5_000 });
  assert.equal(paths.length, files.length, "every segment recorded");
  // Every segment at 4 Mbit/s (the device's default is 20): 180 s is at most ~90 MB, within the video evidence's limit.
  for (const line of lines.filter((l) => l.startsWith("exec-out screenrecord"))) assert.match(line, / --bit-rate 4000000 /);
  return finished.segments;
}

test("a stop joins the recording's segments into one MP4; one the join does not read leaves them apart, every byte kept", async () => {
  const a = segment([30, 90], [500, 500], 1000);
  const b = segment([150], [700], 1000);
  assert.deepEqual(await recordSegments([a, b]), [joinMp4Segments([a, b])]);
  const cut = b.subarray(0, b.length - 10);
  assert.deepEqual(await recordSegments([a, cut]), [a, cut]);
});

test("a segment the device never wrote (the stop came before its screenrecord started: cat's words) is left out, the rest joined", async () => {
  const a = segment([30, 90], [500, 500], 1000);
  const b = segment([150], [700], 1000);
  const missing = new TextEncoder().encode("cat: /data/local/tmp/amh-rec-1-2-3.mp4: No such file or directory\n");
  assert.deepEqual(await recordSegments([a, b, missing]), [joinMp4Segments([a, b])]);
  assert.deepEqual(await recordSegments([a, missing]), [a]);
  // A file the device left incomplete is not left out: the evidence counts it (skipped); the complete ones still join.
  const cut = b.subarray(0, b.length - 10);
  assert.deepEqual(await recordSegments([a, b, cut]), [joinMp4Segments([a, b]), cut]);
});

test("a stop keeps the segments apart, every byte, when their join would be refused (too large) or cannot be read", async () => {
  const a = segment([30, 90], [500, 500], 1000);
  const b = segment([150], [700], 1000);
  // Each segment fits the size kept, their join does not: apart, each kept (joined, the store would refuse it whole).
  assert.deepEqual(await recordSegments([a, b], Math.max(a.length, b.length) + 10), [a, b]);
  // A segment whose mdhd is too short to read: apart, not an error after the device's files were removed.
  const shortMdhd = withShortMdhd(b);
  assert.deepEqual(await recordSegments([a, shortMdhd]), [a, shortMdhd]);
});

/** libx264 through ffmpeg's MP4 muxer: a real encoder's samples (stss, stsc runs, edts, udta), no per-file btrt. */
const x264Skip = skip ||
  (execFileSync("ffmpeg", ["-hide_banner", "-encoders"], { encoding: "utf8" }).includes("libx264") ? false : "ffmpeg has no libx264");

function x264(dir: string, name: string, from: number, seconds: number): Uint8Array {
  const file = join(dir, name);
  execFileSync("ffmpeg", [
    ...["-v", "error", "-f", "lavfi", "-i", `testsrc=size=160x120:rate=30,trim=start=${from}:duration=${seconds}`],
    ...["-c:v", "libx264", "-bf", "0", "-g", "30", "-pix_fmt", "yuv420p", "-write_btrt", "0", file],
  ], { timeout: 60_000 });
  return readFileSync(file);
}

/**
 * The MP4 rewritten as a 64-bit writer leaves it: co64 for stco, version 1 mvhd/tkhd/mdhd, and those three with a 64-bit
 * box size (a size of 1). Its moov follows its mdat (ffmpeg's default), so no chunk offset moves.
 */
function wide(mp4: Uint8Array): Uint8Array {
  const containers = new Set(["moov", "trak", "mdia", "minf", "stbl"]);
  const parse = (data: Uint8Array) => {
    const out: { type: string; body: Uint8Array }[] = [];
    const v = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let at = 0; at < data.length;) {
      const size = v.getUint32(at);
      out.push({ type: Buffer.from(data.subarray(at + 4, at + 8)).toString("latin1"), body: data.subarray(at + 8, at + size) });
      at += size;
    }
    return out;
  };
  const u = (bytes: number, n: number) => {
    const b = Buffer.alloc(bytes);
    if (bytes === 8) b.writeBigUInt64BE(BigInt(n));
    else b.writeUInt32BE(n);
    return b;
  };
  const rewrite = (type: string, body: Uint8Array): Uint8Array => {
    const b = Buffer.from(body);
    if (containers.has(type)) return Buffer.concat(parse(body).map((child) => wrap(child.type, rewrite(child.type, child.body))));
    if (type === "stco") {
      const n = b.readUInt32BE(4);
      return Buffer.concat([b.subarray(0, 8), ...Array.from({ length: n }, (_, i) => u(8, b.readUInt32BE(8 + 4 * i)))]);
    }
    if (type === "mvhd" || type === "mdhd") { // created, modified, timescale, duration: 32-bit to 64-bit times
      return Buffer.concat([
        Buffer.of(1),
        b.subarray(1, 4),
        u(8, b.readUInt32BE(4)),
        u(8, b.readUInt32BE(8)),
        b.subarray(12, 16),
        u(8, b.readUInt32BE(16)),
        b.subarray(20),
      ]);
    }
    if (type === "tkhd") { // created, modified, track_ID, reserved, duration
      return Buffer.concat([
        Buffer.of(1),
        b.subarray(1, 4),
        u(8, b.readUInt32BE(4)),
        u(8, b.readUInt32BE(8)),
        b.subarray(12, 20),
        u(8, b.readUInt32BE(20)),
        b.subarray(24),
      ]);
    }
    return body;
  };
  const wrap = (type: string, body: Uint8Array): Uint8Array =>
    ["mvhd", "tkhd", "mdhd"].includes(type)
      ? Buffer.concat([u(4, 1), Buffer.from(type, "latin1"), u(8, 16 + body.length), body])
      : Buffer.concat([u(4, 8 + body.length), Buffer.from(type === "stco" ? "co64" : type, "latin1"), body]);
  const top = parse(mp4);
  assert.ok(top.findIndex((b) => b.type === "moov") > top.findIndex((b) => b.type === "mdat"), "moov after mdat");
  return Buffer.concat(top.map((b) => wrap(b.type, rewrite(b.type, b.body))));
}

test("real H.264 segments (libx264) join, also as a 64-bit writer leaves them: co64, version-1 headers, 64-bit box sizes", {
  skip: x264Skip,
}, () => {
  const dir = mkdtempSync(join(tmpdir(), "amh-x264-"));
  try {
    const [a, b] = [x264(dir, "a.mp4", 0, 2), x264(dir, "b.mp4", 2, 3)];
    for (const [label, segments] of [["as written", [a, b]], ["64-bit", [wide(a), wide(b)]]] as const) {
      if (label === "64-bit") withFile(segments[0], (file) => assert.equal(probeVideo(file).frames, 60, "ffprobe reads the rewrite"));
      const joined = joinMp4Segments(segments);
      assert.ok(joined !== null, `${label}: the segments join`);
      withFile(joined, (file) => {
        const facts = probeVideo(file);
        assert.equal(facts.frames, 150, label);
        assert.ok(Math.abs(facts.duration - 5) <= 0.001, `${label}: duration ${facts.duration} s, the sum 5 s`);
        execFileSync("ffmpeg", ["-v", "error", "-xerror", "-i", file, "-f", "null", "-"], { timeout: 60_000 });
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * The MP4 with a second track as Android 11+ `screenrecord` writes one: a timed-metadata track (hdlr `meta`, a `mett`
 * sample entry for application/octet-stream) whose one sample holds Winscope's frame times, in an mdat after moov.
 */
function withWinscopeTrack(mp4: Uint8Array): Uint8Array {
  const u32 = (...values: number[]) => Buffer.concat(values.map((n) => Buffer.of(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255)));
  const bx = (type: string, ...content: Uint8Array[]) => {
    const body = Buffer.concat(content);
    return Buffer.concat([u32(8 + body.length), Buffer.from(type, "latin1"), body]);
  };
  const top: { type: string; bytes: Uint8Array }[] = [];
  for (let at = 0; at < mp4.length;) {
    const size = Buffer.from(mp4).readUInt32BE(at);
    top.push({ type: Buffer.from(mp4.subarray(at + 4, at + 8)).toString("latin1"), bytes: mp4.subarray(at, at + size) });
    at += size;
  }
  const moovAt = top.findIndex((b) => b.type === "moov");
  assert.ok(moovAt > top.findIndex((b) => b.type === "mdat"), "moov after mdat");
  const sample = Buffer.concat([Buffer.from("#VV1NSC0PET1ME!#", "latin1"), Buffer.alloc(12, 1)]);
  const trak = (sampleOffset: number) =>
    bx(
      "trak",
      bx("tkhd", u32(3, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000, 0, 0)),
      bx(
        "mdia",
        bx("mdhd", u32(0, 0, 0, 1000, 0), Buffer.of(0x55, 0xc4, 0, 0)),
        bx("hdlr", u32(0, 0), Buffer.from("meta", "latin1"), Buffer.alloc(12), Buffer.from("MetaHandler\0", "latin1")),
        bx(
          "minf",
          bx("nmhd", u32(0)),
          bx("dinf", bx("dref", u32(0, 1), bx("url ", u32(1)))),
          bx(
            "stbl",
            bx("stsd", u32(0, 1), bx("mett", Buffer.alloc(6), Buffer.of(0, 1, 0), Buffer.from("application/octet-stream\0", "latin1"))),
            bx("stts", u32(0, 1, 1, 0)),
            bx("stsc", u32(0, 1, 1, 1, 1)),
            bx("stsz", u32(0, 0, 1, sample.length)),
            bx("stco", u32(0, 1, sampleOffset)),
          ),
        ),
      ),
    );
  const before = Buffer.concat(top.slice(0, moovAt).map((b) => b.bytes));
  const moovBody = top[moovAt]!.bytes.subarray(8);
  const moov = (sampleOffset: number) => bx("moov", moovBody, trak(sampleOffset));
  const sampleOffset = before.length + moov(0).length + 8;
  return Buffer.concat([before, moov(sampleOffset), bx("mdat", sample), ...top.slice(moovAt + 1).map((b) => b.bytes)]);
}

test("segments as Android 11+ screenrecord writes them (video and a Winscope metadata track) join: the video track alone", {
  skip: x264Skip,
}, () => {
  const dir = mkdtempSync(join(tmpdir(), "amh-x264-"));
  try {
    const [a, b] = [withWinscopeTrack(x264(dir, "a.mp4", 0, 2)), withWinscopeTrack(x264(dir, "b.mp4", 2, 3))];
    withFile(a, (file) => {
      const streams = execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", file], {
        encoding: "utf8",
      });
      assert.deepEqual(streams.trim().split("\n"), ["video", "data"], "ffprobe reads the two tracks");
    });
    const joined = joinMp4Segments([a, b]);
    assert.ok(joined !== null, "the segments join");
    withFile(joined, (file) => {
      const facts = probeVideo(file);
      assert.equal(facts.frames, 150);
      assert.ok(Math.abs(facts.duration - 5) <= 0.001, `duration ${facts.duration} s, the sum 5 s`);
      execFileSync("ffmpeg", ["-v", "error", "-xerror", "-i", file, "-f", "null", "-"], { timeout: 60_000 });
    });
    // An audio track is not dropped silently: such segments stay apart.
    const audio = Buffer.from(a);
    audio.write("soun", audio.indexOf("meta", audio.indexOf("hdlr", audio.lastIndexOf("trak"))), "latin1");
    assert.equal(joinMp4Segments([audio, b]), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
