/**
 * The MCP Inspector CLI (pinned @modelcontextprotocol/inspector 0.15.0), an independent client, spawns
 * `main.js serve --device sim`, lists the catalog and calls ui_get_tree. It exits 0 even on tool errors,
 * so the assertions read its JSON output. The inspector is killed by its PID if it outlives the test.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import type { ToolName } from "../../contracts/tools.ts";
import { AVAILABLE_TOOL_NAMES, TOOL_CONTRACT_BY_NAME } from "../../contracts/tools.ts";
import { harnessCommand } from "../support/mcp_client.ts";
import { exitWithin, killQuietly, makeServeHome } from "../support/mcp_e2e.ts";
import { REPO_ROOT } from "../support/paths.ts";

const INSPECTOR = `${REPO_ROOT}/node_modules/.bin/mcp-inspector`;
const skip = existsSync(INSPECTOR) ? false : `MCP Inspector not installed at ${INSPECTOR} (npm ci installs the pinned 0.15.0)`;

async function inspect(method: string[]): Promise<{ code: number | null; json: unknown; stderr: string }> {
  const home = makeServeHome();
  const env = Object.entries(home.env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  const child = spawn(INSPECTOR, ["--cli", ...env, ...harnessCommand(), "serve", "--device", "sim", ...method], {
    env: { ...process.env, ...home.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c: Buffer) => void (stdout += c.toString()));
  child.stderr!.on("data", (c: Buffer) => void (stderr += c.toString()));
  try {
    const code = await exitWithin(child, 30_000);
    let json: unknown;
    try {
      json = JSON.parse(stdout);
    } catch {
      throw new Error(`Inspector printed no JSON (exit ${code}):\n${stdout}\n${stderr}`);
    }
    return { code, json, stderr };
  } finally {
    killQuietly(child.pid);
    home.remove();
  }
}

test("the Inspector CLI lists exactly the available catalog", { skip }, async () => {
  const { code, json } = await inspect(["--method", "tools/list"]);
  assert.equal(code, 0);
  const tools = (json as { tools: { name: string; annotations: Record<string, boolean> }[] }).tools;
  assert.deepEqual(tools.map((t) => t.name), AVAILABLE_TOOL_NAMES);
  for (const tool of tools) {
    assert.equal(tool.annotations["readOnlyHint"], TOOL_CONTRACT_BY_NAME[tool.name as ToolName].annotations.readOnlyHint, tool.name);
  }
});

test("the Inspector CLI calls ui_get_tree and gets a successful envelope with a summary", { skip }, async () => {
  const { code, json } = await inspect(["--method", "tools/call", "--tool-name", "ui_get_tree"]);
  assert.equal(code, 0);
  const result = json as { isError?: boolean; structuredContent: { ok: boolean; tool: string; data: { actions: unknown[] } } };
  assert.equal(result.isError, false);
  assert.equal(result.structuredContent.ok, true);
  assert.equal(result.structuredContent.tool, "ui_get_tree");
  assert.ok(result.structuredContent.data.actions.length > 0);
});
