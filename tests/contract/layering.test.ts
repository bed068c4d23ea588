/**
 * The layering rules docs/architecture.md states, checked on the source's static imports: real
 * adapters are built only by the composition module, tools never import adapters, the device room
 * never imports a tool, tools never cast through `unknown`, the SDK is used through its public API, no code
 * decides from an MCP annotation, the PNG module is pure, ports hold interfaces only, the pure screen model
 * does no I/O, contracts import no code, and the simulated device's code is reached from the entry point only
 * through a dynamic import.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { BUILTIN_SCENARIOS } from "../../src/sim/mod.ts";
import { BUILTIN_SCENARIO_NAMES } from "../../src/sim/scenario_names.ts";
import { REPO_ROOT } from "../support/paths.ts";

const SRC = join(REPO_ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : name.endsWith(".ts") ? [path] : [];
  });
}

/** Relative specifiers of `import … from "x"` / `export … from "x"` (static only; `import type` included when asked). */
function staticImports(file: string, options: { types: boolean }): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?\sfrom\s+"([^"]+)"/gms)) {
    if (m[1] !== undefined && !options.types) continue;
    out.push(m[2]!);
  }
  return out.filter((s) => s.startsWith("."));
}

const rel = (path: string) => relative(REPO_ROOT, path);
const resolved = (file: string, spec: string) => resolve(dirname(file), spec);

/** Every file the entry point loads before a command runs: main.ts's static graph, plus what main.ts itself
 * imports dynamically (the CLI and the composition module) with their static graphs. */
function startupGraph(options: { mainDynamic: boolean; also?: string[] }): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const main = join(SRC, "main.ts");
  const queue = [main, ...(options.also ?? []).map((path) => join(REPO_ROOT, path))];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, "utf8");
    const specs = [...text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?\sfrom\s+"([^"]+)"/gms)]
      .filter((m) => m[1] === undefined).map((m) => m[2]!);
    if (file === main && options.mainDynamic) specs.push(...[...text.matchAll(/\bawait import\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]!));
    for (const spec of specs) {
      if (spec.startsWith(".")) queue.push(resolved(file, spec));
      else packages.add(spec);
    }
  }
  return { files, packages };
}

test("the entry point reaches the simulated device only through a dynamic import", () => {
  const seen = startupGraph({ mainDynamic: true }).files;
  const simFiles = [...seen].filter((f) => f.startsWith(join(SRC, "sim") + "/") && !f.endsWith("scenario_names.ts")).map(rel);
  assert.deepEqual(simFiles, [], "statically imported from main.ts");
  assert.ok(seen.size > 20, `walked ${seen.size} files`);
});

test("`--version` loads neither webdriverio nor the MCP SDK, nor the CLI parser (main.ts's static graph)", () => {
  const { files, packages } = startupGraph({ mainDynamic: false });
  const heavy = [...packages].filter((p) => p === "webdriverio" || p.startsWith("@modelcontextprotocol/") || p === "cac");
  assert.deepEqual(heavy, [], `reached from main.ts statically (${files.size} files)`);
  assert.ok(files.size < 10, `main.ts statically reaches ${[...files].map(rel).join(", ")}`);
});

test("no command loads webdriverio at start: only the composition module's dynamic import on the first UI session", () => {
  const { packages } = startupGraph({ mainDynamic: true });
  assert.ok(packages.has("cac"), "the walk reached the CLI");
  assert.ok(!packages.has("webdriverio"), "webdriverio is statically reachable from a command's start");
  assert.match(readFileSync(join(SRC, "composition.ts"), "utf8"), /await import\("\.\/adapters\/appium\/mod\.ts"\)/);
  assert.match(readFileSync(join(SRC, "composition.ts"), "utf8"), /await import\("\.\/adapters\/uia2_direct\/mod\.ts"\)/);
});

test("`tree --file` loads no zod (80 ms of a 0.4 s budget under Node): its start, the tree command and the screen model", () => {
  const { files, packages } = startupGraph({ mainDynamic: true, also: ["src/cli/tree.ts"] });
  assert.ok(files.has(join(SRC, "screen", "summarize.ts")), "the walk reached the screen model");
  const heavy = [...packages].filter((p) => p === "zod" || p === "webdriverio" || p.startsWith("@modelcontextprotocol/"));
  assert.deepEqual(heavy, [], "reached from main.ts, the CLI, the composition module or tree.ts statically");
});

test("only the composition module builds real adapters", () => {
  const builders =
    /\bcreate(NodeProcessRunner|SystemClock|StderrLogger|AdbClient|AdbObserver|EvidenceStore|AuditLog|DeviceLock|NodeFileSystem|NodeProcessProbe|AppiumDriverFactory|DirectDriverFactory)\s*\(/;
  for (const file of sourceFiles(SRC)) {
    const path = rel(file);
    if (path.startsWith("src/adapters/") || path === "src/composition.ts") continue;
    assert.doesNotMatch(readFileSync(file, "utf8"), builders, `${path} builds a real adapter`);
  }
});

test("only the composition module starts the simulated device (serve, tree and flow through openHarness, doctor, sim)", () => {
  for (const file of sourceFiles(SRC)) {
    const path = rel(file);
    if (path.startsWith("src/sim/") || path === "src/composition.ts") continue;
    assert.doesNotMatch(readFileSync(file, "utf8"), /\bstartSimDevice\b/, `${path} starts the simulated device itself`);
  }
  assert.match(readFileSync(join(SRC, "composition.ts"), "utf8"), /await import\("\.\/sim\/mod\.ts"\)/);
});

test("tools never import adapters (their PNG work comes from the pure src/png)", () => {
  for (const file of sourceFiles(join(SRC, "tools"))) {
    for (const spec of staticImports(file, { types: true })) {
      assert.ok(!resolved(file, spec).startsWith(join(SRC, "adapters")), `${rel(file)} imports ${spec}`);
    }
  }
});

test("the device room (act pipeline, screen reads, evidence, sessions) imports nothing from src/tools", () => {
  const files = sourceFiles(join(SRC, "device"));
  assert.ok(files.length > 3);
  for (const file of files) {
    for (const spec of staticImports(file, { types: true })) {
      assert.ok(!resolved(file, spec).startsWith(join(SRC, "tools") + "/"), `${rel(file)} imports ${spec}`);
    }
  }
});

test("tool handlers never cast through unknown: their arguments and data are typed by the declaration", () => {
  for (const file of sourceFiles(join(SRC, "tools"))) {
    assert.doesNotMatch(readFileSync(file, "utf8"), /\bas unknown as\b/, `${rel(file)} casts through unknown`);
  }
});

test("nothing in src reaches into the MCP SDK's internals (Protocol.prototype)", () => {
  for (const file of sourceFiles(SRC)) {
    assert.doesNotMatch(readFileSync(file, "utf8"), /Protocol\.prototype/, `${rel(file)} uses Protocol.prototype`);
  }
});

test("no code decides from an MCP annotation: the device lock's policy is each tool's declared device access", () => {
  // The annotations are for clients (contracts/tools.ts derives them, server.ts publishes them); the lock once
  // read readOnlyHint to let an observing call pass beside a session.
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    assert.doesNotMatch(text, /\b(readOnly|destructive|idempotent|openWorld)Hint\b/, `${rel(file)} reads an MCP annotation`);
    if (rel(file) !== "src/mcp/server.ts") assert.doesNotMatch(text, /\.annotations\b/, `${rel(file)} reads the annotations`);
  }
});

test("contracts/ is data: it imports zod and its own files only", () => {
  for (const file of sourceFiles(join(REPO_ROOT, "contracts"))) {
    for (const m of readFileSync(file, "utf8").matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/gms)) {
      assert.ok(m[1] === "zod" || /^\.\/[a-z_]+\.ts$/.test(m[1]!), `${rel(file)} imports ${m[1]}`);
    }
  }
});

// node:zlib is allowed: inflate/deflate are pure computations on bytes (no I/O, no state, same answer in Node, Deno
// and Bun), and the runtime's native zlib is what makes the screenshot path fast.
test("src/png is pure: upng-js, node:zlib, its own files and the error type only", () => {
  const files = sourceFiles(join(SRC, "png"));
  assert.ok(files.length > 0);
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/gms)) {
      const spec = m[1]!;
      const allowed = spec === "upng-js" || spec === "node:zlib" || /^\.\/[a-z_0-9]+\.ts$/.test(spec) || spec === "../errors.ts";
      assert.ok(allowed, `${rel(file)} imports ${spec}`);
    }
  }
});

test("ports hold interfaces only, and the screen model imports nothing with I/O", () => {
  for (const file of sourceFiles(join(SRC, "ports"))) {
    const text = readFileSync(file, "utf8");
    for (const spec of staticImports(file, { types: false })) assert.fail(`${rel(file)} imports a value from ${spec}`);
    assert.doesNotMatch(text, /^export (?:const|function|class|let) /m, `${rel(file)} exports a value`);
  }
  for (const file of sourceFiles(join(SRC, "screen"))) {
    assert.doesNotMatch(readFileSync(file, "utf8"), /from "node:(fs|child_process|net|http)/, `${rel(file)} does I/O`);
  }
});

test("the scenario names the help text lists are the built-in scenarios", () => {
  assert.deepEqual([...BUILTIN_SCENARIO_NAMES].sort(), Object.keys(BUILTIN_SCENARIOS).sort());
});
