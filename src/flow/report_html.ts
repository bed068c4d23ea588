/**
 * The HTML report of a flow: one self-contained page (inline CSS, screenshots embedded as `data:` URIs,
 * no script, no external request) readable from disk without a server. Per device: the outcome and exit
 * code, the failure (step, what was expected, what the screen offered, its screenshot), then every step as one
 * compact row: its number, tool, arguments (a secret typed text redacted), expectation, outcome, duration and a small
 * thumbnail (48 px high, so 30 steps stay one readable table); the step that failed is expanded (its reason and its
 * thumbnail at full thumbnail size). Every thumbnail links to the full-size PNG next to the reports (`../<evidence id>`).
 * A run recorded (`record: true`) shows its screen recording in a `<video>` playing the MP4 next to the reports.
 * Everything from the device or the flow file is HTML-escaped. Pure: thumbnails and video links are given by evidence id.
 */
import { FLOW_EXIT_MEANINGS } from "../../contracts/flow.ts";
import { deviceName, type FlowReport } from "./flow_report.ts";
import type { FlowRun, StepRecord } from "./flow_run.ts";

/** A downscaled screenshot, by evidence id, and where its full-size PNG is, relative to the report. */
export interface Thumbnail {
  dataUri: string;
  width: number;
  height: number;
  /** A relative URL (`../20261129-….png`); the thumbnail links to it. */
  href: string;
}

export type Thumbnails = ReadonlyMap<string, Thumbnail>;

/** Where each screen recording's MP4 is, relative to the report (`../20261129-…-screen-record.mp4`), by evidence id. */
export type VideoLinks = ReadonlyMap<string, string>;

export function renderHtmlReport(report: FlowReport, thumbnails: Thumbnails, videos: VideoLinks = new Map()): string {
  const title = `Flow ${report.flow.name}: ${report.outcome === "passed" ? "passed" : `failed (exit ${report.exit_code})`}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1 class="${report.outcome === "passed" ? "ok" : "bad"}">${esc(title)}</h1>
<p class="meta">package <code>${esc(report.flow.package_name)}</code>${
    report.flow.file === undefined ? "" : ` · file <code>${esc(report.flow.file)}</code>`
  }
 · ${report.runs.length} device${report.runs.length === 1 ? "" : "s"} · started ${esc(report.started_at)} · ${ms(report.duration_ms)}
 · exit ${report.exit_code}: ${esc(report.exit_meaning)}</p>
${report.runs.map((run) => deviceSection(run, thumbnails, videos)).join("\n")}
</body>
</html>
`;
}

function deviceSection(run: FlowRun, thumbnails: Thumbnails, videos: VideoLinks): string {
  const passed = run.steps.filter((s) => s.outcome === "passed").length;
  return `<section class="device">
<h2>${esc(deviceName(run))} <span class="badge ${run.outcome === "passed" ? "ok" : "bad"}">${
    esc(run.outcome)
  } · exit ${run.exit_code}</span></h2>
<p class="meta">${esc(run.device.description)}${
    run.device.simulated ? " (SIMULATED device)" : ""
  } · ${passed} of ${run.steps.length} steps passed · ${ms(run.duration_ms)}
 · session ${
    run.session.session_id === null
      ? "not opened"
      : `${esc(run.session.session_id)} ${run.session.closed ? "closed" : `NOT closed: ${esc(run.session.close_error ?? "")}`}`
  }</p>
${run.failure === undefined ? "" : failureBlock(run, thumbnails)}
${recordingBlock(run, videos)}<table>
<thead><tr><th>#</th><th>step</th><th>expected</th><th>outcome</th><th>time</th><th>screen</th></tr></thead>
<tbody>
${run.steps.map((step) => stepRow(step, run.steps.length, thumbnails)).join("\n")}
</tbody>
</table>
</section>`;
}

/** The run's screen recording, each segment played from its MP4 next to the reports; nothing when the flow did not record. */
function recordingBlock(run: FlowRun, videos: VideoLinks): string {
  const recording = run.recording;
  if (recording === undefined) return "";
  const first = recording.evidence?.artifact_id;
  const ids = recording.segments?.map((uri) => uri.replace(/^artifact:\/\//, "")) ?? (first === undefined ? [] : [first]);
  const playable = ids.flatMap((id) => {
    const href = videos.get(id);
    return href === undefined ? [] : [{ id, href }];
  });
  if (playable.length === 0) {
    return `<p class="meta">screen recording unavailable${recording.error === undefined ? "" : `: ${esc(recording.error)}`}</p>\n`;
  }
  const seconds = recording.seconds === undefined ? "" : ` · ${recording.seconds} s`;
  return playable.map(({ id, href }, i) =>
    `<figure class="recording"><video controls preload="metadata" width="270" src="${esc(href)}"></video>` +
    `<figcaption>screen recording${playable.length > 1 ? ` (segment ${i + 1} of ${playable.length})` : ""} <a href="${esc(href)}">${
      esc(id)
    }</a>${i === 0 ? seconds : ""}</figcaption></figure>\n`
  ).join("");
}

function failureBlock(run: FlowRun, thumbnails: Thumbnails): string {
  const f = run.failure!;
  const where = f.step === undefined ? "before the first step" : `at step ${f.step} of ${run.steps.length} (${esc(f.tool ?? "")})`;
  const shot = f.evidence ? figure(f.evidence.artifact_id, thumbnails, "the screen at the failure") : "";
  return `<div class="failure">
${shot}
<h3>Failed ${where}: ${esc(f.outcome)} (exit ${run.exit_code})</h3>
<p>${esc(FLOW_EXIT_MEANINGS[f.outcome])}</p>
<p><b>Why:</b> ${esc(f.reason)}</p>
${f.expected === undefined ? "" : `<p><b>Expected:</b> ${esc(f.expected)}</p>`}
${f.screen_offers === undefined ? "" : `<p><b>The screen offers:</b> ${esc(f.screen_offers)}</p>`}
</div>`;
}

function stepRow(step: StepRecord, total: number, thumbnails: Thumbnails): string {
  const args = Object.keys(step.args).length === 0 ? "" : `<code>${esc(JSON.stringify(step.args))}</code>`;
  const reason = step.reason === undefined ? "" : `<div class="reason">${esc(step.reason)}</div>`;
  const waited = step.expectation === undefined
    ? ""
    : ` <span class="meta">(${step.expectation.readings} reading${step.expectation.readings === 1 ? "" : "s"}, ${
      ms(step.expectation.waited_ms)
    })</span>`;
  const failed = step.outcome !== "passed" && step.outcome !== "skipped";
  const shot = step.evidence_id === null
    ? ""
    : failed
    ? figure(step.evidence_id, thumbnails, `after step ${step.index}`)
    : image(step.evidence_id, thumbnails, `after step ${step.index}`, ROW_THUMBNAIL_HEIGHT);
  return `<tr class="${step.outcome}${failed ? " expanded" : ""}">
<td>${step.index}/${total}</td>
<td><b>${esc(step.tool)}</b> ${args}</td>
<td>${step.expected === undefined ? "" : esc(step.expected) + waited}</td>
<td class="outcome">${esc(step.outcome)}${reason}</td>
<td>${step.outcome === "skipped" ? "" : ms(step.duration_ms)}</td>
<td class="shot">${shot}</td>
</tr>`;
}

/** How tall a passed or skipped step's thumbnail is drawn in its row (the link opens the full-size PNG). */
export const ROW_THUMBNAIL_HEIGHT = 48;

/** A thumbnail linking to its full-size PNG, drawn `height` px tall (default: the thumbnail's own size). */
function image(evidenceId: string, thumbnails: Thumbnails, caption: string, height?: number): string {
  const thumb = thumbnails.get(evidenceId);
  if (thumb === undefined) return `<span class="meta">${esc(evidenceId)} (image unavailable)</span>`;
  const h = height ?? thumb.height, w = Math.max(1, Math.round((thumb.width * h) / thumb.height));
  return `<a href="${esc(thumb.href)}" title="the full-size screenshot"><img src="${esc(thumb.dataUri)}" width="${w}" height="${h}" ` +
    `alt="${esc(`${caption}: ${evidenceId}`)}"></a>`;
}

/** A thumbnail at its own size with its evidence id under it. */
function figure(evidenceId: string, thumbnails: Thumbnails, caption: string): string {
  return `<figure>${image(evidenceId, thumbnails, caption)}<figcaption>${esc(evidenceId)}</figcaption></figure>`;
}

function ms(value: number): string {
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(1)} s`;
}

function esc(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:16px;color:#222;background:#fff}
h1.ok{color:#1a7f37}h1.bad{color:#c62828}
.meta{color:#555}
.badge{font-size:13px;padding:2px 8px;border-radius:4px;color:#fff}
.badge.ok{background:#1a7f37}.badge.bad{background:#c62828}
.failure{border:2px solid #c62828;background:#fff3f3;padding:8px 12px;margin:8px 0;overflow:auto}
.failure figure{float:right;margin:0 0 8px 12px}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}
td.shot{width:1%;white-space:nowrap}
tr.passed td.outcome{color:#1a7f37;font-weight:bold}
tr.skipped{color:#888}
tr:not(.passed):not(.skipped) td.outcome{color:#c62828;font-weight:bold}
tr:not(.passed):not(.skipped){background:#fff3f3}
code{font-size:12px;word-break:break-all}
figure{margin:0}figcaption{font-size:11px;color:#777}
img{border:1px solid #999;display:block}
.reason{font-weight:normal;font-size:12px}
`;
