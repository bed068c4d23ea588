/**
 * Wall-clock bounds for tests where real time is the point (a real child killed at a deadline): the bound
 * is the deadline plus the slack a loaded two-core machine needs to kill and reap a process (load 6–10
 * stretched a 1 s doctor to 10 s). The failure such a test catches, a child that keeps a call alive, is
 * unbounded, so the slack loses nothing. The figures themselves belong to `npm run bench`.
 */
import assert from "node:assert/strict";

export const LOADED_MACHINE_SLACK_MS = 8000;

/** Asserts `tookMs` ended by the deadline `limitMs` plus the loaded machine's slack. */
export function assertEndedByDeadline(tookMs: number, limitMs: number, what: string): void {
  assert.ok(
    tookMs < limitMs + LOADED_MACHINE_SLACK_MS,
    `${what} took ${tookMs} ms with a ${limitMs} ms limit (slack ${LOADED_MACHINE_SLACK_MS} ms)`,
  );
}

/** The longest a child process may take to start, answer or exit on a loaded two-core machine before a
 * test calls it hung (serve took over 10 s to start at load 14). A hang is still caught, a minute later. */
export const LOADED_WAIT_MS = 60_000;

/**
 * Whether `check` holds within `ms`, polled every 20 ms: for a cleanup that sends no event the test can hear
 * (a process another one kills), so the test waits for the condition itself, not for a guessed time.
 */
export async function holdsWithin(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}
