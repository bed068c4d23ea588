/**
 * Check 8, artifacts: the directory evidence and the audit log would go to — chosen by the same rule
 * as `serve` (--artifacts, ANDROID_MCP_ARTIFACTS_DIR, ./artifacts in a project, the user state directory) — can be
 * written, and has at least 100 MB free. Nothing is created: a missing directory counts as writable
 * when its nearest existing parent is (an empty probe file is created and removed there). A directory another user
 * owns or can write is a miss, as `serve` refuses it.
 */
import { dirname } from "node:path";
import { othersCanWrite, resolveArtifactsDirectory } from "../adapters/evidence/mod.ts";
import { isHarnessError } from "../errors.ts";
import type { DoctorCheck, DoctorInputs } from "./types.ts";
import { formatBytes, formatSeconds } from "./units.ts";

/** Room for a few hundred full-resolution screenshots and the audit log. */
export const MINIMUM_FREE_BYTES = 100 * 1000 * 1000;

/** The directory itself when it exists, else its nearest existing ancestor; null when that is a file. */
async function nearestExisting(inputs: DoctorInputs, path: string): Promise<{ directory: string; exists: boolean } | null> {
  let current = path;
  for (;;) {
    const kind = await inputs.files.kindOf(current);
    if (kind === "directory") return { directory: current, exists: current === path };
    if (kind === "file") return null;
    const parent = dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/** Would `serve` be able to use (create and write) this directory? Asked without creating it. */
async function wouldBeWritable(inputs: DoctorInputs, path: string): Promise<boolean> {
  const existing = await nearestExisting(inputs, path);
  return existing !== null && (await inputs.files.probeWrite(existing.directory)) === null;
}

export const artifactsCheck: DoctorCheck = {
  id: "artifacts",
  name: "Artifacts",
  run: async (inputs) => {
    const facts = { platform: inputs.platform, homeDir: inputs.homeDir, cwd: inputs.cwd, env: inputs.env };
    let chosen;
    try {
      chosen = await resolveArtifactsDirectory(facts, {
        isWritableDirectory: (path) => wouldBeWritable(inputs, path),
        exists: async (path) => (await inputs.files.kindOf(path)) !== "missing",
        othersCanWrite: async (path) => othersCanWrite(path),
      }, inputs.config.artifactsDir);
    } catch (error) {
      if (!isHarnessError(error)) throw error;
      return {
        ok: false,
        detail: error.message.replace(/;.*$/, ""),
        remedy: /another user could/.test(error.message)
          ? error.message.replace(/^.*?; /, "").replace(/^./, (c) => c.toUpperCase())
          : inputs.platform === "win32"
          ? 'setx ANDROID_MCP_ARTIFACTS_DIR "%LOCALAPPDATA%\\android-mcp-artifacts" (a folder you can write), or pass --artifacts <dir>'
          : "mkdir -p ~/android-mcp-artifacts && export ANDROID_MCP_ARTIFACTS_DIR=~/android-mcp-artifacts (or make the named directory writable: chmod u+w <dir>)",
        facts: { path: inputs.config.artifactsDir?.path ?? null },
      };
    }
    const existing = await nearestExisting(inputs, chosen.path);
    const free = existing === null ? null : await inputs.files.freeBytes(existing.directory);
    const created = existing?.exists === false ? ", created on first use" : "";
    const where = `${chosen.path} (${chosen.reason}${created})`;
    const found = { path: chosen.path, reason: chosen.reason, free_bytes: free };
    if (free !== null && free < MINIMUM_FREE_BYTES) {
      return {
        ok: false,
        detail: `${where} is writable but only ${formatBytes(free)} is free (evidence needs at least ${formatBytes(MINIMUM_FREE_BYTES)})`,
        remedy: "Free some space there, or export ANDROID_MCP_ARTIFACTS_DIR=<a directory on a disk with room>",
        facts: found,
      };
    }
    return { ok: true, detail: `${where}: writable, ${free === null ? "free space unknown" : `${formatBytes(free)} free`}`, facts: found };
  },
  timedOut: (_inputs, timeoutMs) => ({
    ok: false,
    detail: `the artifacts directory did not answer within ${formatSeconds(timeoutMs)} (a hung network file system?)`,
    remedy: "export ANDROID_MCP_ARTIFACTS_DIR=<a directory on a local disk>",
  }),
};
