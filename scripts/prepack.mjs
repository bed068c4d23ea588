#!/usr/bin/env node
// `npm pack` / `npm publish` run this first (package.json "prepack"): the package is built by the pack itself,
// from the sources, never from whatever an earlier build left in dist/. It removes dist/src and dist/contracts
// (a module deleted from the sources must not ship from an old build), compiles only src/ and contracts/
// (tsconfig.pack.json) and marks the bin executable. package.json's "files" then ships dist/src, dist/contracts
// and the user docs: no tests, no TypeScript sources, no CI files, no binary, no earlier tarball.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
for (const dir of ["src", "contracts"]) rmSync(join(root, "dist", dir), { recursive: true, force: true });
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
for (const args of [[tsc, "-p", join(root, "tsconfig.pack.json")], [join(root, "scripts", "mark-executable.mjs")]]) {
  const run = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  if (run.status !== 0) {
    console.error(`prepack: ${args.join(" ")} failed (exit ${run.status ?? run.signal}); run \`npm ci\` first.`);
    process.exit(1);
  }
}
