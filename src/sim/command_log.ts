/**
 * The device's command log: a plain array (what SimDevice promises) whose `push` also tells
 * listeners, so the sim can react to what the other fake server saw (e.g. the UiAutomator2 server's
 * "delete session" ends the `am instrument` process, as on a real device). Derived arrays are plain.
 */
export interface LogEntry {
  source: "adb" | "uia2";
  command: string;
}

export class CommandLog extends Array<LogEntry> {
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  #listeners: ((entry: LogEntry) => void)[] = [];

  onEntry(listener: (entry: LogEntry) => void): void {
    this.#listeners.push(listener);
  }

  override push(...entries: LogEntry[]): number {
    const n = super.push(...entries);
    for (const entry of entries) for (const listener of this.#listeners) listener(entry);
    return n;
  }
}
