/**
 * Tiny fake executables for tests: `/bin/sh` scripts written into a fresh temporary directory (removed
 * after the test), to put first on a temporary PATH or name through JAVA_HOME / ADB. Each prints what a
 * real program prints, or hangs, so the real ProcessRunner and the code above it run unchanged.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TestContext } from "node:test";

/** A fresh directory, removed when the test ends (also on failure). */
export function programDir(t: TestContext, prefix = "amh-programs-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes an executable `/bin/sh` script at `dir/relativePath` (parents created) and returns its path. */
export function writeProgram(dir: string, relativePath: string, body: string): string {
  const path = join(dir, relativePath);
  mkdirSync(dirname(path), { recursive: true });
  // The script's own tools (sleep, printf) stay reachable when a test gives it a PATH of fakes only.
  writeFileSync(path, `#!/bin/sh\nPATH="$PATH:/usr/bin:/bin"\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A script that prints `stdout` and `stderr` exactly and exits with `code`. */
export function printing(output: { stdout?: string; stderr?: string; code?: number }): string {
  const lines: string[] = [];
  if (output.stdout !== undefined) lines.push(`printf '%s' ${shellQuote(output.stdout)}`);
  if (output.stderr !== undefined) lines.push(`printf '%s' ${shellQuote(output.stderr)} >&2`);
  lines.push(`exit ${output.code ?? 0}`);
  return lines.join("\n");
}

/** A script that never answers: a child `sleep` (not exec'd), as a hanging wrapper script would. */
export const HANGING = "sleep 60\necho never";

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
