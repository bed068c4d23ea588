/**
 * Writes a flow report as three files in `<artifacts>/reports/`: `<stamp>-<name>.json`, `.html` and
 * `.junit.xml`, each created whole (never overwriting: a second report in the same second gets `-2`).
 * Screenshots for the HTML page come from the evidence store, shrunk by the given thumbnail function
 * (an unreadable one is left out and said so on the page), each linking to its full-size PNG; a run's screen recording is
 * linked and played from its MP4 next to the reports. Throws EVIDENCE_WRITE_FAILED when a file
 * cannot be written.
 */
import { join, relative, sep } from "node:path";
import { HarnessError } from "../errors.ts";
import type { EvidenceStore, FileSystem } from "../ports/evidence.ts";
import { type FlowReport, renderJsonReport } from "./flow_report.ts";
import { renderHtmlReport, type Thumbnail } from "./report_html.ts";
import { renderJunitReport } from "./report_junit.ts";

export interface ReportFiles {
  json: string;
  html: string;
  junit: string;
}

export interface ReportWriting {
  /** The artifacts directory; reports go to its `reports/` folder. */
  artifactsDir: string;
  fs: FileSystem;
  evidence: Pick<EvidenceStore, "resolve">;
  /** PNG bytes → a small PNG and its size (e.g. long side 360 px). */
  thumbnail: (png: Uint8Array) => { bytes: Uint8Array; width: number; height: number };
  /** When the report is written (for the file name). */
  now: number;
}

const MAX_SAME_NAME = 100;

export async function writeFlowReports(report: FlowReport, writing: ReportWriting): Promise<ReportFiles> {
  const directory = join(writing.artifactsDir, "reports");
  const html = renderHtmlReport(report, await thumbnailsOf(report, writing, directory), await videoLinksOf(report, writing, directory));
  const contents = { json: renderJsonReport(report), html, junit: renderJunitReport(report) };
  const base = `${stamp(writing.now)}-${slug(report.flow.name)}`;
  try {
    await writing.fs.makeDirectory(directory);
    for (let n = 1; n <= MAX_SAME_NAME; n++) {
      const name = n === 1 ? base : `${base}-${n}`;
      const files: ReportFiles = {
        json: join(directory, `${name}.json`),
        html: join(directory, `${name}.html`),
        junit: join(directory, `${name}.junit.xml`),
      };
      try {
        await writing.fs.writeNewFile(files.json, contents.json); // claims the name
      } catch (error) {
        if ((error as { code?: string }).code === "EEXIST") continue;
        throw error;
      }
      await writing.fs.writeNewFile(files.html, contents.html);
      await writing.fs.writeNewFile(files.junit, contents.junit);
      return files;
    }
    throw new Error(`${MAX_SAME_NAME} reports named ${base} already exist`);
  } catch (error) {
    throw new HarnessError(
      "EVIDENCE_WRITE_FAILED",
      `The flow report could not be written to ${directory}: ${(error as Error).message}. ` +
        "Free disk space or point --artifacts at a writable directory.",
    );
  }
}

async function thumbnailsOf(report: FlowReport, writing: ReportWriting, directory: string): Promise<Map<string, Thumbnail>> {
  const ids = new Set<string>();
  for (const run of report.runs) {
    for (const step of run.steps) if (step.evidence_id !== null) ids.add(step.evidence_id);
    if (run.failure?.evidence) ids.add(run.failure.evidence.artifact_id);
  }
  const out = new Map<string, Thumbnail>();
  for (const id of ids) {
    try {
      const found = await writing.evidence.resolve(id);
      if (found === null) continue;
      const small = writing.thumbnail(found.bytes);
      const href = relative(directory, found.path).split(sep).map(encodeURIComponent).join("/");
      out.set(id, {
        dataUri: `data:image/png;base64,${Buffer.from(small.bytes).toString("base64")}`,
        width: small.width,
        height: small.height,
        href,
      });
    } catch {
      // the page says "image unavailable" for this one
    }
  }
  return out;
}

/** Each run's screen recording that the evidence store serves, by id: its path relative to the reports. */
async function videoLinksOf(report: FlowReport, writing: ReportWriting, directory: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const run of report.runs) {
    const first = run.recording?.evidence?.artifact_id;
    const ids = run.recording?.segments?.map((uri) => uri.replace(/^artifact:\/\//, "")) ?? (first === undefined ? [] : [first]);
    for (const id of ids) {
      const found = await writing.evidence.resolve(id).catch(() => null);
      if (found !== null) out.set(id, relative(directory, found.path).split(sep).map(encodeURIComponent).join("/"));
    }
  }
  return out;
}

/** `20261129-231622` in UTC. */
function stamp(now: number): string {
  return new Date(now).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
}

/** The flow's name as a file name part: letters, digits, `.`, `_`, `-`; at most 60. */
export function slug(name: string): string {
  const cleaned = name.normalize("NFKD").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|-+$/g, "").slice(0, 60);
  return cleaned === "" ? "flow" : cleaned;
}
