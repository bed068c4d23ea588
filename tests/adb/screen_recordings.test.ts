/**
 * The adb screen recordings (src/adapters/adb/screen_recordings.ts) with the real adb client against the simulated
 * device: segments follow one another when the device's `screenrecord` stops at its limit (1 s here instead of 180),
 * joined into one MP4 ffprobe reads; the files leave the device; one recording a device; a refusal says the device's words.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createAdbClient } from "../../src/adapters/adb/adb_client.ts";
import { createAdbScreenRecordings } from "../../src/adapters/adb/screen_recordings.ts";
import { createNodeProcessRunner } from "../../src/adapters/node_process_runner.ts";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import { HarnessError } from "../../src/errors.ts";
import { type RunningSim, startSimDevice } from "../../src/sim/mod.ts";
import { ffprobeSkipReason, probeVideo } from "../support/ffprobe.ts";

const ADB = process.env["ADB"] ?? "/usr/bin/adb";
const skip = existsSync(ADB) ? ffprobeSkipReason() : `the real adb client is not installed at ${ADB}`;
const wait = { timeoutMs: 20_000 };
const UDID = "emulator-5554";

async function withRecordings(body: (sim: RunningSim, recordings: ReturnType<typeof createAdbScreenRecordings>) => Promise<void>) {
  const sim = await startSimDevice({ scenario: "login" });
  try {
    const adb = createAdbClient({
      runner: createNodeProcessRunner(),
      program: { program: ADB, source: "ADB" },
      serverSocket: sim.adbServerSocket,
    });
    // The refusal's window long enough for adb spawned on a loaded machine; a shorter one is the stop's to say.
    await body(sim, createAdbScreenRecordings({ adb, clock: createSystemClock(), segmentSeconds: 1, startCheckMs: 8_000 }));
  } finally {
    await sim.stop();
  }
}

function durations(segments: readonly Uint8Array[]): number[] {
  const dir = mkdtempSync(join(tmpdir(), "amh-segments-"));
  try {
    return segments.map((bytes, i) => {
      const file = join(dir, `${i}.mp4`);
      writeFileSync(file, bytes);
      const facts = probeVideo(file);
      assert.equal(facts.codec, "h264", `segment ${i + 1}`);
      return facts.duration;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const recordingFiles = (sim: RunningSim) => [...sim.device.files.keys()].filter((path) => path.startsWith("/data/local/tmp/amh-rec-"));

test("a recording longer than the device's limit is segments joined into one MP4 that lasts them all", { skip }, async () => {
  await withRecordings(async (sim, recordings) => {
    await recordings.start(UDID, 600, wait);
    await new Promise((r) => setTimeout(r, 2600));
    const finished = await recordings.stop(UDID, wait);
    const recorded = sim.device.log.filter((e) => e.command.startsWith("screenrecord")).length;
    assert.ok(recorded >= 2, `${recorded} segments`);
    assert.equal(finished.segments.length, 1, "one MP4");
    // Every segment but the last lasts the limit (1 s); the last at most that.
    const [seconds] = durations(finished.segments);
    assert.ok(seconds! > recorded - 1 && seconds! <= recorded, `${seconds} s of ${recorded} segments`);
    assert.equal(finished.reachedLimit, false);
    assert.deepEqual(recordingFiles(sim), [], "the device keeps no recording");
    assert.deepEqual(recordings.running(), []);
  });
});

test(
  "a recording that reaches its own limit stops there; one a device; a stop needs a start; a refusal is the device's",
  { skip },
  async () => {
    await withRecordings(async (sim, recordings) => {
      await recordings.start(UDID, 1, wait);
      const busy = await recordings.start(UDID, 1, wait).then(() => null, (e: HarnessError) => e);
      assert.equal(busy?.code, "EMULATOR_BUSY");
      assert.match(busy!.message, /already runs on emulator-5554; stop it first/);
      await new Promise((r) => setTimeout(r, 1800));
      const finished = await recordings.stop(UDID, wait);
      assert.equal(finished.reachedLimit, true);
      assert.deepEqual(durations(finished.segments), [1]);
      const none = await recordings.stop(UDID, wait).then(() => null, (e: HarnessError) => e);
      assert.equal(none?.code, "INVALID_ARGUMENT");
      assert.match(none!.message, /No screen recording runs on emulator-5554: start one/);

      sim.device.setFaults({ readOnlyDirectories: ["/data/local/tmp"] });
      const refused = await recordings.start(UDID, 5, wait).then(() => null, (e: HarnessError) => e);
      assert.ok(refused instanceof HarnessError);
      assert.equal(refused.code, "EMULATOR_UNAVAILABLE");
      assert.match(
        refused.message,
        /refused to record its screen \(screenrecord: Unable to open '\/data\/local\/tmp\/amh-rec-.*': Permission denied\)/,
      );
      assert.deepEqual(recordings.running(), [], "a refused start leaves nothing running");
    });
  },
);

test("a refusal that comes after the start's window is said by the stop, in the device's words", { skip }, async () => {
  const sim = await startSimDevice({ scenario: "login" });
  try {
    const adb = createAdbClient({
      runner: createNodeProcessRunner(),
      program: { program: ADB, source: "ADB" },
      serverSocket: sim.adbServerSocket,
    });
    const recordings = createAdbScreenRecordings({ adb, clock: createSystemClock(), startCheckMs: 0 });
    sim.device.setFaults({ readOnlyDirectories: ["/data/local/tmp"] });
    await recordings.start(UDID, 5, wait); // no window: it says it records
    while (!sim.device.log.some((e) => e.command.startsWith("screenrecord"))) await new Promise((r) => setTimeout(r, 50));
    const refused = await recordings.stop(UDID, wait).then(() => null, (e: HarnessError) => e);
    assert.equal(refused?.code, "EMULATOR_UNAVAILABLE", "a refusal, never a recording (it returned one under load before)");
    // The device's words, unless the stop's hang-up ended adb before they came through (a loaded machine): then the
    // device wrote no file, which the stop says so.
    assert.match(refused!.message, /screenrecord: (Unable to open '\/data\/local\/tmp\/amh-rec-.*': Permission denied|no file)\)/);
  } finally {
    await sim.stop();
  }
});

test("a recording whose adb child the harness killed (SIGTERM/SIGINT: runner.killAll) is still kept by the stop", { skip }, async () => {
  const sim = await startSimDevice({ scenario: "login" });
  try {
    const runner = createNodeProcessRunner();
    const adb = createAdbClient({ runner, program: { program: ADB, source: "ADB" }, serverSocket: sim.adbServerSocket });
    const recordings = createAdbScreenRecordings({ adb, clock: createSystemClock(), segmentSeconds: 60, startCheckMs: 500 });
    await recordings.start(UDID, 600, wait);
    while (!sim.device.log.some((e) => e.command.startsWith("screenrecord"))) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 600));
    runner.killAll(); // what src/main.ts does on a stop signal, before Harness.close() stops the recordings
    await new Promise((r) => setTimeout(r, 300)); // the killed child's end is seen before the stop
    const finished = await recordings.stop(UDID, wait);
    assert.equal(finished.segments.length, 1, "no new segment starts after the kill");
    assert.ok(durations(finished.segments)[0]! > 0);
    assert.deepEqual(recordingFiles(sim), [], "the device keeps no recording");
  } finally {
    await sim.stop();
  }
});

test("a recording is read whole up to the evidence's video limit, past the adb client's per-command output cap", { skip }, async () => {
  const sim = await startSimDevice({ scenario: "login" });
  try {
    // The client's cap (64 MiB by default) made small: one simulated frame (a quarter screen, uncompressed) is past it,
    // as a real device's 180 s segment at 4 Mbit/s (90 MB) is past the default.
    const adb = createAdbClient({
      runner: createNodeProcessRunner(),
      program: { program: ADB, source: "ADB" },
      serverSocket: sim.adbServerSocket,
      maxOutputBytes: 64 * 1024,
    });
    const recordings = createAdbScreenRecordings({ adb, clock: createSystemClock(), segmentSeconds: 60, startCheckMs: 500 });
    await recordings.start(UDID, 600, wait);
    await new Promise((r) => setTimeout(r, 600));
    const finished = await recordings.stop(UDID, wait);
    assert.ok(finished.segments[0]!.length > 64 * 1024, `${finished.segments[0]!.length} bytes`);
    assert.ok(durations(finished.segments)[0]! > 0, "ffprobe reads the whole file");
  } finally {
    await sim.stop();
  }
});
