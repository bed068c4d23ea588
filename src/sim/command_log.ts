/**
 * The device's command log: what the two fake servers received, in order, with listeners told of each
 * entry (e.g. the shell reacts to the UiAutomator2 server's traffic). It keeps at most the last
 * COMMAND_LOG_LIMIT entries so a long-running sim does not grow forever; `length` counts every entry
 * ever pushed, so `const from = log.length; …; log.slice(from)` keeps working after old entries went.
 */
export interface LogEntry {
  source: "adb" | "uia2";
  command: string;
}

/** Entries kept; older ones are dropped in batches of a tenth of this. */
export const COMMAND_LOG_LIMIT = 10_000;

export class CommandLog {
  readonly #limit: number;
  #entries: LogEntry[] = [];
  /** Entries dropped from the front so far (the absolute index of #entries[0]). */
  #dropped = 0;
  #listeners: ((entry: LogEntry) => void)[] = [];

  constructor(limit = COMMAND_LOG_LIMIT) {
    this.#limit = limit;
  }

  /** Every entry ever pushed (also the dropped ones): an index that stays valid for `slice`. */
  get length(): number {
    return this.#dropped + this.#entries.length;
  }

  /** Entries still kept (at most the last `limit`). */
  get kept(): number {
    return this.#entries.length;
  }

  onEntry(listener: (entry: LogEntry) => void): void {
    this.#listeners.push(listener);
  }

  push(...entries: LogEntry[]): number {
    this.#entries.push(...entries);
    if (this.#entries.length > this.#limit + Math.ceil(this.#limit / 10)) {
      const drop = this.#entries.length - this.#limit;
      this.#entries = this.#entries.slice(drop);
      this.#dropped += drop;
    }
    for (const entry of entries) for (const listener of this.#listeners) listener(entry);
    return this.length;
  }

  /** Entries from absolute index `start` (as `length` counts) to `end`; negative values count from the end. */
  slice(start = 0, end = this.length): LogEntry[] {
    const abs = (i: number) => (i < 0 ? Math.max(0, this.length + i) : Math.min(i, this.length));
    const from = Math.max(abs(start), this.#dropped) - this.#dropped;
    const to = Math.max(abs(end), this.#dropped) - this.#dropped;
    return this.#entries.slice(from, to);
  }

  some(test: (entry: LogEntry) => boolean): boolean {
    return this.#entries.some(test);
  }

  filter(test: (entry: LogEntry) => boolean): LogEntry[] {
    return this.#entries.filter(test);
  }

  map<T>(fn: (entry: LogEntry) => T): T[] {
    return this.#entries.map(fn);
  }

  [Symbol.iterator](): Iterator<LogEntry> {
    return this.#entries[Symbol.iterator]();
  }
}
