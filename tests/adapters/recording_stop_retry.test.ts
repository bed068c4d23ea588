/**
 * A stop whose read of the recording fails (the call cancelled or timed out, adb failing) loses nothing: the files stay
 * on the device, the recording stays stopped but unread, and a retry of the stop reads them, then removes them.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createAdbClient } from "../../src/adapters/adb/adb_client.ts";
import { createAdbScreenRecordings } from "../../src/adapters/adb/screen_recordings.ts";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import type { HarnessError } from "../../src/errors.ts";
import { commandOf, fakeRunner } from "../adb/fake_runner.ts";

test("a stop whose read fails keeps the recording: nothing removed, the retry of the stop reads it and removes it", async () => {
  const bytes = new Uint8Array([0, 0, 0, 8, 0x6d, 0x6f, 0x6f, 0x76]);
  let reads = 0;
  const removed: string[] = [];
  const runner = fakeRunner((args) => {
    const command = commandOf(args);
    if (command.startsWith("exec-out screenrecord")) return { hang: true };
    if (command.startsWith("exec-out cat ")) return ++reads === 1 ? { hang: true } : { stdout: bytes };
    if (command.startsWith("shell pidof")) return { exitCode: 1 };
    if (command.startsWith("shell rm -f")) {
      removed.push(args.at(-1)!);
      return {};
    }
    return undefined;
  });
  const adb = createAdbClient({ runner, program: { program: "/sdk/adb", source: "ADB" } });
  const recordings = createAdbScreenRecordings({ adb, clock: createSystemClock(), startCheckMs: 20 });
  await recordings.start("emulator-5554", 600, { timeoutMs: 5_000 });
  await assert.rejects(recordings.stop("emulator-5554", { timeoutMs: 300 }), (error: HarnessError) => {
    assert.equal(error.code, "OPERATION_TIMEOUT", "the first read hangs past the call's time");
    // What the agent reads says the recording is not lost and how to get it, not only adb's "retry".
    assert.match(error.message, /did not answer within 300 ms.*recording is kept.*screen_record with action "stop" again/s);
    return true;
  });
  assert.deepEqual(removed, [], "nothing removed from the device before it was read");
  assert.deepEqual(recordings.running(), ["emulator-5554"], "the recording is still there to stop");
  const finished = await recordings.stop("emulator-5554", { timeoutMs: 5_000 });
  assert.deepEqual(finished.segments, [bytes]);
  assert.equal(removed.length, 1, "removed once read");
  assert.deepEqual(recordings.running(), []);
});

test("while a stop reads the recording, a start on that device is refused (busy), so a failed read cannot drop the new one", async () => {
  const bytes = new Uint8Array([0, 0, 0, 8, 0x6d, 0x6f, 0x6f, 0x76]);
  let reads = 0;
  let recordings = 0;
  const runner = fakeRunner((args) => {
    const command = commandOf(args);
    if (command.startsWith("exec-out screenrecord")) return (recordings++, { hang: true });
    if (command.startsWith("exec-out cat ")) return ++reads === 1 ? { hang: true } : { stdout: bytes };
    if (command.startsWith("shell pidof")) return { exitCode: 1 };
    if (command.startsWith("shell rm -f")) return {};
    return undefined;
  });
  const adb = createAdbClient({ runner, program: { program: "/sdk/adb", source: "ADB" } });
  const screen = createAdbScreenRecordings({ adb, clock: createSystemClock(), startCheckMs: 20 });
  await screen.start("emulator-5554", 600, { timeoutMs: 5_000 });
  const stopping = screen.stop("emulator-5554", { timeoutMs: 500 });
  while (reads === 0) await new Promise((r) => setTimeout(r, 5));
  // The first stop is reading (its read hangs): a start now would record beside a recording not yet read.
  await assert.rejects(screen.start("emulator-5554", 600, { timeoutMs: 5_000 }), (error: HarnessError) => {
    assert.equal(error.code, "EMULATOR_BUSY");
    assert.match(error.message, /stop.*under way/);
    return true;
  });
  await assert.rejects(stopping, { code: "OPERATION_TIMEOUT" });
  assert.equal(recordings, 1, "no second screenrecord started");
  // The kept recording is the first one, and the retry of its stop reads it.
  assert.deepEqual((await screen.stop("emulator-5554", { timeoutMs: 5_000 })).segments, [bytes]);
  assert.deepEqual(screen.running(), []);
});

test("a segment that ends at its limit with screenrecord's size-fallback WARNING (it recorded) is no refusal: the next starts", async () => {
  const warned = new TextEncoder().encode("WARNING: failed at 1440x3120, retrying at 720x1560\n");
  const mp4 = new Uint8Array([0, 0, 0, 8, 0x6d, 0x6f, 0x6f, 0x76]);
  const paths: string[] = [];
  const runner = fakeRunner((args) => {
    const command = commandOf(args);
    if (command.startsWith("exec-out screenrecord")) {
      paths.push(args.at(-1)!);
      // The first segment warns and then records to its limit; the second records until the stop.
      return paths.length === 1 ? { stdout: warned } : { hang: true };
    }
    if (command.startsWith("exec-out cat ")) return { stdout: mp4 };
    if (command.startsWith("shell pidof")) return { exitCode: 1 };
    if (command.startsWith("shell rm -f")) return {};
    return undefined;
  });
  const adb = createAdbClient({ runner, program: { program: "/sdk/adb", source: "ADB" } });
  const recordings = createAdbScreenRecordings({ adb, clock: createSystemClock(), segmentSeconds: 1, startCheckMs: 50 });
  await recordings.start("emulator-5554", 600, { timeoutMs: 5_000 });
  const waitUntil = Date.now() + 5_000;
  while (paths.length < 2 && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 5));
  assert.equal(paths.length, 2, "the next segment started after the warned one");
  const finished = await recordings.stop("emulator-5554", { timeoutMs: 5_000 });
  assert.equal(finished.segments.length, 2, "both segments read");
});
