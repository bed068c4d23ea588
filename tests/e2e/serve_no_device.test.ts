/**
 * `serve` without a reachable device still starts and answers every observe call with the envelope
 * EMULATOR_UNAVAILABLE (real adb client, an adb server socket nobody listens on); bad configuration is
 * refused at start-up with exit code 2 and a message naming the variable.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { runCliCaptured } from "../support/cli.ts";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";
import { freePort } from "../support/outcomes.ts";
import { ARGUMENT_FREE_OBSERVE_TOOLS } from "../support/observe_tools.ts";

test("with no adb server reachable, every observe tool answers EMULATOR_UNAVAILABLE", async () => {
  const home = makeServeHome();
  const served = await spawnServe([], { ...home.env, ADB_SERVER_SOCKET: `tcp:127.0.0.1:${await freePort()}` });
  try {
    for (const tool of ARGUMENT_FREE_OBSERVE_TOOLS) {
      const envelope = envelopeOf(await served.client.callTool({ name: tool, arguments: {} }));
      assert.equal(envelope.ok, false, tool);
      assert.equal(envelope.error?.code, "EMULATOR_UNAVAILABLE", `${tool}: ${JSON.stringify(envelope.error)}`);
      assert.equal(envelope.evidence, null);
    }
  } finally {
    await served.close();
    home.remove();
  }
});

test("an invalid ANDROID_MCP_ACTION_TIMEOUT is refused at start-up with exit code 2", async () => {
  const run = await runCliCaptured(["serve"], { env: { ANDROID_MCP_ACTION_TIMEOUT: "soon" } });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /ANDROID_MCP_ACTION_TIMEOUT/);
  assert.match(run.stderr, /"soon"/);
  assert.equal(run.stdout, "");
});
