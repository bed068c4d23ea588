/**
 * A flow that records its run (`"record": true`), through the real CLI on the simulated device: the report names the
 * MP4 (`runs[].recording`), ffprobe reads it as H.264 as long as the run, and the HTML report's <video> plays it in
 * headless Chromium. Skipped, with the reason, without ffprobe or Chromium.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { actToolsSkipReason } from "../support/act_tools.ts";
import { chromiumSkipReason, dumpDomAfter } from "../support/chromium.ts";
import { runCliCaptured } from "../support/cli.ts";
import { ffprobeSkipReason, probeVideo } from "../support/ffprobe.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { tempDir } from "../evidence/temp_dir.ts";

const skip = actToolsSkipReason() || ffprobeSkipReason();

test("a flow with record: true: the report names its MP4, ffprobe reads it, the HTML report plays it", { skip }, async (t) => {
  const dir = tempDir(t, "amh-flowrec-");
  const flow = JSON.parse(readFileSync(join(REPO_ROOT, "docs", "flows", "login-form.json"), "utf8")) as Record<string, unknown>;
  const file = join(dir, "login-recorded.json");
  writeFileSync(file, JSON.stringify({ ...flow, name: "login-recorded", record: true }));
  const run = await runCliCaptured(["flow", file, "--device", "sim", "--artifacts", join(dir, "artifacts"), "--json"], {
    env: { SHOP_PASSWORD: "pw" },
  });
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  const report = JSON.parse(run.stdout) as {
    runs: { duration_ms: number; recording?: { evidence: { path: string; uri: string } | null; seconds?: number; error?: string } }[];
    reports: { html: string };
  };
  const recording = report.runs[0]!.recording!;
  assert.ok(recording.evidence !== null, JSON.stringify(recording));
  assert.match(recording.evidence.uri, /^artifact:\/\/.*-screen-record\.mp4$/);
  const facts = probeVideo(recording.evidence.path);
  assert.equal(facts.codec, "h264");
  assert.ok(facts.frames >= 3, `the launch, the typing and the sign-in are frames (${facts.frames})`);
  assert.ok(facts.duration > 0 && facts.duration <= report.runs[0]!.duration_ms / 1000 + 1, `${facts.duration} s`);
  assert.ok(Math.abs(facts.duration - recording.seconds!) <= 1, `ffprobe ${facts.duration} s, reported ${recording.seconds} s`);

  const html = readFileSync(report.reports.html, "utf8");
  const src = /<video controls preload="metadata" width="270" src="([^"]+)">/.exec(html)?.[1];
  assert.equal(src, `../${recording.evidence.path.split("/").at(-1)}`);
  const chromium = chromiumSkipReason();
  if (chromium !== false) return t.skip(chromium);
  // The report itself runs no script: a page beside it plays the same <video> and writes what the player saw.
  const probe = join(dirname(report.reports.html), "probe.html");
  writeFileSync(
    probe,
    `<video id="v" muted src="${src}"></video><pre id="o">pending</pre><script>
const v = document.getElementById("v"), o = document.getElementById("o");
v.addEventListener("loadeddata", () => { o.textContent = "loaded " + v.videoWidth + "x" + v.videoHeight + " " + v.duration; });
v.addEventListener("error", () => { o.textContent = "error " + (v.error && v.error.code); });
</script>`,
  );
  const dom = await dumpDomAfter(probe, 5000);
  const seen = /<pre id="o">([^<]*)<\/pre>/.exec(dom)?.[1] ?? dom;
  assert.match(seen, /^loaded 270x600 /, seen);
  assert.ok(Math.abs(Number(seen.split(" ")[2]) - facts.duration) < 0.01, seen);
});
