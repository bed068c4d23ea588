/**
 * Which runtime runs the harness, for `--version` (and diagnostics): Node with its version, Deno with
 * its own version (not the Node version it emulates), or the single executable built with Bun. Reads
 * only the runtime's global objects; the detection itself is a pure function of them.
 */
export interface RuntimeGlobals {
  Deno?: { version?: { deno?: string } };
  Bun?: { version?: string; main?: string };
  process?: { versions?: { node?: string }; platform?: string; arch?: string };
}

export function describeRuntime(globals: RuntimeGlobals = globalThis as RuntimeGlobals): string {
  const where = `${globals.process?.platform ?? "unknown"}-${globals.process?.arch ?? "unknown"}`;
  const deno = globals.Deno?.version?.deno;
  if (typeof deno === "string") return `deno ${deno}, ${where}`;
  const bun = globals.Bun?.version;
  if (typeof bun === "string") {
    // A compiled Bun executable runs its code from the embedded file system: /$bunfs/… (B:/~BUN/… on Windows).
    const main = globals.Bun?.main ?? "";
    const compiled = main.includes("$bunfs") || main.includes("~BUN");
    return `${compiled ? "single executable, " : ""}bun ${bun}, ${where}`;
  }
  return `node ${globals.process?.versions?.node ?? "unknown"}, ${where}`;
}
