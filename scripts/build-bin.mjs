#!/usr/bin/env bun
/**
 * `npm run build:bin`: one self-contained executable, `dist/android-mcp-harness`, from src/main.ts with Bun's
 * compiler (bytecode, ESM). Run by the bun installed in node_modules; works offline for the host. The
 * simulated device, the contracts and every command are code, so they are inside the binary; webdriverio's
 * run-time protocol import is made static (scripts/bin/webdriver_static_import.mjs) so `remote()` works in it,
 * and so are the sources' own relative dynamic imports (scripts/bin/static_relative_imports.mjs, a Bun bug).
 * The UiAutomator2 server's two APKs are embedded files (scripts/bin/embedded_apks.mjs), for the direct backend.
 *   bun scripts/build-bin.mjs                       host target → dist/android-mcp-harness
 *   bun scripts/build-bin.mjs --target bun-linux-arm64 [--outfile PATH]
 *   bun scripts/build-bin.mjs --all                 the four release targets → dist/bin/ (fetches their runtimes from npm)
 */
import { mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { embeddedApks } from "./bin/embedded_apks.mjs";
import { staticRelativeImports } from "./bin/static_relative_imports.mjs";
import { webdriverStaticImport } from "./bin/webdriver_static_import.mjs";

/** The release targets: Bun target name → file name in dist/bin/. */
export const RELEASE_TARGETS = {
  "bun-linux-x64": "android-mcp-harness-linux-x64",
  "bun-linux-arm64": "android-mcp-harness-linux-arm64",
  "bun-darwin-arm64": "android-mcp-harness-darwin-arm64",
  "bun-windows-x64": "android-mcp-harness-windows-x64.exe",
};

const ROOT = join(import.meta.dir, "..");

async function buildOne(outfile, target) {
  const started = performance.now();
  const result = await Bun.build({
    entrypoints: [join(ROOT, "src", "main.ts")],
    compile: target === undefined ? { outfile } : { outfile, target },
    format: "esm",
    bytecode: true,
    minify: false,
    plugins: [webdriverStaticImport, staticRelativeImports, embeddedApks(ROOT)],
    // An optional peer of webdriverio, used only by getPuppeteer() (never called by the harness).
    external: ["puppeteer-core"],
    // ws's optional native add-ons are looked up with require() in try/catch; say they are absent.
    define: { "process.env.WS_NO_BUFFER_UTIL": '"1"', "process.env.WS_NO_UTF_8_VALIDATE": '"1"' },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`build of ${outfile} failed`);
  }
  const { size } = await stat(outfile);
  console.error(
    `build-bin: ${outfile} (${target ?? "host"}), ${(size / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

function option(args, name) {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith("--")) throw new Error(`${name} needs a value`);
  return value;
}

async function main(args) {
  const known = new Set(["--all", "--target", "--outfile"]);
  const unknown = args.find((arg, i) => arg.startsWith("--") && !known.has(arg) && !known.has(args[i - 1]));
  if (unknown !== undefined) throw new Error(`unknown option ${unknown} (use --all, --target T, --outfile PATH)`);
  if (args.includes("--all")) {
    await mkdir(join(ROOT, "dist", "bin"), { recursive: true });
    for (const [target, name] of Object.entries(RELEASE_TARGETS)) await buildOne(join(ROOT, "dist", "bin", name), target);
    return;
  }
  const target = option(args, "--target");
  if (target !== undefined && !Object.hasOwn(RELEASE_TARGETS, target) && !target.startsWith("bun-")) {
    throw new Error(`--target must be a Bun target such as ${Object.keys(RELEASE_TARGETS).join(", ")}`);
  }
  await mkdir(join(ROOT, "dist"), { recursive: true });
  await buildOne(option(args, "--outfile") ?? join(ROOT, "dist", "android-mcp-harness"), target);
}

main(process.argv.slice(2)).catch((error) => {
  console.error(`build-bin: ${error.message}`);
  process.exit(1);
});
