/**
 * The real FileSystem port over node:fs/promises. Built only by the composition root (and by tests
 * that run the real store in a temporary directory). Errors keep node's `code` ("EEXIST", "ENOENT").
 */
import { appendFile, link, mkdir, readdir, readFile, realpath, rename, rm, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { FileSystem } from "../../ports/evidence.ts";

export function createNodeFileSystem(): FileSystem {
  return {
    makeDirectory: async (path) => void (await mkdir(path, { recursive: true })),
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
        await mkdir(path, { recursive: true });
        await writeFile(probe, "", { flag: "wx" });
        await rm(probe, { force: true });
        return true;
      } catch {
        return false;
      }
    },
  };
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
