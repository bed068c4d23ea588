/**
 * Bench section "screen summary": for every corpus capture, raw XML bytes, compact summary JSON bytes
 * (what `ui_get_tree` sends), their ratio, and the median time of parse + summarize over repeated runs;
 * then the median and maximum ratio against the targets (median ≤ 5%, none above 15%).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { summaryFromXml } from "../../src/screen/mod.ts";
import { type BenchIO, type BenchSection, median } from "./section.ts";

export const RATIO_TARGET_MEDIAN = 0.05;
export const RATIO_TARGET_MAX = 0.15;
/** Density used for the audit when the capture does not say (a common phone value). */
const ASSUMED_DENSITY = 420;

export interface CaptureMeasure {
  file: string;
  xmlBytes: number;
  summaryBytes: number;
  ratio: number;
  medianMs: number;
}

export function measureCapture(file: string, xml: string, repetitions: number): CaptureMeasure {
  const input = { xml, context: { density: ASSUMED_DENSITY } };
  const summaryBytes = Buffer.byteLength(JSON.stringify(summaryFromXml(input).summary));
  const times: number[] = [];
  for (let i = 0; i < repetitions; i++) {
    const start = performance.now();
    summaryFromXml(input);
    times.push(performance.now() - start);
  }
  const xmlBytes = Buffer.byteLength(xml);
  return { file, xmlBytes, summaryBytes, ratio: summaryBytes / xmlBytes, medianMs: median(times) };
}

export const screenSummarySection: BenchSection = {
  name: "screen summary: size and speed over the real-world corpus",
  run(io: BenchIO) {
    if (!existsSync(io.corpusDir)) {
      io.print(`skipped: corpus not found at ${io.corpusDir} (set ANDROID_MCP_CORPUS)`);
      return;
    }
    const files = readdirSync(io.corpusDir).filter((name) => name.endsWith(".xml")).sort();
    const rows = files.map((file) => measureCapture(file, readFileSync(join(io.corpusDir, file), "utf8"), io.repetitions));
    const width = Math.max(...rows.map((row) => row.file.length));
    io.print(`${"capture".padEnd(width)}  ${"xml B".padStart(7)}  ${"json B".padStart(6)}  ${"ratio".padStart(6)}  ${"ms".padStart(6)}`);
    for (const row of rows) {
      io.print(
        `${row.file.padEnd(width)}  ${String(row.xmlBytes).padStart(7)}  ${String(row.summaryBytes).padStart(6)}  ` +
          `${percent(row.ratio).padStart(6)}  ${row.medianMs.toFixed(2).padStart(6)}`,
      );
    }
    const ratios = rows.map((row) => row.ratio);
    const worst = rows.reduce((a, b) => (b.ratio > a.ratio ? b : a));
    const medianRatio = median(ratios);
    io.print(
      `captures ${rows.length} · median ratio ${percent(medianRatio)} (target ≤ ${percent(RATIO_TARGET_MEDIAN)}: ` +
        `${medianRatio <= RATIO_TARGET_MEDIAN ? "met" : "MISSED"}) · max ${percent(worst.ratio)} in ${worst.file} ` +
        `(target ≤ ${percent(RATIO_TARGET_MAX)}: ${worst.ratio <= RATIO_TARGET_MAX ? "met" : "MISSED"}) · ` +
        `median time ${median(rows.map((row) => row.medianMs)).toFixed(2)} ms`,
    );
  },
};

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}
