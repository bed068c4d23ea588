/**
 * The layering rules docs/architecture.md states, checked on the source's static imports: real
 * adapters are built only by the composition module, tools never import adapters, the device room
 * never imports a tool, tools never cast through `unknown`, the SDK is used through its public API, no code
 * decides from an MCP annotation, the PNG module is pure, ports hold interfaces only, the pure screen model
 * does no I/O and is entered through its mod.ts, contracts import no code, the simulated device's code is reached
 * from the entry point only through a dynamic import, the simulated device (its own package, src/sim/) is entered
 * only through src/sim/mod.ts and imports nothing of the product, and no files under src/ or contracts/ import each
 * other in a circle.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { BUILTIN_SCENARIO_NAMES } from "../../contracts/scenario_names.ts";
import { BUILTIN_SCENARIOS } from "../../src/sim/mod.ts";
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

/** Every module a file names: static imports and re-exports (`import type` too), bare `import "x"`, `import("x")`. */
function moduleSpecifiers(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [
    ...[...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/gms)].map((m) => m[1]!),
    ...[...text.matchAll(/^import\s+"([^"]+)"/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]!),
  ];
}

/** The code files under a folder of the repository (.ts, .mts, .mjs, .js), minus the folders named in `except`. */
function codeFiles(dir: string, except: string[] = []): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return except.includes(rel(path)) ? [] : codeFiles(path, except);
    return /\.(m?ts|m?js)$/.test(name) ? [path] : [];
  });
}

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
  const simFiles = [...seen].filter((f) => f.startsWith(join(SRC, "sim") + "/")).map(rel);
  assert.deepEqual(simFiles, [], "statically imported from main.ts");
  assert.ok(seen.size > 20, `walked ${seen.size} files`);
});

test("`--version` loads neither the MCP SDK nor the CLI parser (main.ts's static graph)", () => {
  const { files, packages } = startupGraph({ mainDynamic: false });
  const heavy = [...packages].filter((p) => p.startsWith("@modelcontextprotocol/") || p === "cac");
  assert.deepEqual(heavy, [], `reached from main.ts statically (${files.size} files)`);
  assert.ok(files.size < 10, `main.ts statically reaches ${[...files].map(rel).join(", ")}`);
});

test("no command loads the Appium adapter at start: only the composition module's dynamic import on the first UI session", () => {
  const { files, packages } = startupGraph({ mainDynamic: true });
  assert.ok(packages.has("cac"), "the walk reached the CLI");
  const appium = [...files].filter((f) => f.startsWith(join(SRC, "adapters", "appium") + "/")).map(rel);
  assert.deepEqual(appium, [], "the Appium adapter is statically reachable from a command's start");
  assert.match(readFileSync(join(SRC, "composition.ts"), "utf8"), /await import\("\.\/adapters\/appium\/mod\.ts"\)/);
  assert.match(readFileSync(join(SRC, "composition.ts"), "utf8"), /await import\("\.\/adapters\/uia2_direct\/mod\.ts"\)/);
});

test("`serve` answers tools/list without loading a tool handler, the screen parser, the PNG work or a doctor check (issue 27)", () => {
  // What a serve start loads: the CLI and serve.ts, the MCP server and transport, and the parts composition.ts loads
  // when a harness opens (its dynamic imports, but the simulated device's and the UI driver adapters' of the first UI session).
  const composition = readFileSync(join(SRC, "composition.ts"), "utf8");
  const opened = [...composition.matchAll(/\bawait import\(\s*"\.\/([^"]+)"\s*\)/g)].map((m) => `src/${m[1]}`)
    .filter((path) => !/^src\/(?:sim|adapters\/appium|adapters\/uia2_direct)\//.test(path));
  const { files, packages } = startupGraph({
    mainDynamic: true,
    also: ["src/cli/serve.ts", "src/mcp/server.ts", "src/mcp/stdio_transport.ts", ...opened],
  });
  assert.ok(files.has(join(SRC, "tools", "on_demand.ts")), "the walk reached the served tools");
  assert.ok(files.has(join(SRC, "adapters", "evidence", "evidence_store.ts")), "the walk reached the evidence store");
  const early = [...files].map(rel).filter((path) =>
    /^src\/(?:tools\/(?!on_demand\.ts)|screen\/(?!render_text\.ts|types\.ts)|png\/|doctor\/)/.test(path)
  );
  assert.deepEqual(early, [], "statically reached from serve's start (load it on first use, by a dynamic import)");
  assert.deepEqual([...packages].filter((name) => name === "fast-xml-parser" || name === "upng-js"), []);
});

/** What pulls browser drivers (edgedriver, geckodriver: install scripts a user is asked to allow) into an install. */
const BROWSER_CLIENTS = /^(webdriverio|webdriver|@wdio\/.*|puppeteer.*|playwright.*|selenium-webdriver)$/;

test("the product imports no browser-automation client, and the package's dependencies hold none (issue 27)", () => {
  for (const file of [...sourceFiles(SRC), ...sourceFiles(join(REPO_ROOT, "contracts"))]) {
    const text = readFileSync(file, "utf8");
    const specs = [...text.matchAll(/(?:\sfrom\s+|\bimport\(\s*)"([^"]+)"/g)].map((m) => m[1]!.replace(/^((?:@[^/]+\/)?[^/]+).*$/, "$1"));
    assert.deepEqual(specs.filter((spec) => BROWSER_CLIENTS.test(spec)), [], `${rel(file)} imports a browser-automation client`);
  }
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  assert.deepEqual(Object.keys(manifest.dependencies).filter((name) => BROWSER_CLIENTS.test(name)), []);
});

test("`tree --file` loads no zod (80 ms of a 0.4 s budget under Node): its start, the tree command and the screen model", () => {
  const { files, packages } = startupGraph({ mainDynamic: true, also: ["src/cli/tree.ts"] });
  assert.ok(files.has(join(SRC, "screen", "summarize.ts")), "the walk reached the screen model");
  const heavy = [...packages].filter((p) => p === "zod" || p.startsWith("@modelcontextprotocol/"));
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

// The simulated device is its own npm workspace package (src/sim/package.json): src/sim/mod.ts is its one public
// entry. The product (src/ outside src/sim), scripts/ and tests/ import only that entry; tests/sim/ holds the
// package's own tests, which may reach inside. Imports stay relative (Node 20 cannot run TypeScript from a package).
const SIM = join(SRC, "sim");
const SIM_ENTRY = join(SIM, "mod.ts");
const SIM_PACKAGE = JSON.parse(readFileSync(join(SIM, "package.json"), "utf8")) as {
  name: string;
  private?: boolean;
  exports?: unknown;
  dependencies?: Record<string, string>;
};
const insideSim = (path: string) => path.startsWith(SIM + "/");

/** The files outside the simulated device that may use it only through its entry. */
function simClients(): string[] {
  return [
    ...codeFiles(SRC, ["src/sim"]),
    ...codeFiles(join(REPO_ROOT, "scripts")),
    ...codeFiles(join(REPO_ROOT, "tests"), ["tests/sim"]),
  ];
}

test("the simulated device's package: private, its one entry mod.ts, every package it imports among its dependencies", () => {
  assert.equal(SIM_PACKAGE.private, true);
  assert.equal(SIM_PACKAGE.exports, "./mod.ts");
  const root = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
    workspaces?: string[];
    dependencies: Record<string, string>;
  };
  assert.deepEqual(root.workspaces, ["src/sim"]);
  const simDeps = SIM_PACKAGE.dependencies ?? {};
  const imported = new Set(codeFiles(SIM).flatMap(moduleSpecifiers).filter((s) => !s.startsWith(".") && !s.startsWith("node:")));
  assert.deepEqual([...imported].sort(), Object.keys(simDeps).sort(), "the packages src/sim imports = src/sim/package.json's dependencies");
  // The published package carries the compiled simulated device (dist/src/sim) and installs the root's dependencies
  // only: the root lists the sim's at the same ranges.
  for (const [name, range] of Object.entries(simDeps)) assert.equal(root.dependencies[name], range, `root dependency ${name}`);
});

test("outside the simulated device, code imports only its public entry src/sim/mod.ts (tests/sim/ may reach inside)", () => {
  const files = simClients();
  assert.ok(files.length > 300, `scanned ${files.length} files`);
  const faults: string[] = [];
  let entryUsers = 0;
  for (const file of files) {
    for (const spec of moduleSpecifiers(file)) {
      if (spec.startsWith(SIM_PACKAGE.name)) faults.push(`${rel(file)} imports ${spec}: import src/sim/mod.ts by its relative path (.ts)`);
      if (!spec.startsWith(".") || !insideSim(resolved(file, spec))) continue;
      if (resolved(file, spec) === SIM_ENTRY) {
        entryUsers++;
        continue;
      }
      const entry = relative(dirname(file), SIM_ENTRY);
      faults.push(`${rel(file)} imports "${spec}": import "${entry.startsWith(".") ? entry : "./" + entry}" instead`);
    }
  }
  assert.deepEqual(
    faults,
    [],
    "inside the simulated device: export what is missing from src/sim/mod.ts (only tests/sim/ may reach inside)",
  );
  assert.ok(entryUsers > 40, `${entryUsers} imports of the entry`);
});

test("the simulated device imports nothing of the product: its own files, contracts/, node: builtins and its dependencies", () => {
  const files = codeFiles(SIM);
  assert.ok(files.length > 60, `scanned ${files.length} files`);
  const contracts = join(REPO_ROOT, "contracts") + "/";
  const faults: string[] = [];
  for (const file of files) {
    for (const spec of moduleSpecifiers(file)) {
      if (!spec.startsWith(".")) {
        if (!spec.startsWith("node:") && !(spec in (SIM_PACKAGE.dependencies ?? {}))) {
          faults.push(`${rel(file)} imports ${spec}, which src/sim/package.json does not list`);
        }
        continue;
      }
      const target = resolved(file, spec);
      if (!insideSim(target) && !target.startsWith(contracts)) faults.push(`${rel(file)} imports ${spec} (${rel(target)})`);
    }
  }
  assert.deepEqual(faults, [], "the simulated device imports no product code (contracts/ is shared)");
});

test("no circles: no files of src/ or contracts/ import each other in a loop (type imports count)", () => {
  const files = [...codeFiles(SRC), ...codeFiles(join(REPO_ROOT, "contracts"))];
  const edges = new Map(files.map((file) => [file, moduleSpecifiers(file).filter((s) => s.startsWith(".")).map((s) => resolved(file, s))]));
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string): void => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") assert.fail(`a circle: ${[...path.slice(path.indexOf(file)), file].map(rel).join(" -> ")}`);
    state.set(file, "open");
    path.push(file);
    for (const next of edges.get(file) ?? []) visit(next);
    path.pop();
    state.set(file, "done");
  };
  for (const file of files) visit(file);
  assert.equal(state.size, files.length);
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

test("src/screen/mod.ts is the only door into the screen model from the rest of src (validate_selector.ts apart: it loads zod; render_text.ts: a summary's text, without the parser)", () => {
  const doors = new Set([
    join(SRC, "screen", "mod.ts"),
    join(SRC, "screen", "validate_selector.ts"),
    join(SRC, "screen", "render_text.ts"),
  ]);
  const outside = sourceFiles(SRC).filter((file) => !file.startsWith(join(SRC, "screen") + "/"));
  let reached = 0;
  for (const file of outside) {
    for (const spec of staticImports(file, { types: true })) {
      const target = resolved(file, spec);
      if (!target.startsWith(join(SRC, "screen") + "/")) continue;
      reached++;
      assert.ok(doors.has(target), `${rel(file)} imports ${spec}: import it from src/screen/mod.ts`);
    }
  }
  assert.ok(reached > 10, "the walk met the screen model's users");
});

test("no test asserts a wall-clock figure: real deadlines go through tests/support/time_bounds.ts (the deadline plus a loaded machine's slack)", () => {
  const wall = /\b(?:Date|performance)\.now\(\)/;
  const found: string[] = [];
  for (const file of sourceFiles(join(REPO_ROOT, "tests"))) {
    if (file.endsWith("time_bounds.ts")) continue;
    const lines = readFileSync(file, "utf8").split("\n");
    // Durations measured on the wall clock in this file: `const took = Date.now() - started`.
    const measured = [...lines.join("\n").matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*(?:Date|performance)\.now\(\)\s*-/g)].map((m) => m[1]!);
    const compared = measured.length === 0
      ? null
      : new RegExp(`\\b(?:${measured.join("|")})\\s*[<>]|[<>]=?\\s*(?:${measured.join("|")})\\b`);
    for (const [i, line] of lines.entries()) {
      // A poll's give-up (`assert.fail` once LOADED_WAIT_MS or a caller's wait has passed) catches a hang, not a figure.
      if (!/\bassert(?:\.\w+)?\(/.test(line) || /\bassert\.fail\(/.test(line)) continue;
      if (wall.test(line) || compared?.test(line) === true || /\b(?:duration_ms|tookMs)\s*[<>]/.test(line)) {
        found.push(`${rel(file)}:${i + 1}`);
      }
    }
  }
  assert.deepEqual(found, []);
});

test("tool handlers never cast through unknown: their arguments and data are typed by the declaration", () => {
  for (const file of sourceFiles(join(SRC, "tools"))) {
    assert.doesNotMatch(readFileSync(file, "utf8"), /\bas unknown as\b/, `${rel(file)} casts through unknown`);
  }
});

test("the gate reads a call's session_id and device and resolves its device handle; below it nothing resolves them again", () => {
  // Tools and the device room get the device through OperationContext.device (runOperation resolves it once, after the
  // lock); the UiSessions port offers no driver by session id. ui_session_close reads its own argument: the session
  // it closes, on no device.
  const reads =
    /\bctx\.sessionId\b|\.withDriver\(\s*(?:ctx\.)?session|\bargs\.session_id\b|\["session_id"\]|\bargs\.device\b|\.resolveDevice\(/;
  for (const file of [...sourceFiles(join(SRC, "tools")), ...sourceFiles(join(SRC, "device"))]) {
    if (rel(file) === "src/tools/ui_session_close.ts") continue;
    assert.doesNotMatch(readFileSync(file, "utf8"), reads, `${rel(file)} reads a session_id or device, or resolves either itself`);
  }
  const gate = readFileSync(join(SRC, "mcp", "run_operation.ts"), "utf8");
  assert.equal([...gate.matchAll(/\.ui\.handle\(/g)].length, 1, "runOperation resolves the device handle once");
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
