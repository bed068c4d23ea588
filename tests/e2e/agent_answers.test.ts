/**
 * What an agent reads, where it had to guess (issue 27), through `serve --device sim --scenario shop` over real
 * stdio: a scroll at the end of a list that moved nothing says so (`scrolled: false` beside `at_end: true`), and a
 * selector sent as a string is answered with the object to send.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { envelopeOf, type SpawnedServer, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";

let home: ServeHome;
let served: SpawnedServer;

before(async () => {
  home = makeServeHome();
  served = await spawnServe(["--device", "sim", "--scenario", "shop"], home.env);
});

after(async () => {
  await served?.close();
  home?.remove();
});

const call = async (name: string, args: Record<string, unknown> = {}) =>
  envelopeOf(await served.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }));

test("ui_scroll at the end of a list that moved nothing answers scrolled: false beside at_end: true and changed: false", async () => {
  let last: Awaited<ReturnType<typeof call>> | undefined;
  for (let i = 0; i < 6 && last?.data["at_end"] !== true; i++) {
    last = await call("ui_scroll", { direction: "down" });
    assert.equal(last.ok, true, JSON.stringify(last.error));
  }
  assert.equal(last?.data["at_end"], true, "the product list has an end");
  const again = await call("ui_scroll", { direction: "down" });
  assert.equal(again.ok, true, JSON.stringify(again.error));
  assert.deepEqual([again.data["scrolled"], again.data["at_end"], again.data["changed"]], [false, true, false], JSON.stringify(again.data));
  const back = await call("ui_scroll", { direction: "up" });
  assert.deepEqual([back.data["scrolled"], back.data["changed"]], [true, true], "it still scrolls back");
});

test("a selector sent as a string is INVALID_SELECTOR with the object to send", async () => {
  const tapped = await call("ui_tap", { selector: "Rain jacket" });
  assert.equal(tapped.error?.code, "INVALID_SELECTOR");
  assert.match(tapped.error!.message, /not a string: send \{"text":"Rain jacket"\}/);
});
