/**
 * ANDROID_MCP_ARTIFACTS_DIR is read once, by the configuration: a blank value is unset (evidence goes to
 * ./artifacts in the working directory, never into a directory named by the blanks), and a real value is
 * where the evidence and audit log land.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";

async function screenshotEvidence(env: Record<string, string>, cwd: string): Promise<string> {
  const server = await spawnServe(["--device", "sim"], env, { cwd });
  try {
    const envelope = envelopeOf(await server.client.callTool({ name: "ui_screenshot", arguments: {} }));
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    return envelope.evidence!.path;
  } finally {
    await server.close();
  }
}

test("a blank ANDROID_MCP_ARTIFACTS_DIR counts as unset: evidence goes to ./artifacts", async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const evidence = await screenshotEvidence({ ...home.env, ANDROID_MCP_ARTIFACTS_DIR: "   " }, home.root);
  assert.equal(evidence.startsWith(join(home.root, "artifacts") + "/"), true, evidence);
  assert.ok(existsSync(join(home.root, "artifacts", "audit.jsonl")));
  assert.deepEqual(readdirSync(home.root).filter((name) => name.trim() === ""), [], "no directory named by the blanks");
});

test("ANDROID_MCP_ARTIFACTS_DIR (trimmed, relative to the working directory) receives evidence and audit", async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const evidence = await screenshotEvidence({ ...home.env, ANDROID_MCP_ARTIFACTS_DIR: " ev/out " }, home.root);
  assert.equal(evidence.startsWith(join(home.root, "ev", "out") + "/"), true, evidence);
  assert.ok(existsSync(join(home.root, "ev", "out", "audit.jsonl")));
});
