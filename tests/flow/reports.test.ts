/**
 * The three reports of a two-device run (one passed, one stopped by a dialog), written by the real
 * writer into a temporary artifacts directory: JSON with every step's tool, redacted args, envelope,
 * duration and evidence id; JUnit XML with one testsuite per device, read back with a DOM parser; a
 * self-contained HTML page rendered by headless Chromium (its screenshot shows the steps' thumbnails and
 * the failure colour; its DOM lists every step). Device texts are escaped, never run. Every thumbnail
 * links to its full-size PNG; a run whose session never opened still shows the screen of that moment.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { after, test } from "node:test";
import { DOMParser } from "@xmldom/xmldom";
import { type FlowFile, parseFlow } from "../../contracts/flow.ts";
import { decodePng, downscaleForModel } from "../../src/png/mod.ts";
import { buildFlowReport, type FlowReport } from "../../src/flow/flow_report.ts";
import { runFlow } from "../../src/flow/runner.ts";
import type { FlowRun, StepRecord } from "../../src/flow/flow_run.ts";
import { renderHtmlReport, ROW_THUMBNAIL_HEIGHT } from "../../src/flow/report_html.ts";
import { slug, writeFlowReports } from "../../src/flow/write_reports.ts";
import { createNodeFileSystem } from "../../src/adapters/evidence/node_file_system.ts";
import { BUILTIN_SCENARIOS, resolveScenario, ScenarioDevice } from "../../src/sim/mod.ts";
import { chromiumSkipReason, dumpDom, screenshotPage } from "../support/chromium.ts";
import { scenarioWorld } from "./scenario_world.ts";

function flow(value: unknown): FlowFile {
  const parsed = parseFlow(value);
  if (!parsed.ok) assert.fail(JSON.stringify(parsed.problems));
  return parsed.flow;
}

const loginFlow = flow({
  version: 1,
  name: "login <script>alert(1)</script> & more",
  package_name: "com.example.shop",
  steps: [
    { tool: "ui_type_text", args: { selector: { resource_id: "com.example.shop:id/email" }, text: "zoë@例え.jp" } },
    { tool: "ui_type_text", args: { selector: { resource_id: "com.example.shop:id/password" }, text: "pässwörd" } },
    {
      tool: "ui_tap",
      args: { selector: { resource_id: "com.example.shop:id/sign_in" } },
      expect: { visible: { text: "Signed in" }, timeout_ms: 200 },
    },
  ],
});

/** Device A passes; device B's Sign in is answered by a screen without "Signed in" (3). */
async function twoDeviceReport(artifacts: string): Promise<{ report: FlowReport; artifacts: string }> {
  const a = scenarioWorld("login", artifacts);
  const misrouted = structuredClone(BUILTIN_SCENARIOS["login"]!);
  misrouted.transitions.unshift({ from: "login", on: "tap", selector: { resource_id: "com.example.shop:id/sign_in" }, to: "forgot" });
  misrouted.android.serial = "emulator-5556";
  const b = scenarioWorld(misrouted, artifacts);
  const runs = await Promise.all([
    runFlow(loginFlow, a.harness, { file: "flows/login.json", pollIntervalMs: 20 }),
    runFlow(loginFlow, b.harness, { pollIntervalMs: 20 }),
  ]);
  return { report: buildFlowReport(runs), artifacts };
}

let shared: ReturnType<typeof writeOnce> | undefined;
let sharedDir: string | undefined;
after(() => {
  if (sharedDir !== undefined) rmSync(sharedDir, { recursive: true, force: true });
});

/** One two-device run and its reports, shared by the tests below (removed after them all). */
function written(): ReturnType<typeof writeOnce> {
  sharedDir ??= mkdtempSync(join(tmpdir(), "amh-reports-"));
  return shared ??= writeOnce(sharedDir);
}

async function writeOnce(dir: string) {
  const { report, artifacts } = await twoDeviceReport(dir);
  const files = await writeFlowReports(report, {
    artifactsDir: artifacts,
    fs: createNodeFileSystem(),
    evidence: scenarioWorld("login", artifacts).harness.deps.ports.evidence,
    thumbnail: (png) => downscaleForModel(png, { maxSide: 240 }),
    now: Date.parse("2026-11-30T21:56:07Z"),
  });
  return { report, files, artifacts };
}

test("the JSON report has every step's tool, redacted args, envelope, duration and evidence id, per device", async () => {
  const { files, artifacts } = await written();
  assert.equal(files.json, join(artifacts, "reports", `20261130-215607-${slug(loginFlow.name)}.json`));
  const json = JSON.parse(readFileSync(files.json, "utf8"));
  assert.equal(json.format, "android-mcp-harness/flow-report");
  assert.equal(json.exit_code, 3);
  assert.match(json.exit_meaning, /unexpected screen/);
  assert.deepEqual(json.runs.map((r: { device: { udid: string }; exit_code: number }) => [r.device.udid, r.exit_code]), [[
    "emulator-5554",
    0,
  ], ["emulator-5556", 3]]);
  const [passed, failed] = json.runs;
  for (const step of passed.steps) {
    assert.equal(typeof step.tool, "string");
    assert.equal(typeof step.duration_ms, "number");
    assert.equal(step.envelope.ok, true);
    assert.equal(step.evidence_id, step.envelope.evidence.artifact_id);
    assert.ok(readFileSync(join(artifacts, step.evidence_id)).length > 0, "the evidence id names a file in the artifacts directory");
  }
  assert.equal(passed.steps[0].args.text, "zoë@例え.jp", "a text typed into a plain field is shown as typed");
  assert.deepEqual(passed.steps[1].args.text, { redacted_length: 8 }, "the password field's text only as its length");
  for (const run of json.runs) {
    assert.ok(!JSON.stringify(run).includes("pässwörd"), "the password is nowhere in the run");
  }
  assert.equal(failed.failure.step, 3);
  assert.equal(failed.failure.expected, 'visible {"text":"Signed in"}');
  assert.match(failed.failure.screen_offers, /'Send link'/);
});

test("the JUnit XML has one testsuite per device, a failure on the failing step, counts that add up", async () => {
  const { files } = await written();
  const xml = readFileSync(files.junit, "utf8");
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  const root = doc.documentElement!;
  assert.equal(root.nodeName, "testsuites");
  assert.equal(root.getAttribute("tests"), "6");
  assert.equal(root.getAttribute("failures"), "1");
  const suites = Array.from(root.getElementsByTagName("testsuite"));
  assert.deepEqual(suites.map((s) => s.getAttribute("name")), [`${loginFlow.name} on emulator-5554`, `${loginFlow.name} on emulator-5556`]);
  assert.deepEqual(suites.map((s) => s.getAttribute("failures")), ["0", "1"]);
  const cases = Array.from(suites[1]!.getElementsByTagName("testcase"));
  assert.deepEqual(cases.map((c) => c.getAttribute("name")!.slice(0, 15)), ["01 ui_type_text", "02 ui_type_text", '03 ui_tap {"sel']);
  assert.ok(cases.every((c) => Number(c.getAttribute("time")) >= 0));
  const failure = cases[2]!.getElementsByTagName("failure")[0]!;
  assert.equal(failure.getAttribute("type"), "unexpected_screen");
  assert.match(failure.textContent!, /expected: visible \{"text":"Signed in"\}/);
  assert.match(failure.textContent!, /screen: com\.example\.shop offers/);
  assert.equal(suites[0]!.getElementsByTagName("failure").length, 0);
  assert.match(cases[0]!.getAttribute("name")!, /"text":"zoë@例え\.jp"/);
  assert.match(cases[1]!.getAttribute("name")!, /"redacted_length":8/);
});

test("the HTML page is self-contained and escapes what the device and the flow say", async () => {
  const { files } = await written();
  const html = readFileSync(files.html, "utf8");
  assert.ok(!/<script/i.test(html), "no script, and the flow's name is escaped");
  assert.match(html, /login &lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; more/);
  assert.ok(!/(src|href)="(https?:|\/\/|file:)/.test(html), "nothing is fetched");
  assert.equal((html.match(/src="data:image\/png;base64,/g) ?? []).length, 7, "6 step screenshots + the failure's");
  assert.match(html, /\{&quot;redacted_length&quot;:8\}/, "the page shows typed text as its length");
});

test("every thumbnail links to its full-size PNG next to the reports, the evidence file itself", async () => {
  const { files, report } = await written();
  const html = readFileSync(files.html, "utf8");
  const links = [...html.matchAll(/<a href="([^"]+)" title="the full-size screenshot"><img src="data:image\/png;base64,/g)].map((m) =>
    m[1]!
  );
  assert.equal(links.length, 7, "every thumbnail is a link");
  const ids = report.runs.flatMap((run) => run.steps.map((s) => s.evidence_id).filter((id) => id !== null));
  for (const href of links) {
    assert.match(href, /^\.\.\/\d{8}-\d{6}-\d{6}-[a-z-]+(-\d+)?\.png$/, "relative, so the page works wherever the artifacts are copied");
    const full = resolve(dirname(files.html), decodeURIComponent(href));
    assert.ok(existsSync(full), `${href} is there`);
    assert.equal(decodePng(readFileSync(full)).width, 1080, "the full size, not the thumbnail");
  }
  assert.ok(ids.every((id) => links.includes(`../${id}`)), "each step's evidence is linked");
});

test("a run whose session never opened still shows the screen of that moment", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "amh-reports-noapp-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const world = scenarioWorld("settings", dir);
  const run = await runFlow(
    flow({ version: 1, name: "no app", package_name: "com.example.shop", steps: [{ tool: "ui_get_tree" }] }),
    world.harness,
  );
  assert.equal(run.session.session_id, null, "the session never opened");
  assert.match(run.failure!.reason, /APP_NOT_FOUND/);
  assert.ok(run.failure!.evidence, "a screenshot of what was in front instead");
  const files = await writeFlowReports(buildFlowReport([run]), {
    artifactsDir: dir,
    fs: createNodeFileSystem(),
    evidence: world.harness.deps.ports.evidence,
    thumbnail: (png) => downscaleForModel(png, { maxSide: 240 }),
    now: Date.parse("2026-11-30T21:56:07Z"),
  });
  const html = readFileSync(files.html, "utf8");
  const failure = html.slice(html.indexOf('<div class="failure">'), html.indexOf("</div>", html.indexOf('<div class="failure">')));
  assert.match(failure, /<img src="data:image\/png;base64,[^"]+" width="\d+" height="240" alt="the screen at the failure: /);
});

test(
  "headless Chromium renders the HTML report from disk: the steps, their outcomes and their screenshots",
  { skip: chromiumSkipReason() },
  async () => {
    const { files } = await written();
    const dom = await dumpDom(files.html);
    for (
      const needle of [
        "emulator-5554",
        "emulator-5556",
        "ui_type_text",
        "ui_tap",
        "unexpected_screen",
        "exit 3",
        "Expected:",
        "The screen offers:",
        "3/3",
        "Send link",
      ]
    ) {
      assert.ok(dom.includes(needle), `the rendered page shows ${needle}`);
    }
    assert.equal((dom.match(/<tr class="/g) ?? []).length, 6, "one row per step on each device");
    assert.equal(
      (dom.match(/<a href="\.\.\/[^"]+\.png" title="the full-size screenshot">/g) ?? []).length,
      7,
      "each thumbnail is a link to its PNG",
    );
    const size = { width: 1280, height: 2400 };
    const shot = decodePng(await screenshotPage(files.html, size));
    assert.deepEqual([shot.width, shot.height], [size.width, size.height]);
    const count = (rgb: [number, number, number], tolerance: number) => {
      let n = 0;
      for (let i = 0; i < shot.rgba.length; i += 4) {
        if (
          Math.abs(shot.rgba[i]! - rgb[0]) <= tolerance && Math.abs(shot.rgba[i + 1]! - rgb[1]) <= tolerance &&
          Math.abs(shot.rgba[i + 2]! - rgb[2]) <= tolerance
        ) n++;
      }
      return n;
    };
    // The simulated screens' background (246,246,250) appears only inside the embedded thumbnails.
    const thumbnailPixels = count([246, 246, 250], 2);
    assert.ok(thumbnailPixels > 3 * 108 * 240 * 0.3, `the thumbnails are drawn (${thumbnailPixels} px of screen background)`);
    assert.ok(count([0xc6, 0x28, 0x28], 6) > 200, "the failure is drawn in red");
    assert.ok(count([0x1a, 0x7f, 0x37], 6) > 100, "passed steps are drawn in green");
    assert.equal(basename(files.html).endsWith(".html"), true);
  },
);

/**
 * A run of `count` steps on the simulated settings screens, the last one failing (an unexpected screen), its reports
 * written into `dir`: each step's evidence a real simulated screenshot (1080x2400) in the artifacts directory.
 */
async function longRun(count: number, dir: string): Promise<{ html: string; ids: string[] }> {
  const device = new ScenarioDevice(resolveScenario("settings"));
  const shots = [device.screenshotPng()];
  device.scroll("down");
  shots.push(device.screenshotPng());
  const ids = Array.from({ length: count + 1 }, (_, i) => `20261130-2156${String(i).padStart(2, "0")}-000000-ui-tap.png`);
  ids.forEach((id, i) => writeFileSync(join(dir, id), shots[i % 2]!));
  const steps: StepRecord[] = Array.from({ length: count }, (_, i) => ({
    index: i + 1,
    tool: "ui_tap",
    args: { selector: { text: i % 2 === 0 ? "Network & internet" : "Connected devices" } },
    expected: `visible {"text":"${i % 2 === 0 ? "Internet" : "Bluetooth"}"}`,
    outcome: i === count - 1 ? "unexpected_screen" : "passed",
    ...(i === count - 1 ? { reason: 'expectation not met: {"text":"Bluetooth"} is not on screen' } : {}),
    envelope: null,
    duration_ms: 400 + i,
    evidence_id: ids[i]!,
  }));
  const run: FlowRun = {
    flow: { name: `${count} steps`, package_name: "com.android.settings" },
    device: { udid: "emulator-5554", adb_server: "tcp:127.0.0.1:5037", description: "simulated Pixel", simulated: true },
    started_at: "2026-11-30T21:56:00.000Z",
    finished_at: "2026-11-30T21:56:20.000Z",
    duration_ms: 20_000,
    outcome: "unexpected_screen",
    exit_code: 3,
    session: { session_id: "s1", closed: true },
    steps,
    failure: {
      outcome: "unexpected_screen",
      reason: steps.at(-1)!.reason!,
      step: count,
      tool: "ui_tap",
      expected: steps.at(-1)!.expected!,
      screen_offers: "com.android.settings offers 'Network & internet' (button)",
      evidence: { artifact_id: ids[count]!, path: join(dir, ids[count]!), uri: `artifact://${ids[count]}` },
    },
  };
  const files = await writeFlowReports(buildFlowReport([run]), {
    artifactsDir: dir,
    fs: createNodeFileSystem(),
    evidence: {
      resolve: async (id) => ({ path: join(dir, id), bytes: new Uint8Array(readFileSync(join(dir, id))), mimeType: "image/png" }),
    },
    thumbnail: (png) => downscaleForModel(png, { maxSide: 240 }),
    now: Date.parse("2026-11-30T21:56:07Z"),
  });
  return { html: files.html, ids };
}

/** How tall the page's content is when drawn 1280 px wide: the last row of the screenshot that is not all white. */
async function contentHeight(html: string): Promise<number> {
  const size = { width: 1280, height: 5000 };
  const shot = decodePng(await screenshotPage(html, size));
  for (let y = shot.height - 1; y >= 0; y--) {
    for (let x = 0; x < shot.width; x++) {
      const i = (y * shot.width + x) * 4;
      if (shot.rgba[i] !== 255 || shot.rgba[i + 1] !== 255 || shot.rgba[i + 2] !== 255) {
        assert.ok(y < shot.height - 1, "the page fits the window it was measured in");
        return y + 1;
      }
    }
  }
  return 0;
}

test(
  "the HTML report stays readable for 30 steps: a compact row per step (about 60 px), every thumbnail a link to its PNG, the failure expanded",
  { skip: chromiumSkipReason() },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "amh-reports-long-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const heights: number[] = [];
    for (const count of [9, 30]) {
      const sub = join(dir, String(count));
      mkdirSync(sub);
      const { html, ids } = await longRun(count, sub);
      const page = readFileSync(html, "utf8");
      const links = [
        ...page.matchAll(
          /<a href="([^"]+)" title="the full-size screenshot"><img src="data:image\/png;base64,[^"]+" width="(\d+)" height="(\d+)"/g,
        ),
      ];
      assert.equal(links.length, count + 1, "every step's thumbnail (the failing one's too) and the failure's screen are links");
      assert.equal((page.match(/<img /g) ?? []).length, links.length, "no image outside a link");
      for (const [, href] of links) assert.ok(existsSync(resolve(dirname(html), decodeURIComponent(href!))), `${href} is there`);
      assert.deepEqual(new Set(links.map((l) => decodeURIComponent(l[1]!).slice(3))), new Set(ids), "each evidence file is linked");
      assert.equal(links.filter((l) => l[3] === String(ROW_THUMBNAIL_HEIGHT)).length, count - 1, "the passed steps' thumbnails are small");
      assert.equal(links.filter((l) => l[3] === "240").length, 2, "the failing step's and the failure's screen at full thumbnail size");
      heights.push(await contentHeight(html));
    }
    const [nine, thirty] = heights as [number, number];
    const perStep = (thirty - nine) / 21;
    t.diagnostic(`page height: 9 steps ${nine} px, 30 steps ${thirty} px, ${perStep.toFixed(1)} px per step`);
    // Before: a 240 px thumbnail per row made a 9-step report 2,200 px long.
    assert.ok(nine <= 1400, `9 steps: ${nine} px`);
    assert.ok(perStep <= 64, `${perStep.toFixed(1)} px per step (9 steps: ${nine} px, 30 steps: ${thirty} px)`);
    assert.ok(thirty <= 2800, `30 steps: ${thirty} px`);
  },
);

test("a recorded run's HTML plays each segment kept, linked next to the reports; a recording that failed is said, escaped", () => {
  const run = (recording: FlowRun["recording"]): FlowRun => ({
    flow: { name: "rec", package_name: "com.example.shop" },
    device: { udid: "emulator-5554", adb_server: "tcp:127.0.0.1:5037", description: "d", simulated: true },
    started_at: "2026-12-04T01:00:00.000Z",
    finished_at: "2026-12-04T01:00:05.000Z",
    duration_ms: 5000,
    outcome: "passed",
    exit_code: 0,
    session: { session_id: "s-1", closed: true },
    steps: [],
    ...(recording === undefined ? {} : { recording }),
  });
  const [a, b] = ["20261204-010000-000001-screen-record.mp4", "20261204-010300-000002-screen-record.mp4"];
  const evidence = { artifact_id: a, path: `/artifacts/${a}`, uri: `artifact://${a}` };
  const segmented = renderHtmlReport(
    buildFlowReport([run({ evidence, seconds: 200, segments: [`artifact://${a}`, `artifact://${b}`] })]),
    new Map(),
    new Map([[a, `../${a}`], [b, `../${b}`]]),
  );
  const videos = [...segmented.matchAll(/<video controls preload="metadata" width="270" src="([^"]+)"><\/video>/g)].map((m) => m[1]);
  assert.deepEqual(videos, [`../${a}`, `../${b}`]);
  assert.match(segmented, /screen recording \(segment 1 of 2\) <a href="\.\.\/20261204-010000-000001-screen-record\.mp4">/);
  const missing = renderHtmlReport(buildFlowReport([run({ evidence, seconds: 2 })]), new Map(), new Map());
  assert.match(missing, /screen recording unavailable/);
  assert.doesNotMatch(missing, /<video/);
  const failed = renderHtmlReport(buildFlowReport([run({ evidence: null, error: "EMULATOR_UNAVAILABLE: <no screenrecord>" })]), new Map());
  assert.match(failed, /screen recording unavailable: EMULATOR_UNAVAILABLE: &lt;no screenrecord&gt;/);
  assert.doesNotMatch(renderHtmlReport(buildFlowReport([run(undefined)]), new Map()), /screen recording/);
});
