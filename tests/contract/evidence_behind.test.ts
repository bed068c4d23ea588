/**
 * An act's evidence is taken behind its answer (issue 24 item 6), on the virtual clock: the answer names the PNG
 * without waiting for the capture; the next operation on the device waits for it before it touches the device; an
 * artifact:// read of a pending PNG waits for it (at most 15 s, then a typed error to read it again); a capture that
 * fails is said once, in the next answer on the device and in the act's audit line; a stop's drain finishes every
 * capture (nothing lost).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { HarnessError } from "../../src/errors.ts";
import { ARTIFACT_READ_WAIT_MS } from "../../src/mcp/pending_evidence.ts";
import { callEnvelope as call, withActServer } from "../support/act_calls.ts";
import { actWorld } from "../support/act_world.ts";

/** Screenshots that take `ms` of the world's time; `events` records when each starts and ends, and each tree read. */
function slowScreenshots(world: ReturnType<typeof actWorld>, ms: number, fail?: HarnessError) {
  const events: string[] = [];
  const observer = world.deps.ports.observer;
  const shot = observer.screenshot.bind(observer);
  const tree = observer.captureTree.bind(observer);
  observer.screenshot = async (wait) => {
    events.push("screenshot started");
    await world.clock.sleep(ms);
    events.push("screenshot ended");
    if (fail !== undefined) throw fail;
    return await shot(wait);
  };
  observer.captureTree = async (wait) => {
    events.push("tree read");
    return await tree(wait);
  };
  return events;
}

test("an act answers without waiting for its evidence; the next call waits for the capture before it touches the device", async () => {
  const world = actWorld();
  const events = slowScreenshots(world, 3_000);
  await withActServer(world, async (c) => {
    const started = world.clock.now();
    const back = await call(c, "device_back");
    assert.equal(back.ok, true, JSON.stringify(back.error));
    assert.equal(world.clock.now() - started < 3_000, true, "the answer did not wait for the 3 s screenshot");
    const id = back.evidence!.artifact_id;
    assert.equal(await world.evidence.resolve(id), null, "the PNG is still being captured");
    const tree = await call(c, "ui_get_tree");
    assert.equal(tree.ok, true, JSON.stringify(tree.error));
    assert.deepEqual(events, ["screenshot started", "screenshot ended", "tree read"]);
    assert.notEqual(await world.evidence.resolve(id), null, "the PNG the answer named exists");
    assert.equal(tree.previous_evidence_error, undefined);
    const line = world.audit.find((record) => record.tool === "device_back")!;
    assert.equal(line.evidence_id, id);
    assert.equal(line.evidence_error, undefined);
  });
});

test("an artifact:// read of a capture under way waits for it and serves the PNG", async () => {
  const world = actWorld();
  slowScreenshots(world, 2_000);
  await withActServer(world, async (c) => {
    const back = await call(c, "device_back");
    const started = world.clock.now();
    const read = await c.client.readResource({ uri: back.evidence!.uri });
    assert.equal(world.clock.now() - started > 0, true, "the read waited for the capture");
    const blob = (read.contents[0] as { blob: string }).blob;
    assert.deepEqual(Buffer.from(blob, "base64"), Buffer.from((await world.evidence.resolve(back.evidence!.artifact_id))!.bytes));
  });
});

test("an artifact:// read waits at most 15 s for a capture, then a typed error says to read it again", async () => {
  const world = actWorld({ actionTimeoutMs: 60_000 });
  slowScreenshots(world, ARTIFACT_READ_WAIT_MS + 5_000); // a capture that overran its own limit
  await withActServer(world, async (c) => {
    const back = await call(c, "device_back");
    const started = world.clock.now();
    await assert.rejects(c.client.readResource({ uri: back.evidence!.uri }), (error: Error & { code?: number; data?: unknown }) => {
      assert.equal(error.code, -32603);
      assert.match(error.message, /is still being captured after 15 s; read it again/);
      assert.deepEqual((error.data as { code?: string }).code, "OPERATION_TIMEOUT");
      return true;
    });
    assert.equal(world.clock.now() - started, ARTIFACT_READ_WAIT_MS);
    await world.deps.pending.drain();
    assert.notEqual(await world.evidence.resolve(back.evidence!.artifact_id), null, "read again, it is served");
  });
});

test("a capture that fails is said once, in the next answer on the device and in the act's audit line; a read says why", async () => {
  const world = actWorld();
  slowScreenshots(world, 500, new HarnessError("EVIDENCE_WRITE_FAILED", "Cannot write the screenshot (disk full)."));
  await withActServer(world, async (c) => {
    const back = await call(c, "device_back");
    assert.equal(back.ok, true, JSON.stringify(back.error));
    const id = back.evidence!.artifact_id;
    const next = await c.client.callTool({ name: "device_status", arguments: {} });
    const envelope = next.structuredContent as Record<string, unknown>;
    const said = envelope["previous_evidence_error"] as { artifact_id: string; code: string; message: string };
    assert.equal(said.artifact_id, id);
    assert.equal(said.code, "EVIDENCE_WRITE_FAILED");
    assert.match(
      said.message,
      /of the earlier device_back .* could not be stored: Cannot write .* That act took place; do not repeat it\./,
    );
    const text = (next.content as { text: string }[])[0]!.text;
    assert.match(text, /^previous_evidence_error: The evidence screenshot/m, "a model reads it");
    const line = world.audit.find((record) => record.tool === "device_back")!;
    assert.equal(line.evidence_id, id);
    assert.equal(line.outcome, "ok");
    assert.deepEqual(line.evidence_error?.code, "EVIDENCE_WRITE_FAILED");
    assert.equal((await call(c, "device_status")).previous_evidence_error, undefined, "said once");
    await assert.rejects(c.client.readResource({ uri: back.evidence!.uri }), (error: Error & { code?: number }) => {
      assert.equal(error.code, -32002);
      assert.match(error.message, /could not be stored \(EVIDENCE_WRITE_FAILED: Cannot write/);
      return true;
    });
  });
});

test("a failed capture is said to the next call also when that call fails", async () => {
  const world = actWorld();
  slowScreenshots(world, 100, new HarnessError("EVIDENCE_WRITE_FAILED", "disk full"));
  await withActServer(world, async (c) => {
    const back = await call(c, "device_back");
    const miss = await call(c, "ui_tap", { selector: { text: "No such thing anywhere" } });
    assert.equal(miss.ok, false);
    assert.equal(miss.previous_evidence_error?.artifact_id, back.evidence!.artifact_id);
  });
});

test("a stop's drain finishes the captures under way: the PNG and the audit line are written", async () => {
  const world = actWorld();
  slowScreenshots(world, 4_000);
  await withActServer(world, async (c) => {
    const back = await call(c, "device_back");
    assert.equal(world.audit.some((record) => record.tool === "device_back"), false, "the line waits for the evidence");
    await world.deps.pending.drain();
    assert.notEqual(await world.evidence.resolve(back.evidence!.artifact_id), null);
    assert.equal(world.audit.filter((record) => record.tool === "device_back").length, 1);
  });
});

test("a capture that hangs ends at its own limit, half the action limit: the next call keeps half of its time", async () => {
  const world = actWorld({ actionTimeoutMs: 4_000 });
  world.deps.ports.observer.screenshot = async (wait) => {
    await world.clock.sleep(wait.timeoutMs);
    throw new HarnessError("OPERATION_TIMEOUT", `adb screencap did not answer within ${wait.timeoutMs} ms and was stopped`);
  };
  await withActServer(world, async (c) => {
    const back = await call(c, "device_back");
    assert.equal(back.ok, true, JSON.stringify(back.error));
    const next = await call(c, "device_back");
    assert.equal(next.ok, true, JSON.stringify(next.error));
    assert.equal(next.previous_evidence_error?.code, "OPERATION_TIMEOUT");
    assert.match(next.previous_evidence_error!.message, /within 2000 ms/);
  });
});

test("ui_session_close right after an act in its session waits for the act's evidence instead of answering EMULATOR_BUSY", async () => {
  const world = actWorld();
  slowScreenshots(world, 2_000);
  await withActServer(world, async (c) => {
    const opened = await call(c, "ui_session_open");
    const session = opened.data["session_id"] as string;
    const back = await call(c, "device_back", { session_id: session });
    assert.equal(back.ok, true, JSON.stringify(back.error));
    const closed = await call(c, "ui_session_close", { session_id: session });
    assert.equal(closed.ok, true, JSON.stringify(closed.error));
    assert.equal(closed.data["closed"], true);
    assert.notEqual(await world.evidence.resolve(back.evidence!.artifact_id), null);
  });
});
