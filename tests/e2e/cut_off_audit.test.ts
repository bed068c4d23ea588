/**
 * A call that is cut off is audited with what happened (issue 18), over stdio against the compiled `serve`:
 * the client's notifications/cancelled is `cancelled`, stdin EOF or SIGTERM while the call runs is `shutdown`;
 * neither is OPERATION_TIMEOUT, which is kept for ANDROID_MCP_ACTION_TIMEOUT passing.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { startSimDevice } from "../../src/sim/mod.ts";
import { spawnServe } from "../support/mcp_client.ts";
import { makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";
import { LOADED_WAIT_MS } from "../support/time_bounds.ts";

let sim: Awaited<ReturnType<typeof startSimDevice>>;
let home: ServeHome;

before(async () => {
  sim = await startSimDevice({});
  home = makeServeHome();
});

after(async () => {
  await sim?.stop();
  home?.remove();
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

function auditOutcomes(tool: string): string[] {
  const file = join(home.artifacts, "audit.jsonl");
  if (!existsSync(file)) return [];
  // Only whole lines: the harness opens the file (creating it empty) before it writes, and polling reads in between.
  const whole = readFileSync(file, "utf8").split("\n").slice(0, -1);
  return whole.map((line) => JSON.parse(line) as { tool: string; outcome: string })
    .filter((line) => line.tool === tool).map((line) => line.outcome);
}

async function until(check: () => boolean, what: string, ms = LOADED_WAIT_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(sim.device.log.slice(-3))}`);
    await wait(50);
  }
}

/** Starts a screenshot that hangs on the device and resolves once the device saw the screencap. */
async function hangingScreenshot(
  served: Awaited<ReturnType<typeof spawnServe>>,
  signal?: AbortSignal,
): Promise<{ pending: Promise<unknown> }> {
  const seen = sim.device.log.length;
  sim.device.faults.hangCommands = ["screencap"];
  const pending = served.client.callTool({ name: "ui_screenshot", arguments: {} }, undefined, signal === undefined ? {} : { signal }).catch(
    () => null,
  );
  await until(
    () => sim.device.log.length > seen && sim.device.log.slice(-5).some((e) => e.command.includes("screencap")),
    "the screencap to start",
  );
  return { pending }; // wrapped: an async function returning the promise itself would wait for it
}

const serveEnv = () => ({
  ...home.env,
  ADB_SERVER_SOCKET: sim.adbServerSocket,
  ANDROID_UDID: sim.device.serial,
  ANDROID_MCP_ACTION_TIMEOUT: "60",
});

test("a call the client cancels is audited as cancelled", { timeout: 60_000 }, async (t) => {
  const served = await spawnServe([], serveEnv());
  t.after(() => served.close());
  const before = auditOutcomes("ui_screenshot").length;
  const controller = new AbortController();
  const { pending } = await hangingScreenshot(served, controller.signal);
  controller.abort("the agent changed its mind");
  await pending;
  await until(() => auditOutcomes("ui_screenshot").length > before, "the audit line");
  sim.device.faults.hangCommands = [];
  assert.deepEqual(auditOutcomes("ui_screenshot").slice(before), ["cancelled"]);
});

for (const stop of ["stdin EOF", "SIGTERM"] as const) {
  test(`a call cut off by ${stop} is audited as shutdown`, { timeout: 60_000 }, async (t) => {
    const served = await spawnServe([], serveEnv());
    t.after(() => served.close());
    const before = auditOutcomes("ui_screenshot").length;
    await hangingScreenshot(served);
    if (stop === "SIGTERM") process.kill(served.pid!, "SIGTERM");
    else await served.client.close(); // closes the server's stdin
    await until(() => auditOutcomes("ui_screenshot").length > before, "the audit line");
    sim.device.faults.hangCommands = [];
    assert.deepEqual(auditOutcomes("ui_screenshot").slice(before), ["shutdown"]);
  });
}
