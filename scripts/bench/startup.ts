/**
 * Bench section "startup": the three ways to run the harness side by side in one run — the single
 * executable (dist/android-mcp-harness), `node dist/src/main.js`, `deno run -A src/main.ts` — with what each
 * needs on disk, the cold start to an exited `--help`, `--version` and `tree --file` on a 100 KB real dump, and
 * the cold start to an answered `tools/list` (spawn `serve --device sim`, SDK client over stdio: initialize then
 * tools/list), median and min over interleaved repetitions. Targets: the binary answers tools/list in under
 * 300 ms; under Node `--version` takes under 250 ms and `tree --file` under 400 ms. Page cache is warm.
 */
import { spawn } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO_ROOT } from "../../tests/support/paths.ts";
import { type BenchIO, type BenchSection, median } from "./section.ts";

export const BINARY_TOOLS_LIST_TARGET_MS = 300;
export const NODE_VERSION_TARGET_MS = 250;
export const NODE_TREE_FILE_TARGET_MS = 400;
/** A real dump of about 100 KB (the corpus's), for `tree --file`. */
const TREE_DUMP = "whatsapp-self-chat-ptbr-290-nodes.xml";

interface Variant {
  name: string;
  command: string;
  prefix: string[];
  /** What has to be on disk to run it, for the size column. */
  footprint(): string;
}

const MB = 1e6;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

function variants(): Variant[] {
  const binary = join(REPO_ROOT, "dist", "android-mcp-harness");
  const deno = join(REPO_ROOT, "node_modules", ".bin", "deno");
  let nodeModules: number | undefined;
  const modulesSize = () => (nodeModules ??= treeBytes(join(REPO_ROOT, "node_modules")));
  return [
    { name: "single executable", command: binary, prefix: [], footprint: () => `${mb(statSync(binary).size)}, nothing else` },
    {
      name: "node dist/src/main.js",
      command: process.execPath,
      prefix: [join(REPO_ROOT, "dist", "src", "main.js")],
      footprint: () =>
        `node ${mb(statSync(process.execPath).size)} + dist/src ${mb(treeBytes(join(REPO_ROOT, "dist", "src")))} + node_modules ${
          mb(modulesSize())
        } (dev dependencies included)`,
    },
    {
      name: "deno run src/main.ts",
      command: deno,
      prefix: ["run", "-A", join(REPO_ROOT, "src", "main.ts")],
      footprint: () => `deno ${mb(statSync(deno).size)} + src + node_modules ${mb(modulesSize())} (dev dependencies included)`,
    },
  ];
}

export const startupSection: BenchSection = {
  name: "startup: size, cold start to --help and to an answered tools/list (binary, node, deno)",
  async run(io: BenchIO) {
    const missing = variants().filter((v) => !existsSync(v.command));
    if (missing.length > 0) {
      io.print(`skipped: ${missing.map((v) => v.command).join(", ")} not found (npm run build:bin builds the executable)`);
    }
    // The variants at hand are measured (the node figures and their targets need no executable).
    const all = variants().filter((v) => existsSync(v.command));
    const binary = all.find((v) => v.name === "single executable");
    const node = all.find((v) => v.name === "node dist/src/main.js");
    const home = mkdtempSync(join(tmpdir(), "amh-bench-startup-"));
    const env = {
      PATH: process.env["PATH"] ?? "",
      HOME: home,
      XDG_STATE_HOME: join(home, "state"),
      ANDROID_MCP_ARTIFACTS_DIR: join(home, "artifacts"),
    };
    try {
      const dump = join(io.corpusDir, TREE_DUMP);
      const commands: [string, string[]][] = [["--help", ["--help"]], ["--version", ["--version"]]];
      if (existsSync(dump)) commands.push(["tree --file", ["tree", "--file", dump]]);
      const times = new Map<string, number[]>();
      const at = (v: Variant, what: string) => {
        const key = `${v.name}\n${what}`;
        return times.get(key) ?? times.set(key, []).get(key)!;
      };
      for (const v of all) await timeToolsList(v, env, home); // warm-up: page cache, deno's module cache
      for (let i = 0; i < io.repetitions; i++) {
        for (const [what, args] of commands) for (const v of all) at(v, what).push(await timeCommand(v, args, env, home));
        for (const v of all) at(v, "tools/list").push(await timeToolsList(v, env, home));
      }
      io.print(`${io.repetitions} interleaved runs each; ms, median (min)${existsSync(dump) ? `; tree --file on ${TREE_DUMP}` : ""}`);
      const columns = [...commands.map(([what]) => what), "tools/list"];
      io.print(`${"variant".padEnd(24)}${columns.map((c) => c.padEnd(16)).join("")}on disk`);
      for (const v of all) {
        const cell = (values: number[]) => `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)})`.padEnd(16);
        io.print(`${v.name.padEnd(24)}${columns.map((c) => cell(at(v, c))).join("")}${v.footprint()}`);
      }
      const verdict = (v: Variant, what: string, target: number) => {
        const ms = median(at(v, what));
        return `${ms.toFixed(0)} ms (target < ${target} ms: ${ms < target ? "met" : "MISSED"})`;
      };
      if (binary !== undefined) {
        io.print(`single executable, answered tools/list from a cold start: ${verdict(binary, "tools/list", BINARY_TOOLS_LIST_TARGET_MS)}`);
      }
      if (node !== undefined) {
        io.print(`node dist/src/main.js --version: ${verdict(node, "--version", NODE_VERSION_TARGET_MS)}`);
        if (existsSync(dump)) io.print(`node dist/src/main.js tree --file: ${verdict(node, "tree --file", NODE_TREE_FILE_TARGET_MS)}`);
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
};

/** Spawn to exit of one command; a failure stops the bench (a number from a broken run means nothing). */
function timeCommand(v: Variant, args: string[], env: Record<string, string>, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(v.command, [...v.prefix, ...args], { env, cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString("utf8")));
    child.once("error", reject);
    child.once(
      "exit",
      (code) =>
        code === 0 ? resolve(performance.now() - start) : reject(new Error(`${v.name} ${args.join(" ")} exited ${code}: ${stderr}`)),
    );
  });
}

/** Spawn of `serve --device sim` to the tools/list answer (initialize included); the server is then closed. */
async function timeToolsList(v: Variant, env: Record<string, string>, cwd: string): Promise<number> {
  const start = performance.now();
  const transport = new StdioClientTransport({
    command: v.command,
    args: [...v.prefix, "serve", "--device", "sim"],
    env,
    cwd,
    stderr: "ignore",
  });
  const client = new Client({ name: "bench", version: "0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    if (tools.length === 0) throw new Error(`${v.name}: tools/list was empty`);
    return performance.now() - start;
  } finally {
    await client.close().catch(() => {});
    if (transport.pid !== null) {
      try {
        process.kill(transport.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
}

/** Bytes of every regular file under `dir` (symlinks not followed). */
function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(path);
    else if (entry.isFile()) total += lstatSync(path).size;
  }
  return total;
}
