/**
 * Page-source reads per act over the compiled `serve` (issue 17): the harness sets UiAutomator2's waitForIdleTimeout
 * at session start, and the simulated device's server answers a page source or a click only once its UI is idle, as
 * UiAutomator2 does; so the read after an act is final and a tap costs two page sources (before and after), also
 * when the screen animates after the tap: the answer is the drawer at rest, settled and changed, with its evidence.
 * Counted from the sim's command log, with the device latency profile on a clock ten times fast.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { startSimDevice } from "../../src/sim/mod.ts";
import { callTool, type Served, serveOn, type Sim } from "../support/act_battery.ts";

const fastClock = { sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms / 10)) };

let shop: Sim;
let served: Served;

before(async () => {
  shop = await startSimDevice({ scenario: "shop", latency: "device", clock: fastClock });
  served = await serveOn({ sim: shop, appiumUrl: shop.appiumUrl });
});

after(async () => {
  await served?.close();
  served?.home.remove();
  await shop?.stop();
});

/** A call and the UiAutomator2 commands it sent, from the sim's log. */
async function counted(name: string, args: Record<string, unknown>) {
  const from = shop.device.log.length;
  const envelope = await callTool(served.server, name, args);
  const uia2 = shop.device.log.slice(from).filter((e) => e.source === "uia2").map((e) => e.command);
  return { envelope, uia2, sources: uia2.filter((c) => c === "get page source").length };
}

test("a tap that slides a drawer in answers the drawer at rest with two page sources, settled, changed, with its evidence", async () => {
  const id = (await callTool(served.server, "ui_session_open")).data["session_id"];
  try {
    const { envelope, sources, uia2 } = await counted("ui_tap", { selector: { content_desc: "Cart" }, session_id: id });
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    assert.equal(shop.device.screenId(), "cart");
    assert.deepEqual([envelope.data["settled"], envelope.data["changed"]], [true, true]);
    assert.equal(sources, 2, `before and after only: ${JSON.stringify(uia2)}`);
    const observed = await callTool(served.server, "ui_get_tree");
    assert.deepEqual(
      { ...(envelope.data["screen"] as object), fingerprint: undefined },
      { ...observed.data, fingerprint: undefined },
      "the answered screen is the one at rest",
    );
    const png = readFileSync(envelope.evidence!.path);
    assert.equal(png.readUInt32BE(16), shop.device.width, "the evidence is a full-size capture");
    assert.deepEqual(new Uint8Array(png), new Uint8Array(shop.device.screenshotPng()), "the evidence shows the drawer at rest");
  } finally {
    await callTool(served.server, "ui_session_close", { session_id: id });
  }
});

test("a tap onto a new screen without animation reads the page source twice", async () => {
  const id = (await callTool(served.server, "ui_session_open")).data["session_id"];
  try {
    await callTool(served.server, "device_back", { session_id: id }); // the drawer closes
    const opened = await counted("ui_tap", { selector: { content_desc: "Account" }, session_id: id });
    assert.equal(opened.envelope.ok, true, JSON.stringify(opened.envelope.error));
    assert.deepEqual([opened.envelope.data["settled"], opened.envelope.data["changed"], opened.sources], [true, true, 2]);
  } finally {
    await callTool(served.server, "ui_session_close", { session_id: id });
  }
});
