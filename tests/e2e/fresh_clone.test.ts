/**
 * A new user's first run: the repository cloned (`git clone`, the committed HEAD) into a folder with no
 * `../shared` beside it and no corpus, `npm test` there is green, and the missing corpus is announced
 * in one line instead of ENOENT stack traces. node_modules is a symlink to this checkout's (no network
 * install). It runs a whole second `npm test`, so it runs when ANDROID_MCP_CLONE_TEST=1 (`npm run
 * test:clone`, a step of .ci/run) and is skipped otherwise.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { REPO_ROOT } from "../support/paths.ts";

const skip = process.env["ANDROID_MCP_CLONE_TEST"] === "1"
  ? false
  : "runs a second full npm test in a fresh clone; set ANDROID_MCP_CLONE_TEST=1 (npm run test:clone, run by .ci/run)";
const LIMIT_MS = 15 * 60 * 1000;

test(
  "a fresh clone without ../shared passes npm test, and says once that the corpus is absent",
  { skip, timeout: LIMIT_MS + 60_000 },
  async () => {
    const root = mkdtempSync(join(tmpdir(), "amh-clone-"));
    let restoreAppiumCache = () => {};
    try {
      const clone = join(root, "android-mcp-harness");
      await run("git", ["clone", "--quiet", "--no-hardlinks", REPO_ROOT, clone], root, process.env, 120_000);
      assert.equal(existsSync(join(dirname(clone), "shared")), false);
      assert.equal(existsSync(join(clone, "dist")), false, "a clone starts without build output");
      symlinkSync(realpathSync(join(REPO_ROOT, "node_modules")), join(clone, "node_modules"));
      const env: NodeJS.ProcessEnv = { ...process.env, ANDROID_MCP_CORPUS: join(root, "no-corpus-here") };
      delete env["ANDROID_MCP_CLONE_TEST"]; // the clone's own copy of this test skips
      delete env["ANDROID_MCP_BINARY"];
      delete env["NODE_TEST_CONTEXT"]; // else node's test runner in the clone takes itself for a nested run and runs nothing
      // Appium keeps its extension manifest in node_modules/.cache/appium, which the clone shares through the
      // symlink; run from the clone, it records the clone's paths there, so put this checkout's back afterwards.
      const appiumCache = join(REPO_ROOT, "node_modules", ".cache", "appium");
      const savedCache = join(root, "appium-cache");
      if (existsSync(appiumCache)) cpSync(appiumCache, savedCache, { recursive: true });
      restoreAppiumCache = () => {
        rmSync(appiumCache, { recursive: true, force: true });
        if (existsSync(savedCache)) cpSync(savedCache, appiumCache, { recursive: true });
      };
      const started = Date.now();
      const output = await run("npm", ["test"], clone, env, LIMIT_MS);
      assert.match(output, /^# fail 0$/m);
      process.stderr.write(`fresh clone: npm test passed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
      assert.match(
        output,
        /^run-tests: real-world corpus not found at .*no-corpus-here\/real and .*no-corpus-here\/adb \(set ANDROID_MCP_CORPUS/m,
      );
      assert.doesNotMatch(output, /ENOENT[^\n]*no-corpus-here/, "a test read the absent corpus instead of skipping");
    } finally {
      restoreAppiumCache();
      rmSync(root, { recursive: true, force: true });
    }
  },
);

/** Runs a program to its end within `limitMs`; resolves with stdout+stderr, rejects with them on failure. */
function run(program: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, limitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => void (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => void (output += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL"); // the whole process group: npm, the test runner, what the tests started
      } catch {
        // already gone
      }
      reject(new Error(`${program} ${args.join(" ")} did not finish within ${limitMs / 1000} s:\n${output.slice(-4000)}`));
    }, limitMs);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${program} ${args.join(" ")} exited ${code}:\n${failures(output)}${output.slice(-3000)}`));
    });
  });
}

/** The TAP blocks of the failed tests (name, error, location), first: the tail alone may not show which test failed. */
function failures(output: string): string {
  const blocks: string[] = [];
  const lines = output.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*not ok \d+ - /.test(lines[i]!)) continue;
    const end = lines.findIndex((line, j) => j > i && /^\s*\.\.\.$/.test(line));
    blocks.push(lines.slice(i, end === -1 ? i + 40 : Math.min(end + 1, i + 60)).join("\n"));
  }
  return blocks.length === 0 ? "" : `failed tests:\n${blocks.join("\n").slice(0, 8000)}\n[…]\n`;
}
