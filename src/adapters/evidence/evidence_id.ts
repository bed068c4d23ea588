/**
 * Evidence ids: `YYYYMMDD-HHMMSS-ffffff-<tool>[-N].png` (a screen recording: `.mp4`) in UTC, the tool name with `_` turned into
 * `-`, `-N` added only on a collision. EVIDENCE_ID is the exact issued form: nothing else (no
 * slash, dot-dot, percent sign or absolute path) can match it. Pure.
 */
export const EVIDENCE_ID = /^\d{8}-\d{6}-\d{6}-[a-z0-9]+(?:-[a-z0-9]+)*\.(?:png|mp4)$/;

/** What an evidence file holds, by its id's extension. */
export type EvidenceKind = "png" | "mp4";

/** Formats the id for a capture at `epochMicros` (microseconds since the epoch). */
export function evidenceId(epochMicros: number, tool: string, collision = 0, kind: EvidenceKind = "png"): string {
  const date = new Date(Math.floor(epochMicros / 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const stamp = `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}-` +
    `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}-` +
    pad(Math.floor(epochMicros) % 1_000_000, 6);
  const suffix = collision > 0 ? `-${collision + 1}` : "";
  return `${stamp}-${toolSlug(tool)}${suffix}.${kind}`;
}

export function toolSlug(tool: string): string {
  const slug = tool.toLowerCase().replace(/_/g, "-").replace(/[^a-z0-9-]/g, "").replace(/-+/g, "-").replace(/^-|-$/g, "");
  return slug === "" ? "capture" : slug;
}

export function isEvidenceId(value: unknown): value is string {
  return typeof value === "string" && value.length <= 120 && EVIDENCE_ID.test(value);
}

/** When the evidence was taken (ms since the epoch, UTC, from its id); null for anything not an issued id. */
export function evidenceTimeMs(id: string): number | null {
  if (!isEvidenceId(id)) return null;
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-(\d{6})-/.exec(id)!;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) + Math.floor(Number(m[7]) / 1000);
  return Number.isNaN(ms) ? null : ms;
}
