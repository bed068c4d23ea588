/**
 * Artifacts retention: removes the evidence PNGs (files of the issued id form, directly in the artifacts
 * directory) taken more than `maxAgeDays` ago, judged by the time in their id. Everything else is kept:
 * the audit log, reports (artifacts/reports/), any file the harness did not name. 0 days keeps everything.
 * Never throws: a file it cannot remove is counted and left; a missing directory is nothing to prune.
 */
import { join } from "node:path";
import type { FileSystem } from "../../ports/evidence.ts";
import { evidenceTimeMs } from "./evidence_id.ts";

export interface RetentionResult {
  removed: number;
  /** Old evidence that could not be removed (permissions); left in place. */
  failed: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export async function pruneOldEvidence(
  options: { directory: string; fs: FileSystem; nowMs: number; maxAgeDays: number },
): Promise<RetentionResult> {
  const result: RetentionResult = { removed: 0, failed: 0 };
  if (options.maxAgeDays <= 0) return result;
  let names: string[];
  try {
    names = await options.fs.listNames(options.directory);
  } catch {
    return result;
  }
  const cutoff = options.nowMs - options.maxAgeDays * DAY_MS;
  for (const name of names) {
    const taken = evidenceTimeMs(name);
    if (taken === null || taken >= cutoff) continue;
    try {
      await options.fs.removeFile(join(options.directory, name));
      result.removed += 1;
    } catch {
      result.failed += 1;
    }
  }
  return result;
}
