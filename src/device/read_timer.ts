/**
 * The time rule of every wait or repeat a hand chooses to make (reliability R39: the element wait, `ui_wait`,
 * `ui_scroll`'s `until`, the settle's confirming reads). On a UI that never goes quiet each UiAutomator2 page
 * source takes the whole idle wait (3 s), so another read (or swipe) is started only if one as long as the longest
 * so far still leaves the answer its reserve of the call's time limit; the call then answers in its own words,
 * never OPERATION_TIMEOUT for a read it chose to start.
 */
import type { Clock } from "../ports/clock.ts";

export interface ReadTimer {
  /** Runs one read and keeps its duration when it is the longest so far. */
  time<T>(work: () => Promise<T>): Promise<T>;
  /** Starts timing a step made of several calls (a swipe and its read); the function ends it. */
  begin(): () => void;
  /** The longest read so far, in ms (0 before any). */
  longestMs(): number;
  /** Whether another read as long as the longest so far, after `extraMs` (a poll's pause), leaves `reserveMs` of `remainingMs`. */
  fits(remainingMs: number, reserveMs: number, extraMs?: number): boolean;
}

/** `firstMs`: a read already made (the settle's first read after the act). */
export function readTimer(clock: Pick<Clock, "now">, firstMs = 0): ReadTimer {
  let longest = firstMs;
  const begin = () => {
    const at = clock.now();
    return () => void (longest = Math.max(longest, clock.now() - at));
  };
  return {
    async time(work) {
      const end = begin();
      try {
        return await work();
      } finally {
        end();
      }
    },
    begin,
    longestMs: () => longest,
    fits: (remainingMs, reserveMs, extraMs = 0) => remainingMs - reserveMs >= longest + extraMs,
  };
}
