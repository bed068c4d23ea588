/**
 * The real RuntimeFacts: Deno (`Deno.version`), Bun (`Bun.version`; compiled when its main module lives
 * in the embedded `/$bunfs/` or `B:/~BUN/` file system), a Node single executable (`node:sea` isSea),
 * else Node (`process.versions.node`).
 */
import process from "node:process";
import type { RuntimeFacts } from "../ports/runtime.ts";

interface RuntimeGlobals {
  Deno?: { version: { deno: string } };
  Bun?: { version: string; main?: string };
}

export function currentRuntime(): RuntimeFacts {
  const globals = globalThis as RuntimeGlobals;
  const executable = process.execPath;
  if (globals.Deno !== undefined) return { kind: "deno", version: globals.Deno.version.deno, executable };
  if (globals.Bun !== undefined) {
    const main = globals.Bun.main ?? "";
    const compiled = main.startsWith("/$bunfs/") || /^[A-Z]:[\\/]~BUN[\\/]/.test(main);
    return compiled
      ? { kind: "compiled", engine: "Bun", version: globals.Bun.version, executable }
      : { kind: "bun", version: globals.Bun.version, executable };
  }
  const builtin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  const sea = builtin?.("node:sea") as { isSea?: () => boolean } | undefined;
  if (sea?.isSea?.() === true) return { kind: "compiled", engine: "Node", version: process.versions.node, executable };
  return { kind: "node", version: process.versions.node, executable };
}
