/**
 * Drafts a killed process left (issue 25 item 7). Every file the harness publishes (evidence PNGs, reports, lock
 * files) is first written to a private sibling `.<name>.<pid>-<n>.draft` and then linked or renamed into place;
 * the writer removes the draft in a `finally`, which a SIGKILL never reaches. At start the harness removes the
 * drafts of this user older than DRAFT_MAX_AGE_MS from the directories it writes (the artifacts directory and the
 * lock directory); a younger draft may be a live writer's, another user's is not ours to judge. Never throws.
 */
import { join } from "node:path";
import type { FileSystem } from "../../ports/evidence.ts";

/** How node_file_system.ts names a draft. */
export const DRAFT_NAME = /^\..+\.\d+-\d+\.draft$/;
/**
 * No live writer holds a draft this long: a write happens inside one operation, which ANDROID_MCP_ACTION_TIMEOUT
 * bounds at 3600 s at most (or a flow's report writing, which takes seconds); twice that leaves room for a clock step.
 */
export const DRAFT_MAX_AGE_MS = 2 * 60 * 60 * 1000;

export interface DraftSweepResult {
  removed: number;
  /** Old drafts of ours that could not be removed; left in place. */
  failed: number;
}

export async function sweepDrafts(
  options: { directories: readonly string[]; fs: Pick<FileSystem, "listNames" | "fileFacts" | "removeFile">; nowMs: number },
): Promise<DraftSweepResult> {
  const result: DraftSweepResult = { removed: 0, failed: 0 };
  for (const directory of options.directories) {
    let names: string[];
    try {
      names = await options.fs.listNames(directory);
    } catch {
      continue; // not there yet: nothing to sweep
    }
    for (const name of names.filter((n) => DRAFT_NAME.test(n))) {
      const path = join(directory, name);
      const facts = await options.fs.fileFacts(path).catch(() => null);
      if (facts === null || !facts.regular || !facts.ownedByUs || options.nowMs - facts.modifiedMs < DRAFT_MAX_AGE_MS) continue;
      try {
        await options.fs.removeFile(path);
        result.removed += 1;
      } catch {
        result.failed += 1;
      }
    }
  }
  return result;
}
