/**
 * The real FileSystem port over node:fs/promises. Built only by the composition root (and by tests
 * that run the real store in a temporary directory). Errors keep node's `code` ("EEXIST", "ENOENT").
 */
import { appendFile, mkdir, readdir, readFile, realpath, rm, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FileSystem } from "../../ports/evidence.ts";

export function createNodeFileSystem(): FileSystem {
  return {
    makeDirectory: async (path) => void (await mkdir(path, { recursive: true })),
    writeNewFile: (path, bytes) => writeFile(path, bytes, { flag: "wx" }),
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
