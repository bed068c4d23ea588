/**
 * End-to-end fixtures: a private temporary home for one `serve` process (artifacts, audit log and state
 * inside it, never the user's; device locks are the user's lock directory, keyed by each simulated device's
 * own socket), its environment, and a bounded wait for a child to exit.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ServeHome {
  root: string;
  artifacts: string;
  env: Record<string, string>;
  remove(): void;
}

export function makeServeHome(): ServeHome {
  const root = mkdtempSync(join(tmpdir(), "amh-e2e-"));
  const artifacts = join(root, "artifacts");
  return {
    root,
    artifacts,
    env: {
      ANDROID_MCP_ARTIFACTS_DIR: artifacts,
      XDG_STATE_HOME: join(root, "state"),
      HOME: root,
      PATH: process.env["PATH"] ?? "",
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Resolves with the exit code, or null when the child is still running after `ms`. */
export function exitWithin(child: ChildProcess, ms: number): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Whether the process with this pid is gone within `ms` (polled: it need not be our child). */
export async function pidGoneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

export function killQuietly(pid: number | undefined | null): void {
  if (pid === undefined || pid === null) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}
