/**
 * The campaign's refusal rule: an argument error found by validation sent nothing to the device; one found
 * after looking (a selector that names a non-input, a password append) may have read the device, never changed it. What a
 * device may hold between calls: with the warm device one session, the one its lock names; without, nothing.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  commandsOutsideSlots,
  isDeviceLockLine,
  leftoversBetweenCalls,
  type LockNote,
  protocolErrorOverreach,
  refusalOverreach,
} from "../../scripts/campaign/invariants.ts";
import { ADB_COMMANDS, type AdbCommand } from "../../src/adapters/adb/adb_commands.ts";
import { DEVICE_LOCK_COMMANDS } from "../../src/adapters/adb/device_side_lock.ts";
import { END_MARKER_ARGS } from "../../src/adapters/adb/stream_end.ts";
import type { LogEntry } from "../../src/sim/mod.ts";

const uia2 = (command: string): LogEntry => ({ source: "uia2", command });

test("a refusal after a read (INVALID_SELECTOR: not an input) may start a session and find, never type or tap", () => {
  const reads = [uia2("new session"), uia2("update settings"), uia2("get page source"), uia2("find elements xpath /hierarchy/*[1]")];
  assert.equal(refusalOverreach("INVALID_SELECTOR", reads), null);
  assert.equal(refusalOverreach("INVALID_ARGUMENT", reads), null);
  assert.equal(refusalOverreach("INVALID_SELECTOR", [...reads, uia2('send keys "hello"')]), 'send keys "hello"');
  assert.equal(refusalOverreach("INVALID_ARGUMENT", [...reads, uia2("click")]), "click");
});

test("a refusal by validation alone (INVALID_TEXT, INVALID_PACKAGE, INVALID_SCROLL_DIRECTION) sent no command at all", () => {
  for (const code of ["INVALID_TEXT", "INVALID_PACKAGE", "INVALID_SCROLL_DIRECTION"]) {
    assert.equal(refusalOverreach(code, [uia2("delete session")]), null, code);
    assert.equal(refusalOverreach(code, [uia2("new session")]), "new session", code);
    // The previous act's PNG, taken behind its answer, may be captured while this call is refused; nothing else may.
    const capture: LogEntry = { source: "adb", command: "screencap '-p'" };
    assert.equal(refusalOverreach(code, [capture]), null, code);
    assert.equal(
      refusalOverreach(code, [capture, { source: "adb", command: "screencap '-p' '/sdcard/x.png'" }]),
      "screencap '-p' '/sdcard/x.png'",
    );
  }
});

test("a protocol error sent nothing: the previous act's PNG and its lock lines may land in its window, nothing else", () => {
  const capture: LogEntry = { source: "adb", command: "screencap '-p'" };
  const free: LogEntry = {
    source: "adb",
    command: [...DEVICE_LOCK_COMMANDS.remove("8283a8c6-e9ab-49b5-9537-01f1f739c6eb").args.slice(1), ...END_MARKER_ARGS].join(" "),
  };
  assert.equal(isDeviceLockLine(free), true, "the release is a device lock line");
  // What a campaign CI run flagged (seed 394137): a malformed ui_tap refused while the previous act's PNG was taken.
  assert.equal(protocolErrorOverreach([capture, free]), null);
  assert.equal(protocolErrorOverreach([uia2("delete session")]), null);
  assert.equal(protocolErrorOverreach([capture, uia2("click")]), "click");
  assert.equal(protocolErrorOverreach([{ source: "adb", command: "input tap 1 2" }]), "input tap 1 2");
});

test("other failures are not judged by this rule", () => {
  assert.equal(refusalOverreach("UI_ELEMENT_NOT_FOUND", [uia2("click")]), null);
});

test("between calls, with the warm device: at most one new session, the one the lock's note names; no lock, no session", () => {
  const before = new Set(["old"]);
  const lock = (id?: string): LockNote => ({ pid: 42, ...(id === undefined ? {} : { appium_session_id: id }) });
  assert.equal(leftoversBetweenCalls(["old"], before, null, true), null);
  assert.equal(leftoversBetweenCalls(["old", "w1"], before, lock("w1"), true), null);
  assert.equal(leftoversBetweenCalls(["old", "w1", "w2"], before, lock("w2"), true)?.kind, "orphaned sessions");
  assert.equal(leftoversBetweenCalls(["old", "w1"], before, null, true)?.kind, "orphaned sessions");
  assert.equal(leftoversBetweenCalls(["old", "w1"], before, lock("w0"), true)?.kind, "orphaned sessions");
  assert.equal(leftoversBetweenCalls(["old", "w1"], before, lock(), true)?.kind, "orphaned sessions");
  assert.equal(leftoversBetweenCalls(["old"], before, lock("w1"), true)?.kind, "leaked locks");
});

test("between calls, one session per act (or once the server stopped): no session beyond those before, no lock", () => {
  const before = new Set(["old"]);
  assert.equal(leftoversBetweenCalls(["old"], before, null, false), null);
  assert.equal(leftoversBetweenCalls(["old", "w1"], before, { pid: 1, appium_session_id: "w1" }, false)?.kind, "orphaned sessions");
  assert.equal(leftoversBetweenCalls(["old"], before, { pid: 1 }, false)?.kind, "leaked locks");
});

test("the device lock's own lines (issue 25 defect 5) are bookkeeping: in no slot, never an overreach; anything else on them is", () => {
  const adb = (command: AdbCommand): LogEntry => ({
    source: "adb",
    command: [...command.args.slice(1), ...END_MARKER_ARGS].join(" "),
  });
  const token = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
  const note = JSON.stringify({ pid: 1, host: "h", token, tool: "x' ; reboot", operation_id: "$(id)" });
  const lines = [
    adb(DEVICE_LOCK_COMMANDS.acquire(note)),
    adb(DEVICE_LOCK_COMMANDS.renote(token, note)),
    adb(DEVICE_LOCK_COMMANDS.remove(token)),
    adb(DEVICE_LOCK_COMMANDS.removeEmpty()),
  ];
  assert.deepEqual(commandsOutsideSlots(lines, { packages: [] }), []);
  assert.equal(refusalOverreach("INVALID_TEXT", lines), null);
  assert.equal(lines.every(isDeviceLockLine), true);
  // Another command riding on a lock line, or a note that is not JSON, is not one.
  const tampered = [
    { ...lines[2]!, command: lines[2]!.command.replace(" && rm -r", " && reboot ; rm -r") },
    adb(DEVICE_LOCK_COMMANDS.acquire("not json")),
  ];
  assert.equal(tampered.some(isDeviceLockLine), false);
  assert.equal(commandsOutsideSlots(tampered, { packages: [] }).length, 2);
});

test("screen_record's commands are in their slots: a segment of at most 180 s at 4 Mbit/s into its own file, read back and removed", () => {
  const shell = (command: AdbCommand): LogEntry => ({ source: "adb", command: [...command.args.slice(1), ...END_MARKER_ARGS].join(" ") });
  const path = "/data/local/tmp/amh-rec-1796355961260-4468-1.mp4";
  const lines: LogEntry[] = [
    { source: "adb", command: `screenrecord '--time-limit' '180' '--bit-rate' '4000000' '${path}'` }, // exec-out, as the simulated adb server logs it
    { source: "adb", command: `cat '${path}'` },
    shell(ADB_COMMANDS.pidofScreenrecord()),
    shell(ADB_COMMANDS.removeRecording(path)),
  ];
  assert.deepEqual(commandsOutsideSlots(lines, { packages: [] }), []);
  const wrong: LogEntry[] = [
    { source: "adb", command: `screenrecord '--time-limit' '181' '--bit-rate' '4000000' '${path}'` },
    { source: "adb", command: `screenrecord '--time-limit' '180' '--bit-rate' '20000000' '${path}'` },
    { source: "adb", command: `screenrecord '--time-limit' '180' '--bit-rate' '4000000' '/sdcard/amh-rec-1.mp4'` },
    { source: "adb", command: `cat '/data/local/tmp/secret.db'` },
    { source: "adb", command: `rm -f /data/local/tmp/amh-rec-1.mp4 /sdcard/x${END_MARKER_ARGS.map((a) => ` ${a}`).join("")}` },
  ];
  assert.equal(commandsOutsideSlots(wrong, { packages: [] }).length, 5);
});
