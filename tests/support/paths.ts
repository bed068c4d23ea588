/**
 * Where tests find things: the repository root (found from this file, compiled or not), the
 * project's own fixtures, and the shared real-world corpus (`ANDROID_MCP_CORPUS` overrides it).
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
export const CORPUS_DIR = process.env["ANDROID_MCP_CORPUS"] ?? join(SHARED_DIR, "fixtures", "real");
export const ADB_FIXTURES_DIR = join(SHARED_DIR, "fixtures", "adb");

/** A skip reason when the corpus is missing, else false: corpus tests are skipped visibly, never faked. */
export function corpusSkipReason(dir: string = CORPUS_DIR): string | false {
  return existsSync(dir) ? false : `real-world corpus not found at ${dir} (set ANDROID_MCP_CORPUS)`;
}
