/**
 * The real FileSystem port over node:fs/promises. Built only by the composition root (and by tests
 * that run the real store in a temporary directory). Errors keep node's `code` ("EEXIST", "ENOENT").
 * Directories are created one level at a time, never with `mkdir({recursive: true})`: under /proc and
 * similar file systems Node's recursive mkdir retries forever at 100 % CPU (`--artifacts /proc/nope`).
 */
import { appendFile, link, mkdir, readdir, readFile, realpath, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { FileSystem } from "../../ports/evidence.ts";

export function createNodeFileSystem(): FileSystem {
  return {
    makeDirectory: makeDirectoryTree,
    writeNewFile: publishNewFile,
    replaceFile: async (path, bytes) => {
      const draft = join(dirname(path), `.${basename(path)}.${process.pid}-${++publishCounter}.draft`);
      await writeFile(draft, bytes, { flag: "wx" });
      try {
        await rename(draft, path);
      } catch (error) {
        await unlink(draft).catch(() => {});
        throw error;
      }
    },
    appendText: (path, text) => appendFile(path, text, "utf8"),
    readBytes: async (path) => new Uint8Array(await readFile(path)),
    readText: (path) => readFile(path, "utf8"),
    realPath: (path) => realpath(path),
    listNames: (directory) => readdir(directory),
    removeFile: (path) => unlink(path),
    isWritableDirectory: async (path) => {
      const probe = join(path, `.write-probe-${process.pid}-${Math.random().toString(36).slice(2)}`);
      try {
        await makeDirectoryTree(path);
        await writeFile(probe, "", { flag: "wx" });
        await rm(probe, { force: true });
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** mkdir -p that ends: each missing level once, from the nearest existing ancestor down; the first
 * refusal (ENOENT where the parent exists, EACCES, EROFS, ENOTDIR, …) is thrown as it is. */
async function makeDirectoryTree(path: string): Promise<void> {
  const missing: string[] = [];
  let dir = resolve(path);
  for (;;) {
    try {
      if ((await stat(dir)).isDirectory()) break;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: "ENOTDIR", path: dir });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    missing.push(dir);
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const level of missing.reverse()) {
    try {
      await mkdir(level);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error; // another process made it meanwhile
    }
  }
}

let publishCounter = 0;

/**
 * Writes the bytes to a private sibling, then hard-links it to `path` (link fails with EEXIST when
 * `path` exists), so the file appears whole or not at all: another process reading a lock file
 * between "created" and "written" would otherwise see it empty and take it for stale.
 */
async function publishNewFile(path: string, bytes: Uint8Array | string): Promise<void> {
  const draft = join(dirname(path), `.${basename(path)}.${process.pid}-${++publishCounter}.draft`);
  await writeFile(draft, bytes, { flag: "wx" });
  try {
    await link(draft, path);
  } finally {
    await unlink(draft).catch(() => {});
  }
}
