/**
 * Where tests find things: the repository root (found from this file, compiled or not), the
 * project's own fixtures, and the shared real-world corpus: a fixtures root holding `real/` (UI dumps,
 * screenshots) and `adb/` (adb outputs), `../shared/fixtures` unless `ANDROID_MCP_CORPUS` names another.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, "package.json")) || existsSync(join(dir, "tsconfig.json")) === false) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`No repository root above ${start}`);
    dir = up;
  }
  return dir;
}

export const REPO_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
export const OWN_FIXTURES = join(REPO_ROOT, "tests", "fixtures");
export const SHARED_DIR = resolve(REPO_ROOT, "..", "shared");
/** The fixtures root: ANDROID_MCP_CORPUS (blank is unset), else ../shared/fixtures beside the repository. */
export const CORPUS_ROOT = resolve(process.env["ANDROID_MCP_CORPUS"]?.trim() || join(SHARED_DIR, "fixtures"));
/** Real UI dumps and screenshots. */
export const CORPUS_DIR = join(CORPUS_ROOT, "real");
/** Real adb outputs, one folder per command. */
export const ADB_FIXTURES_DIR = join(CORPUS_ROOT, "adb");

/** A skip reason when that part of the corpus is missing, else false: corpus tests are skipped visibly, never faked. */
export function corpusSkipReason(dir: string = CORPUS_DIR): string | false {
  return existsSync(dir) ? false : corpusMissingLine(dir);
}

/** The one line a missing corpus gets (per skipped test, and once at the start of `npm test`). */
export function corpusMissingLine(dir: string): string {
  return `real-world corpus not found at ${dir} (set ANDROID_MCP_CORPUS to the fixtures root that holds real/ and adb/)`;
}
