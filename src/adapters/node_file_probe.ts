/**
 * The real FileProbe over node:fs/promises: `stat` for what a path is, `access(X_OK)` for executables,
 * an exclusive-create-then-remove probe file for writability, `statfs` (blocks available to this user)
 * for free space. Never throws.
 */
import { constants } from "node:fs";
import { access, rm, stat, statfs, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FileProbe } from "../ports/file_probe.ts";

export function createNodeFileProbe(): FileProbe {
  return {
    kindOf: async (path) => {
      try {
        return (await stat(path)).isDirectory() ? "directory" : "file";
      } catch {
        return "missing";
      }
    },
    isExecutable: async (path) => {
      try {
        if (!(await stat(path)).isFile()) return false;
        await access(path, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
    probeWrite: async (directory) => {
      const probe = join(directory, `.doctor-probe-${process.pid}-${Math.random().toString(36).slice(2)}`);
      try {
        await writeFile(probe, "", { flag: "wx" });
        await rm(probe, { force: true });
        return null;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code ?? "EUNKNOWN";
      }
    },
    freeBytes: async (path) => {
      try {
        const fs = await statfs(path);
        return Number(fs.bavail) * Number(fs.bsize);
      } catch {
        return null;
      }
    },
  };
}
