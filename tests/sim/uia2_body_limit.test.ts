/**
 * The simulated UiAutomator2 server bounds what it reads of a request: a body past MAX_REQUEST_BYTES is
 * answered with a W3C "invalid argument" naming the limit (read and dropped, never held), and the server
 * keeps answering. Before, the body was gathered whole and a 540 MB one crashed the sim (ERR_STRING_TOO_LONG).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_REQUEST_BYTES, startUia2Server } from "../../src/sim/uia2/server.ts";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { demoScenario } from "../fixtures/uia2_demo_scenario.ts";

test("a request body over the limit gets a W3C invalid argument naming the limit, and the server still answers", async () => {
  const server = await startUia2Server(new ScenarioDevice(resolveScenario(demoScenario())), {});
  try {
    const body = `{"script":"mobile: deepLink","args":[{"url":"${"x".repeat(MAX_REQUEST_BYTES)}"}]}`;
    const res = await fetch(`${server.url}/session`, { method: "POST", headers: { "content-type": "application/json" }, body });
    const json = await res.json() as { value: { error: string; message: string } };
    assert.equal(res.status, 400);
    assert.equal(json.value.error, "invalid argument");
    assert.match(json.value.message, /larger than/);
    const status = await fetch(`${server.url}/status`);
    assert.equal(status.status, 200);
    await status.arrayBuffer();
    // A body at the limit is still read (here: not JSON, said as such).
    const atLimit = await fetch(`${server.url}/session`, { method: "POST", body: "y".repeat(MAX_REQUEST_BYTES) });
    assert.match(((await atLimit.json()) as { value: { message: string } }).value.message, /not valid JSON/);
  } finally {
    await server.stop();
  }
});
