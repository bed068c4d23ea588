/**
 * The layer rules of docs/architecture.md that are easy to break by one import: tools never reach
 * adapters or the simulated device, and the PNG module stays pure (upng-js, its own files, the error type).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT } from "../support/paths.ts";

function importsOf(folder: string): { file: string; from: string }[] {
  const dir = join(REPO_ROOT, "src", folder);
  return readdirSync(dir).filter((n) => n.endsWith(".ts")).flatMap((name) => {
    const text = readFileSync(join(dir, name), "utf8");
    return [...text.matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gms)].map((m) => ({ file: `src/${folder}/${name}`, from: m[1]! }));
  });
}

test("src/tools imports no adapter and nothing of the simulated device", () => {
  const bad = importsOf("tools").filter((i) => /\/(adapters|sim)\//.test(i.from));
  assert.deepEqual(bad, []);
});

test("src/png is pure: upng-js, its own files and the error type only", () => {
  const imports = importsOf("png");
  assert.ok(imports.length > 0);
  const bad = imports.filter((i) => !(i.from === "upng-js" || /^\.\/[a-z_]+\.ts$/.test(i.from) || i.from === "../errors.ts"));
  assert.deepEqual(bad, []);
});
