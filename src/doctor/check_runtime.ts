/**
 * Check 1, runtime: which runtime runs the harness and its version — Node ≥ 20, Deno ≥ 2, Bun, or the
 * compiled single executable (said so, with the runtime inside). An older Node or Deno is a miss with
 * the install to do. Reads only the injected RuntimeFacts.
 */
import type { DoctorCheck } from "./types.ts";

const MINIMUM = { node: 20, deno: 2 } as const;

export const runtimeCheck: DoctorCheck = {
  id: "runtime",
  name: "Runtime",
  run: async ({ runtime }) => {
    const facts = { kind: runtime.kind, version: runtime.version, executable: runtime.executable };
    const major = Number(/^v?(\d+)/.exec(runtime.version)?.[1] ?? Number.NaN);
    if (runtime.kind === "compiled") {
      return {
        ok: true,
        detail: `the compiled executable ${runtime.executable} (${runtime.engine ?? "embedded"} ${runtime.version} inside)`,
        facts,
      };
    }
    if (runtime.kind === "bun") return { ok: true, detail: `Bun ${runtime.version} (${runtime.executable})`, facts };
    const name = runtime.kind === "node" ? "Node" : "Deno";
    const minimum = MINIMUM[runtime.kind];
    if (!(major >= minimum)) {
      return {
        ok: false,
        detail: `${name} ${runtime.version} (${runtime.executable}) is older than ${name} ${minimum}`,
        remedy: runtime.kind === "node"
          ? "Install Node 20 LTS or newer (https://nodejs.org, or: nvm install 20), or use the single executable"
          : "Upgrade Deno to 2 or newer: deno upgrade",
        facts,
      };
    }
    return { ok: true, detail: `${name} ${runtime.version} (${runtime.executable})`, facts };
  },
  timedOut: () => ({ ok: false, detail: "the runtime check did not finish", remedy: "Report this as a bug of android-mcp-harness doctor" }),
};
