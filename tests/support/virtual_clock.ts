/**
 * A Clock whose time moves only when everything in process waits on it: once the event loop has run two
 * turns with nobody but sleepers left, `now()` jumps to the earliest sleeper's wake time and wakes it.
 * Time promises ("waits 4 s", "times out at 1.5 s", "served at once") are then exact, whatever the load.
 * Only for worlds without real I/O (tests/support/act_world.ts): a pending disk write would let time jump.
 */
import type { Clock } from "../../src/ports/clock.ts";

export interface VirtualClock extends Clock {
  /** Virtual milliseconds since the clock was made. */
  elapsed(): number;
}

interface Sleeper {
  at: number;
  order: number;
  wake: () => void;
}

/** `start`: the epoch milliseconds `now()` begins at (fixed by default, so names built from it are stable). */
export function createVirtualClock(start = Date.UTC(2026, 10, 29, 23, 16, 22)): VirtualClock {
  let now = start;
  let order = 0;
  let scheduled = false;
  const sleepers: Sleeper[] = [];

  const advance = () => {
    scheduled = false;
    if (sleepers.length === 0) return;
    sleepers.sort((a, b) => a.at - b.at || a.order - b.order);
    const next = sleepers.shift()!;
    now = Math.max(now, next.at);
    next.wake();
    schedule();
  };
  // Two turns of the event loop: microtasks, timers and I/O callbacks already due run before time moves.
  const schedule = () => {
    if (scheduled || sleepers.length === 0) return;
    scheduled = true;
    setImmediate(() => setImmediate(advance));
  };

  return {
    now: () => now,
    elapsed: () => now - start,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const sleeper: Sleeper = {
          at: now + Math.max(0, ms),
          order: order++,
          wake: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          const at = sleepers.indexOf(sleeper);
          if (at !== -1) sleepers.splice(at, 1);
          reject(signal?.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        sleepers.push(sleeper);
        schedule();
      }),
  };
}
