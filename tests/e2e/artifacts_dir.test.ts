/**
 * Where `serve` puts evidence, as the user meets it. ANDROID_MCP_ARTIFACTS_DIR is read once, by the
 * configuration: a blank value is unset (the default rule, never a directory named by the blanks), and a
 * real value is where the evidence and audit log land. By default `./artifacts` only in a project (a
 * package.json or .git); started in `/`, the home directory or any other folder, the state directory, said on stderr.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";

async function screenshotEvidence(env: Record<string, string>, cwd: string): Promise<{ path: string; stderr: string }> {
  const server = await spawnServe(["--device", "sim"], env, { cwd });
  try {
    const envelope = envelopeOf(await server.client.callTool({ name: "ui_screenshot", arguments: {} }));
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    return { path: envelope.evidence!.path, stderr: server.stderr() };
  } finally {
    await server.close();
  }
}

/** The environment of a user with no artifacts setting: HOME and XDG_STATE_HOME in the test's folder. */
function unsetEnv(home: ReturnType<typeof makeServeHome>): Record<string, string> {
  const { ANDROID_MCP_ARTIFACTS_DIR: _set, ...env } = home.env;
  return env;
}

test("a blank ANDROID_MCP_ARTIFACTS_DIR counts as unset: in a project, evidence goes to ./artifacts", async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const project = join(home.root, "app");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), "{}");
  const { path, stderr } = await screenshotEvidence({ ...home.env, ANDROID_MCP_ARTIFACTS_DIR: "   " }, project);
  assert.equal(path.startsWith(join(project, "artifacts") + "/"), true, path);
  assert.ok(existsSync(join(project, "artifacts", "audit.jsonl")));
  assert.match(stderr, /artifacts: .*\/app\/artifacts \(\.\/artifacts in the project \(its package\.json\)\)/);
  assert.deepEqual(readdirSync(project).filter((name) => name.trim() === ""), [], "no directory named by the blanks");
});

test("serve started in the home directory creates no artifacts/ there: the state directory, said on stderr", async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const state = join(home.root, "state", "android-mcp-harness", "artifacts");
  // Any other folder that is not a project gets the same (tests/evidence/state_directories.test.ts).
  const { path, stderr } = await screenshotEvidence(unsetEnv(home), home.root);
  assert.equal(path.startsWith(state + "/"), true, path);
  assert.equal(existsSync(join(home.root, "artifacts")), false, "no artifacts/ in the home directory");
  assert.match(stderr, /artifacts: .*state\/android-mcp-harness\/artifacts \(the working directory ".*" is not a project/);
});

test("serve started in / (as an MCP client does) never creates /artifacts", async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const before = existsSync("/artifacts");
  const { path } = await screenshotEvidence(unsetEnv(home), "/");
  assert.equal(path.startsWith(join(home.root, "state", "android-mcp-harness", "artifacts") + "/"), true, path);
  if (!before) assert.equal(existsSync("/artifacts"), false, "/artifacts was created");
});

test("ANDROID_MCP_ARTIFACTS_DIR (trimmed, relative to the working directory) receives evidence and audit", async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const { path: evidence } = await screenshotEvidence({ ...home.env, ANDROID_MCP_ARTIFACTS_DIR: " ev/out " }, home.root);
  assert.equal(evidence.startsWith(join(home.root, "ev", "out") + "/"), true, evidence);
  assert.ok(existsSync(join(home.root, "ev", "out", "audit.jsonl")));
});
