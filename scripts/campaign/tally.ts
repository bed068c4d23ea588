/**
 * The campaign's counters and the table it prints: what was tried (calls, inputs, faults, clients) and what
 * went wrong (each kind of violation counted, the first few described). A campaign passes when every
 * violation count is zero; figures (RSS, latencies) are reported, never judged here.
 */
export const VIOLATION_KINDS = [
  "crashes",
  "untyped answers",
  "stack traces",
  "hangs",
  "orphaned sessions",
  "leaked locks",
  "lost evidence",
  "text outside its slot",
  "audit lines missing or extra",
  "contention failures",
  "wrong fault outcome",
  "orphaned processes",
  "secrets leaked",
  "file rules broken",
  "cut-off calls misreported",
  "campaign errors",
] as const;

export type ViolationKind = (typeof VIOLATION_KINDS)[number];

export class Tally {
  callsMade = 0;
  inputsTried = 0;
  faultsInjected = 0;
  concurrentClients = 0;
  readonly bySection = new Map<string, { calls: number; inputs: number; seconds: number }>();
  readonly violations = new Map<ViolationKind, number>(VIOLATION_KINDS.map((k) => [k, 0]));
  readonly details: string[] = [];
  readonly figures: string[] = [];
  /** The soak server's resident set size after warm-up, at the end, and the largest sample (every 25 calls). */
  rss: { startKb: number; endKb: number; peakKb: number; calls: number } | null = null;

  violation(kind: ViolationKind, detail: string): void {
    this.violations.set(kind, (this.violations.get(kind) ?? 0) + 1);
    if (this.details.length < 40) this.details.push(`${kind}: ${detail.slice(0, 400)}`);
  }

  section(name: string, calls: number, inputs: number, seconds: number): void {
    this.bySection.set(name, { calls, inputs, seconds });
  }

  figure(line: string): void {
    this.figures.push(line);
  }

  get failed(): number {
    let sum = 0;
    for (const n of this.violations.values()) sum += n;
    return sum;
  }

  table(): string[] {
    const n = (value: number) => value.toLocaleString("en-US");
    const rows: [string, string][] = [
      ["calls made", n(this.callsMade)],
      ["inputs tried", n(this.inputsTried)],
      ["faults injected", n(this.faultsInjected)],
      ["concurrent clients", n(this.concurrentClients)],
      ...VIOLATION_KINDS.map((kind): [string, string] => [kind, n(this.violations.get(kind) ?? 0)]),
      [
        "RSS growth",
        this.rss === null
          ? "not measured"
          : `${mb(this.rss.startKb)} → ${mb(this.rss.endKb)} (${sign(this.rss.endKb - this.rss.startKb)}${
            mb(this.rss.endKb - this.rss.startKb)
          }, peak ${mb(this.rss.peakKb)}) over ${n(this.rss.calls)} soak calls`,
      ],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    const lines = rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`);
    lines.push("", "by section:");
    for (const [name, s] of this.bySection) {
      lines.push(
        `  ${name.padEnd(10)} ${n(s.calls).padStart(7)} calls  ${n(s.inputs).padStart(7)} inputs  ${s.seconds.toFixed(1).padStart(6)} s`,
      );
    }
    if (this.figures.length > 0) lines.push("", "figures:", ...this.figures.map((f) => `  ${f}`));
    if (this.details.length > 0) lines.push("", "violations (first 40):", ...this.details.map((d) => `  ${d}`));
    return lines;
  }
}

function mb(kb: number): string {
  return `${(Math.abs(kb) / 1024).toFixed(1)} MB`;
}

function sign(kb: number): string {
  return kb < 0 ? "-" : "+";
}
