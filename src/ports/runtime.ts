/**
 * Port (data): which JavaScript runtime runs the harness — Node, Deno, Bun, or a compiled single
 * executable (Bun's `--compile` or a Node SEA) — its version and the executable's path. Read once by
 * the real adapter; `doctor` reports it and tests pass their own.
 */
export interface RuntimeFacts {
  kind: "node" | "deno" | "bun" | "compiled";
  /** The runtime's own version: Node's for node and a Node SEA, Deno's, Bun's. */
  version: string;
  /** For "compiled": the runtime inside the executable. */
  engine?: "Node" | "Bun";
  executable: string;
}
