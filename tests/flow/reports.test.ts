/**
 * The three reports of a two-device run (one passed, one stopped by a dialog), written by the real
 * writer into a temporary artifacts directory: JSON with every step's tool, redacted args, envelope,
 * duration and evidence id; JUnit XML with one testsuite per device, read back with a DOM parser; a
 * self-contained HTML page rendered by headless Chromium (its screenshot shows the steps' thumbnails and
 * the failure colour; its DOM lists every step). Device texts are escaped, never run. Every thumbnail
 * links to its full-size PNG; a run whose session never opened still shows the screen of that moment.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { after, test } from "node:test";
import { DOMParser } from "@xmldom/xmldom";
import { type FlowFile, parseFlow } from "../../contracts/flow.ts";
import { decodePng, downscaleForModel } from "../../src/png/mod.ts";
import { buildFlowReport, type FlowReport } from "../../src/flow/flow_report.ts";
import { runFlow } from "../../src/flow/runner.ts";
import { slug, writeFlowReports } from "../../src/flow/write_reports.ts";
import { createNodeFileSystem } from "../../src/adapters/evidence/node_file_system.ts";
import { BUILTIN_SCENARIOS } from "../../src/sim/mod.ts";
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
