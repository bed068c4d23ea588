/**
 * What a bench section is: a name and a function that measures something and prints its own table.
 * Sections are listed explicitly in scripts/bench.ts (a compiled binary cannot scan folders); a
 * teammate adds one by writing a file here and adding it to that list.
 */
export interface BenchIO {
  /** Prints one line of the report. */
  print(line: string): void;
  /** The real UI dumps folder (real/ under the fixtures root ANDROID_MCP_CORPUS names); may not exist. */
  corpusDir: string;
  /** How many timed repetitions to take per measurement (median reported). */
  repetitions: number;
}

export interface BenchSection {
  name: string;
  run(io: BenchIO): Promise<void> | void;
}

/** Median of a non-empty list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** 95th percentile (nearest rank) of a non-empty list. */
export function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
}

/** The time covered by intervals `[start, end]`, overlaps counted once. */
export function unionLength(intervals: readonly (readonly [number, number])[]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [s, e] of sorted) {
    if (e <= end) continue;
    total += e - Math.max(s, end);
    end = e;
  }
  return total;
}
