/**
 * The doctor report as text: one `[ok  ] Name  detail` / `[MISS] Name  detail` line per check (names
 * padded into a column), then `N of 8 checks block a real campaign:` and one remedy line per miss,
 * or `0 of 8 checks block a real campaign.` when nothing does. Pure.
 */
import type { DoctorReport } from "./types.ts";

export function renderReport(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.name.length));
  const lines = report.checks.map((c) => `${c.ok ? "[ok  ]" : "[MISS]"} ${c.name.padEnd(width)}  ${c.detail}`);
  lines.push("");
  if (report.blocking === 0) {
    lines.push(`0 of ${report.total} checks block a real campaign.`);
  } else {
    lines.push(`${report.blocking} of ${report.total} checks block a real campaign:`);
    for (const c of report.checks) if (!c.ok) lines.push(`  ${c.name}: ${c.remedy}`);
  }
  return lines.join("\n") + "\n";
}
