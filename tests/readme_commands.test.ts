/**
 * The README cannot rot: every line of its shell blocks is either run here (the fast, safe ones, with a
 * private home and artifacts directory) or made of commands that .ci/run runs (or, needing a real emulator,
 * that .github/workflows/device.yml runs), and every JSON client
 * configuration, its placeholder path replaced by the harness (the single executable when
 * ANDROID_MCP_BINARY names it, else this build), starts from another directory and answers tools/list.
 * A README command with no check below, or a check whose command left the README, fails the test.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AVAILABLE_TOOL_NAMES } from "../contracts/tools.ts";
import { harnessCommand } from "./support/mcp_client.ts";
import { killQuietly } from "./support/mcp_e2e.ts";
import { REPO_ROOT } from "./support/paths.ts";

/** The README's stand-in for "where you put the executable". */
const PLACEHOLDER = "/ABSOLUTE/PATH/android-mcp-harness";
/** The MCP Inspector as the README runs it: by the package that provides it, pinned (the devDependency's version). */
const INSPECTOR = "npx -y @modelcontextprotocol/inspector@0.15.0 --cli";

/** The user's npm cache (the private HOME of a check has none): where `npm ci` left the Inspector's packages. */
function npmCache(): string {
  return process.env["npm_config_cache"] ?? join(process.env["HOME"] ?? tmpdir(), ".npm");
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

type Check =
  | { by: "ci" } // every `&&` part of the line is a command .ci/run runs
  | { by: "device" } // needs a real emulator (KVM): the device workflow runs it (.github/workflows/device.yml)
  | {
    by: "run";
    expect(outcome: Outcome, home: string): void | Promise<void>;
    env?: (home: string) => Record<string, string>;
    /** How long the line may run (default 60 s). */
    timeoutMs?: number;
  };

const serving = (o: Outcome) => {
  assert.equal(o.code, 0, o.stderr);
  assert.match(o.stderr, /serving MCP on stdio/);
  assert.equal(o.stdout, "", "nothing but protocol on stdout, and no client spoke");
};

const CHECKS: Record<string, Check> = {
  "npm ci && npm run build && npx android-mcp-harness serve --device sim": { by: "ci" },
  "npm ci && npm test": { by: "ci" },
  [`${INSPECTOR} node dist/src/main.js serve --device sim --method tools/call --tool-name ui_get_tree`]: {
    by: "run",
    expect: (o) => {
      assert.equal(o.code, 0, o.stderr);
      const result = JSON.parse(o.stdout) as { structuredContent: { ok: boolean; tool: string } };
      assert.deepEqual([result.structuredContent.ok, result.structuredContent.tool], [true, "ui_get_tree"]);
    },
  },
  "npm run build:bin": { by: "ci" },
  "dist/android-mcp-harness --version": { by: "ci" },
  "npm run build:bin:all": { by: "ci" },
  "npm install -g .": {
    by: "run",
    env: (home) => ({ npm_config_prefix: join(home, "global") }),
    expect: async (o, home) => {
      assert.equal(o.code, 0, o.stderr);
      const installed = await capture(join(home, "global", "bin", "android-mcp-harness"), ["--version"], {
        cwd: "/",
        env: privateEnv(home),
      });
      assert.equal(installed.code, 0, installed.stderr);
      assert.match(installed.stdout, /^android-mcp-harness\/\d+\.\d+\.\d+ \(node /);
    },
  },
  [`claude mcp add android --scope user -- ${PLACEHOLDER} serve`]: { by: "run", expect: serving },
  [`cd / && ${PLACEHOLDER} --version`]: {
    by: "run",
    expect: (o) => {
      assert.equal(o.code, 0, o.stderr);
      assert.match(o.stdout, /^android-mcp-harness\/\d+\.\d+\.\d+ \(/);
    },
  },
  // From `/`, npx fetches the pinned Inspector (the npm cache first): no name is left for the registry to guess.
  [`cd / && ${INSPECTOR} ${PLACEHOLDER} serve --device sim --method tools/list`]: {
    by: "run",
    env: () => ({ npm_config_cache: npmCache(), npm_config_prefer_offline: "true" }),
    timeoutMs: 240_000,
    expect: (o) => {
      assert.equal(o.code, 0, o.stderr);
      const { tools } = JSON.parse(o.stdout) as { tools: { name: string }[] };
      assert.deepEqual(tools.map((t) => t.name), AVAILABLE_TOOL_NAMES);
    },
  },
  [`cd / && ${PLACEHOLDER} doctor`]: {
    by: "run",
    expect: (o) => {
      assert.ok(o.code === 0 || o.code === 1, `exit ${o.code}: ${o.stderr}`);
      assert.equal(o.stdout.match(/^\[(ok {2}|MISS)\] /gm)?.length, 8, o.stdout);
      assert.match(o.stdout, /^\d of 8 checks block a real campaign/m);
    },
  },
  "npm run build": { by: "ci" },
  "npm test": { by: "ci" },
  "npm run test:slow": { by: "ci" },
  "npm run typecheck": { by: "ci" },
  "npm run test:deno": { by: "ci" },
  "npm run test:bin": { by: "ci" },
  "npm run test:clone": { by: "ci" },
  "npm run bench": { by: "ci" },
  "npm run campaign": { by: "ci" },
  "npm run test:device": { by: "device" },
  "deno task start --help": {
    by: "run",
    env: () => ({ PATH: `${join(REPO_ROOT, "node_modules", ".bin")}:${process.env["PATH"] ?? ""}` }), // deno on PATH: this checkout's
    expect: (o) => {
      assert.equal(o.code, 0, o.stderr);
      assert.match(o.stdout, /^Usage:/m);
    },
  },
};

const README = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
const CI_SCRIPT = readFileSync(join(REPO_ROOT, ".ci", "run"), "utf8");
const DEVICE_WORKFLOW = readFileSync(join(REPO_ROOT, ".github", "workflows", "device.yml"), "utf8");

/** The command lines of the README's ```sh blocks, comments removed. */
function readmeCommands(): string[] {
  const lines: string[] = [];
  for (const block of README.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of block[1]!.split("\n")) {
      const line = raw.replace(/\s+#\s.*$/, "").trim();
      if (line !== "") lines.push(line.replace(/\s+/g, " "));
    }
  }
  return lines;
}

/** The harness the README's placeholder stands for: the single executable under test, else this build. */
function harness(): string[] {
  const binary = process.env["ANDROID_MCP_BINARY"]?.trim();
  return binary ? [resolve(binary)] : harnessCommand();
}

/** An adb server address nobody listens on: serve's start-up check must not start a real adb daemon on
 * this machine's default port 5037 (adb refuses to start one for an explicit socket). */
const NO_ADB_SERVER = { ADB_SERVER_SOCKET: "tcp:127.0.0.1:9" };

function privateEnv(home: string): Record<string, string> {
  return {
    ...NO_ADB_SERVER,
    PATH: process.env["PATH"] ?? "",
    HOME: home,
    XDG_STATE_HOME: join(home, "state"),
    ANDROID_MCP_ARTIFACTS_DIR: join(home, "artifacts"),
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  };
}

function capture(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
  timeoutMs = 60_000,
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => void (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => void (stderr += c.toString("utf8")));
    const timer = setTimeout(() => {
      killQuietly(child.pid);
      reject(new Error(`${command} ${args.join(" ")} did not end within ${timeoutMs / 1000} s:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const shellQuote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

test("every command in the README has a check, and every check's command is in the README", () => {
  const commands = readmeCommands();
  assert.deepEqual(commands.filter((c) => !(c in CHECKS)), [], "README commands without a check in tests/readme_commands.test.ts");
  assert.deepEqual(Object.keys(CHECKS).filter((c) => !commands.includes(c)), [], "checks whose command is no longer in the README");
});

test("the README commands left to CI are commands .ci/run runs", () => {
  for (const [line, check] of Object.entries(CHECKS)) {
    if (check.by !== "ci") continue;
    for (const part of line.split(" && ")) {
      const command = part.trim();
      assert.ok(
        CI_SCRIPT.split("\n").some((l) =>
          !l.trim().startsWith("#") && new RegExp(`(^|[\\s;&|(])${command.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s|;|$)`).test(l)
        ),
        `.ci/run does not run "${command}" (README: ${line})`,
      );
    }
  }
});

test("the README commands that need a real emulator are what the device workflow runs", () => {
  for (const [line, check] of Object.entries(CHECKS)) {
    if (check.by === "device") {
      assert.ok(DEVICE_WORKFLOW.split("\n").some((l) => l.trim().endsWith(line)), `device.yml does not run "${line}"`);
    }
  }
});

for (const [line, check] of Object.entries(CHECKS)) {
  if (check.by !== "run") continue;
  test(`README: ${line}`, { timeout: (check.timeoutMs ?? 60_000) + 30_000 }, async () => {
    const home = mkdtempSync(join(tmpdir(), "amh-readme-"));
    try {
      // `claude mcp add … -- COMMAND`: claude is not here; what it would start is the part after `--`.
      const shellLine = (line.includes(" -- ") ? line.slice(line.indexOf(" -- ") + 4) : line)
        .replaceAll(PLACEHOLDER, harness().map(shellQuote).join(" "));
      const env = { ...privateEnv(home), ...check.env?.(home) };
      const outcome = await capture("sh", ["-c", shellLine], { cwd: REPO_ROOT, env }, check.timeoutMs);
      await check.expect(outcome, home);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
}

test("every JSON client configuration in the README starts the harness from another directory and lists the tools", async () => {
  const blocks = [...README.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!);
  assert.ok(blocks.length >= 3, "Claude Desktop, Cursor and VS Code configurations");
  for (const block of blocks) {
    const config = JSON.parse(block) as { mcpServers?: Record<string, ServerEntry>; servers?: Record<string, ServerEntry> };
    const servers = config.mcpServers ?? config.servers;
    assert.ok(servers !== undefined, `neither mcpServers nor servers in ${block}`);
    for (const entry of Object.values(servers)) {
      if (config.servers !== undefined) assert.equal(entry.type, "stdio", "VS Code needs type: stdio");
      assert.equal(entry.command, PLACEHOLDER);
      const [command, ...prefix] = harness();
      const home = mkdtempSync(join(tmpdir(), "amh-readme-client-"));
      const transport = new StdioClientTransport({
        command: command!,
        args: [...prefix, ...entry.args],
        cwd: home,
        env: { PATH: process.env["PATH"] ?? "", HOME: home, ...NO_ADB_SERVER },
        stderr: "pipe",
      });
      const client = new Client({ name: "readme-config", version: "0" });
      try {
        await client.connect(transport);
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name), AVAILABLE_TOOL_NAMES);
      } finally {
        await client.close().catch(() => {});
        killQuietly(transport.pid);
        rmSync(home, { recursive: true, force: true });
      }
    }
  }
});

interface ServerEntry {
  type?: string;
  command: string;
  args: string[];
}

test("the README's Inspector is the package's own name at the devDependency's version, never a bare bin name", () => {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  assert.equal(INSPECTOR, `npx -y @modelcontextprotocol/inspector@${manifest.devDependencies["@modelcontextprotocol/inspector"]} --cli`);
  assert.deepEqual(readmeCommands().filter((line) => /(^|\s)npx (-y )?mcp-inspector\b/.test(line)), []);
});
