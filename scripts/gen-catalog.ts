#!/usr/bin/env node
/**
 * Writes contracts/catalog.json from the zod contract (contracts/catalog.ts). Run after changing a tool's
 * schema, description or availability: `node <dist>/scripts/gen-catalog.js` (or `deno run -A
 * scripts/gen-catalog.ts`). `--check` writes nothing and exits 1 when the committed file is stale.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { renderCatalog } from "../contracts/catalog.ts";

function repositoryRoot(start: string): string {
  for (let dir = start;; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "contracts"))) return dir;
    if (dirname(dir) === dir) throw new Error(`No repository root (package.json + contracts/) above ${start}`);
  }
}

function generate(args: readonly string[]): number {
  const target = join(repositoryRoot(dirname(fileURLToPath(import.meta.url))), "contracts", "catalog.json");
  const text = renderCatalog();
  const current = existsSync(target) ? readFileSync(target, "utf8") : "";
  if (args.includes("--check")) {
    process.stderr.write(current === text ? `${target} is up to date\n` : `${target} is stale: run scripts/gen-catalog\n`);
    return current === text ? 0 : 1;
  }
  if (current !== text) writeFileSync(target, text);
  process.stderr.write(`${current === text ? "unchanged" : "wrote"} ${target}\n`);
  return 0;
}

process.exitCode = generate(process.argv.slice(2));
