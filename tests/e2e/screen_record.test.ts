/**
 * Screen recordings end to end: `serve --device sim` (the real adb client, the simulated device's `screenrecord`)
 * records while the screen changes, keeps the MP4 as `artifact://…mp4` evidence served as video/mp4, refuses a second
 * start and a stop without a start in words that say what to do, and keeps a recording still running when stdin
 * closes. ffprobe reads every MP4 (skipped, with the reason, where it is missing).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome, pidGoneWithin } from "../support/mcp_e2e.ts";
import { ffprobeSkipReason, probeVideo } from "../support/ffprobe.ts";

test("a recording through serve: start, the screen changes, stop gives an MP4 ffprobe reads; a normal stop keeps a running one", {
  skip: ffprobeSkipReason(),
}, async () => {
  const home = makeServeHome();
  const served = await spawnServe(["--device", "sim"], home.env);
  try {
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await served.client.callTool({ name, arguments: args });
      return { result, envelope: envelopeOf(result) };
    };
    const stopWithout = await call("screen_record", { action: "stop" });
    assert.equal(stopWithout.envelope.error?.code, "INVALID_ARGUMENT");
    assert.match(stopWithout.envelope.error!.message, /No screen recording runs on emulator-5554: start one .*"start" first/);

    const started = await call("screen_record", { action: "start" });
    assert.equal(started.envelope.ok, true, JSON.stringify(started.envelope.error));
    assert.deepEqual(started.envelope.data, { recording: true, max_seconds: 600 });
    const again = await call("screen_record", { action: "start" });
    assert.equal(again.envelope.error?.code, "EMULATOR_BUSY");
    assert.match(again.envelope.error!.message, /already runs on emulator-5554; stop it first/);

    const scrolled = await call("ui_scroll", { direction: "down" });
    assert.equal(scrolled.envelope.ok, true, JSON.stringify(scrolled.envelope.error));
    await new Promise((r) => setTimeout(r, 1500)); // the device looks at its screen every 500 ms

    const stopped = await call("screen_record", { action: "stop" });
    assert.equal(stopped.envelope.ok, true, JSON.stringify(stopped.envelope.error));
    const data = stopped.envelope.data as { recording: boolean; seconds: number; reached_limit: boolean };
    assert.equal(data.recording, false);
    assert.equal(data.reached_limit, false);
    const evidence = stopped.envelope.evidence!;
    assert.match(evidence.uri, /^artifact:\/\/\d{8}-\d{6}-\d{6}-screen-record\.mp4$/);
    assert.equal(evidence.path, join(home.artifacts, evidence.artifact_id));
    const link = (stopped.result.content as { type: string; uri?: string; mimeType?: string }[]).find((c) => c.type === "resource_link");
    assert.deepEqual([link?.uri, link?.mimeType], [evidence.uri, "video/mp4"]);
    const read = await served.client.readResource({ uri: evidence.uri });
    const content = read.contents[0] as { mimeType: string; blob: string };
    assert.equal(content.mimeType, "video/mp4");
    assert.deepEqual(Buffer.from(content.blob, "base64"), readFileSync(evidence.path));
    const listed = await served.client.listResources();
    assert.equal(listed.resources.find((r) => r.uri === evidence.uri)?.mimeType, "video/mp4");

    const facts = probeVideo(evidence.path);
    assert.equal(facts.codec, "h264");
    assert.ok(facts.frames >= 2, `the scroll is a second frame (${facts.frames} frames)`);
    // The device's clock and the server's differ by the adb round trips: within a second.
    assert.ok(Math.abs(facts.duration - data.seconds) <= 1, `ffprobe ${facts.duration} s, answered ${data.seconds} s`);

    const pending = await call("screen_record", { action: "start" });
    assert.equal(pending.envelope.ok, true, JSON.stringify(pending.envelope.error));
    await new Promise((r) => setTimeout(r, 700));
    await served.client.close(); // stdin EOF: a normal stop
    assert.ok(await pidGoneWithin(served.pid!, 30_000), `serve exited\n${served.stderr()}`);
    const kept = /screen recording of emulator-5554 was stopped and kept: artifact:\/\/(\S+\.mp4)/.exec(served.stderr());
    assert.ok(kept !== null, served.stderr());
    const keptPath = join(home.artifacts, kept[1]!);
    assert.ok(existsSync(keptPath), keptPath);
    assert.equal(probeVideo(keptPath).codec, "h264");
  } finally {
    await served.close();
    home.remove();
  }
});
