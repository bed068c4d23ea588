/**
 * The cover promise (R42) as an agent meets it over real stdio on `serve --device sim --scenario shop`, where
 * act answers come from the simulated UiAutomator2 server's page source (not the adb dump ui_get_tree reads):
 * the answer that opens the filter sheet already says which rows lie under it, and a tap on such a row is
 * refused without touching the sheet's option drawn over it. Real Appium page sources carry `drawing-order`
 * (../shared/fixtures/real/*-appium.xml), which the occlusion rule needs.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { envelopeOf, type SpawnedServer, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";

interface Action {
  selector: Record<string, unknown>;
  checked?: true;
  covered_by?: string;
}

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

const call = async (name: string, args: Record<string, unknown>) => envelopeOf(await served.client.callTool({ name, arguments: args }));
const actionsOf = (data: Record<string, unknown>, key = "screen") => ((key === "" ? data : data[key]) as { actions: Action[] }).actions;

test("the act answer that opens the sheet says the rows under it covered, as ui_get_tree does; a tap on one is refused", async () => {
  const opened = await call("ui_tap", { selector: { resource_id: "action_filters" } });
  assert.equal(opened.ok, true, JSON.stringify(opened.error));
  const said = actionsOf(opened.data).find((a) => a.selector["text"] === "Running shorts");
  assert.equal(said?.covered_by, "Size", `the act's new summary says the row is under the sheet: ${JSON.stringify(said)}`);
  const read = actionsOf((await call("ui_get_tree", {})).data, "").find((a) => a.selector["text"] === "Running shorts");
  assert.equal(read?.covered_by, said?.covered_by, "ui_get_tree and the act's answer agree");

  const tapped = await call("ui_tap", { selector: { text: "Running shorts" } });
  assert.equal(tapped.ok, false, `a covered row is not tapped: ${JSON.stringify(tapped.data)}`);
  assert.equal(tapped.error?.code, "UI_ELEMENT_NOT_FOUND");
  assert.match(tapped.error!.message, /is covered where a tap lands .* by 'Size'/);
  const size = actionsOf((await call("ui_get_tree", {})).data, "").find((a) => a.selector["text"] === "Size");
  assert.equal(size?.checked, undefined, "the sheet's option drawn over the row was not checked");
});
