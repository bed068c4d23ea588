/**
 * The published package (issue 27): `npm pack` in a copy of the checkout's sources with no dist/ (as a fresh
 * clone after `npm ci`) builds the code itself (prepack) and ships the built code and the user docs only: no
 * tests, TypeScript sources, CI files, binary or earlier tarball. Installed globally into a fresh prefix from the
 * tarball (its dependencies from the registry, the npm cache first), npm asks to run no install scripts (no
 * browser drivers come with it), and the installed command, started from `/`, serves the simulated device to a
 * real MCP SDK client: tools/list, then ui_get_tree. Slow (a build, an install): in SLOW.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AVAILABLE_TOOL_NAMES } from "../../contracts/tools.ts";
import { envelopeOf } from "../support/mcp_client.ts";
import { killQuietly, makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";
import { REPO_ROOT } from "../support/paths.ts";

/** What a fresh clone holds that the build reads (no dist/, no tests/: the pack must not need them). */
const SOURCES = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.pack.json",
  "README.md",
  "LICENSE",
  "src",
  "contracts",
  "scripts",
  "docs",
];
const TARBALL_LIMIT_BYTES = 2_000_000;

let work: string;
let home: ServeHome;
let tarball: string;
let packed: { path: string; size: number }[];
let installLog: string;

function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024, env: process.env }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${command} ${args.join(" ")} failed: ${error.message}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), "amh-pack-"));
  home = makeServeHome();
  const clone = join(work, "clone");
  for (const entry of SOURCES) cpSync(join(REPO_ROOT, entry), join(clone, entry), { recursive: true });
  symlinkSync(realpathSync(join(REPO_ROOT, "node_modules")), join(clone, "node_modules"));
  const out = join(work, "out");
  mkdirSync(out);
  const pack = await run("npm", ["pack", "--json", "--pack-destination", out], clone, 300_000);
  const [report] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf("["))) as {
    filename: string;
    files: { path: string; size: number }[];
  }[];
  tarball = join(out, report!.filename);
  packed = report!.files;
  const install = await run(
    "npm",
    ["install", "-g", "--prefix", join(work, "prefix"), "--prefer-offline", "--no-audit", "--no-fund", tarball],
    work,
    600_000,
  );
  installLog = install.stdout + install.stderr;
});

after(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
  home?.remove();
});

test("npm pack builds the package itself and ships the built code and docs only, within 2 MB", () => {
  const paths = packed.map((f) => f.path);
  assert.ok(paths.includes("dist/src/main.js"), "the bin is built by prepack");
  assert.ok(paths.includes("dist/contracts/tools.js"));
  assert.ok(paths.includes("LICENSE"), "the licence package.json names (Apache-2.0) ships with the code");
  const unexpected = paths.filter((p) =>
    !/^(package\.json|README\.md|LICENSE|dist\/src\/.+\.js|dist\/contracts\/.+\.js|docs\/[^/]+\.md|docs\/flows\/[^/]+\.json)$/.test(p)
  );
  assert.deepEqual(unexpected, [], "no tests, TypeScript sources, CI files, binaries or tarballs");
  const { size } = statSync(tarball);
  assert.ok(size < TARBALL_LIMIT_BYTES, `the tarball is ${size} bytes`);
});

test("a global install from the tarball asks to run no install scripts (no browser drivers come with it)", () => {
  assert.doesNotMatch(installLog, /install-scripts|allow-scripts|edgedriver|geckodriver/, installLog);
  assert.ok(existsSync(join(work, "prefix", "bin", "android-mcp-harness")), installLog);
});

test("the installed command, started from /, serves the simulated device to an MCP SDK client", { timeout: 120_000 }, async () => {
  const transport = new StdioClientTransport({
    command: join(work, "prefix", "bin", "android-mcp-harness"),
    args: ["serve", "--device", "sim"],
    cwd: "/",
    env: home.env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "pack-test", version: "0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), AVAILABLE_TOOL_NAMES);
    const tree = envelopeOf(await client.callTool({ name: "ui_get_tree", arguments: {} }, undefined, { timeout: 60_000 }));
    assert.equal(tree.ok, true, `${JSON.stringify(tree.error)}\n${stderr}`);
    assert.ok((tree.data["actions"] as unknown[]).length > 0, JSON.stringify(tree.data));
    assert.match(stderr, /SIMULATED/);
  } finally {
    await client.close().catch(() => {});
    killQuietly(transport.pid);
  }
});
