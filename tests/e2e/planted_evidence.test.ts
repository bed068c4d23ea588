/**
 * `artifact://` serves only files the harness wrote (issue 18), over stdio against `serve --device sim`: a hard
 * link to a file outside the artifacts directory, a non-PNG file and a huge sparse file planted under evidence
 * names are refused (-32002, not found) and not listed, fast and without reading them; a real screenshot still is.
 */
import assert from "node:assert/strict";
import { closeSync, ftruncateSync, linkSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { evidenceId } from "../../src/adapters/evidence/evidence_id.ts";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";

test("planted files under evidence names are neither served nor listed; a real screenshot is", { timeout: 60_000 }, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  mkdirSync(home.artifacts, { recursive: true });
  const outside = join(home.root, "private.txt");
  writeFileSync(outside, "root:x:0:0:root:/root:/bin/bash\n");
  // Named as of now: evidence older than the retention days is pruned at start, which would hide the defect.
  const now = Date.now() * 1000;
  const planted = { hardLink: evidenceId(now, "ui_tap"), notPng: evidenceId(now + 1, "ui_tap"), huge: evidenceId(now + 2, "ui_tap") };
  linkSync(outside, join(home.artifacts, planted.hardLink));
  writeFileSync(join(home.artifacts, planted.notPng), "not a png at all");
  const fd = openSync(join(home.artifacts, planted.huge), "w");
  writeSync(fd, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  ftruncateSync(fd, 200 * 1024 * 1024); // sparse: 200 MB that take no disk
  closeSync(fd);
  const served = await spawnServe(["--device", "sim"], home.env);
  t.after(() => served.close());
  const shot = envelopeOf(await served.client.callTool({ name: "ui_screenshot", arguments: {} }));
  assert.equal(shot.ok, true, JSON.stringify(shot.error));
  const listed = (await served.client.listResources()).resources.map((r) => r.uri);
  assert.ok(listed.includes(shot.evidence!.uri), "the harness's own screenshot is listed");
  for (const name of Object.values(planted)) {
    assert.ok(!listed.includes(`artifact://${name}`), `${name} is not listed`);
    await assert.rejects(served.client.readResource({ uri: `artifact://${name}` }), /-32002|not found|No evidence/i, `${name} is refused`);
  }
  const read = await served.client.readResource({ uri: shot.evidence!.uri });
  assert.equal(read.contents[0]!.mimeType, "image/png");
});
