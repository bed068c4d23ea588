/**
 * The end-to-end battery of issue 16's hands: one scripted task per capability on the simulated 'shop' app,
 * over real stdio, in one UI session, through a given Appium endpoint (the simulated device's own
 * UiAutomator2 server, or the real Appium 3.8 + UiAutomator2 8.7 in front of it). Each task arrives where it
 * says (the device's screen, what the answered summary shows) and leaves a PNG on disk. The test files run
 * each task as their own test, in this order (app_clear, which signs the user out, last); plus the promise
 * that an `index` offered from a uiautomator dump names the same element in the session's page source.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { startSimDevice } from "../../src/sim/mod.ts";
import { callTool, type Served, serveOn, type Sim } from "./act_battery.ts";

const SHOP = "com.example.shop";
const id = (name: string) => `${SHOP}:id/${name}`;

export interface ShopRun {
  sim: Sim;
  served: Served;
  sessionId: string;
  /** A call in the run's UI session (acts), or beside it (observe tools). */
  call(name: string, args?: Record<string, unknown>): Promise<Envelope>;
  close(): Promise<void>;
}

type Envelope = Awaited<ReturnType<typeof callTool>>;

interface Summary {
  foreground_package: string;
  texts: string[];
  actions: { selector: Record<string, unknown>; label?: string }[];
  scroll_areas?: { selector: Record<string, unknown>; axis?: "horizontal"; label?: string }[];
}

/** A simulated shop device, a `serve` on it through `appiumUrlOf(sim)`, and one UI session on the shop. */
export async function startShop(appiumUrlOf: (sim: Sim) => string | null): Promise<ShopRun> {
  const sim = await startSimDevice({ scenario: "shop" });
  const served = await serveOn({ sim, appiumUrl: appiumUrlOf(sim) });
  const opened = await callTool(served.server, "ui_session_open", { package: SHOP });
  assert.equal(opened.ok, true, JSON.stringify(opened.error));
  const sessionId = opened.data["session_id"] as string;
  const observe = new Set(["ui_get_tree", "ui_wait", "ui_screenshot", "device_status", "app_list"]);
  return {
    sim,
    served,
    sessionId,
    call: (name, args = {}) => callTool(served.server, name, observe.has(name) ? args : { ...args, session_id: sessionId }),
    async close() {
      await callTool(served.server, "ui_session_close", { session_id: sessionId }).catch(() => undefined);
      await served.close();
      served.home.remove();
      await sim.stop();
    },
  };
}

/**
 * The act succeeded, its evidence is a PNG on disk in the server's artifacts, and its summary is answered. The PNG is
 * taken behind the answer: reading its `artifact://` resource waits for it (docs/contract.md, act fields).
 */
async function arrived(run: ShopRun, envelope: Envelope, what: string): Promise<Summary> {
  assert.equal(envelope.ok, true, `${what}: ${JSON.stringify(envelope.error)}`);
  assert.ok(envelope.evidence !== null, `${what}: evidence`);
  const read = await run.served.server.client.readResource({ uri: envelope.evidence.uri });
  assert.equal(read.contents[0]?.mimeType, "image/png", `${what}: served as a PNG`);
  const path = envelope.evidence.path;
  assert.ok(path.startsWith(run.served.home.artifacts) && existsSync(path), `${what}: the PNG is on disk`);
  assert.equal(readFileSync(envelope.evidence.path).subarray(1, 4).toString(), "PNG", `${what}: a PNG`);
  return (envelope.data["screen"] ?? envelope.data) as Summary;
}

const says = (summary: Summary, text: string) =>
  summary.texts.includes(text) || summary.actions.some((a) => a.label === text || Object.values(a.selector).includes(text));

/** Back to the shop's first screen, the app started afresh (app_launch restart). */
async function freshShop(run: ShopRun): Promise<Summary> {
  const launched = await run.call("app_launch", { package: SHOP, restart: true });
  const screen = await arrived(run, launched, "app_launch restart");
  assert.equal(run.sim.device.screenId(), "shop_home");
  return screen;
}

export interface HandTask {
  name: string;
  run(run: ShopRun): Promise<void>;
}

export const HAND_TASKS: HandTask[] = [
  {
    name: "search with submit shows results (they come only on the keyboard's search action)",
    async run(run) {
      await freshShop(run);
      await arrived(run, await run.call("ui_tap", { selector: { content_desc: "Search" } }), "open search");
      const typed = await run.call("ui_type_text", { selector: { resource_id: id("search_field") }, text: "boots", submit: "search" });
      const screen = await arrived(run, typed, "type and submit");
      assert.equal(run.sim.device.screenId(), "search_results");
      assert.ok(says(screen, "1 result") && says(screen, "Hiking boots"), JSON.stringify(screen.texts));
    },
  },
  {
    name: "long press opens the product's menu",
    async run(run) {
      await freshShop(run);
      const pressed = await run.call("ui_tap", { selector: { text: "Canvas sneakers" }, gesture: "long_press" });
      const screen = await arrived(run, pressed, "long press");
      assert.equal(pressed.data["gesture"], "long_press");
      assert.equal(run.sim.device.screenId(), "product_menu");
      assert.ok(says(screen, "Add to wishlist") && says(screen, "Share"), JSON.stringify(screen.actions));
    },
  },
  {
    name: "the chip row scrolls sideways, named as the summary offers it",
    async run(run) {
      const home = await freshShop(run);
      const row = home.scroll_areas?.find((area) => area.axis === "horizontal");
      assert.ok(row !== undefined, `the summary lists the sideways chip row: ${JSON.stringify(home.scroll_areas)}`);
      assert.equal(says(home, "Sale"), false, "the last chip starts off screen");
      const scrolled = await run.call("ui_scroll", { direction: "right", container: row.selector });
      const screen = await arrived(run, scrolled, "scroll right");
      assert.equal(scrolled.data["scrolled"], true);
      assert.equal(run.sim.device.screenId(), "shop_home_chips");
      assert.ok(says(screen, "Sale"), JSON.stringify(screen.actions));
      assert.ok(says(screen, "Canvas sneakers"), "the page did not move");
      // Back, and the same row again without naming it: left/right take the largest sideways area, not the page.
      await arrived(run, await run.call("ui_scroll", { direction: "left" }), "scroll left, no container");
      assert.equal(run.sim.device.screenId(), "shop_home");
      const found = await run.call("ui_scroll", { direction: "right", until: { text: "Sale" } });
      await arrived(run, found, "scroll right until Sale, no container");
      assert.deepEqual(found.data["found"], { text: "Sale" });
      assert.equal(run.sim.device.screenId(), "shop_home_chips");
    },
  },
  {
    name: "the filter sheet's list scrolls while the page behind it does not",
    async run(run) {
      await freshShop(run);
      const sheet = await arrived(run, await run.call("ui_tap", { selector: { content_desc: "Filters" } }), "open filters");
      const list = sheet.scroll_areas?.find((area) => JSON.stringify(area.selector).includes("sheet_list"));
      assert.ok(list !== undefined, `the summary lists the sheet's own list: ${JSON.stringify(sheet.scroll_areas)}`);
      assert.equal(says(sheet, "Discount"), false);
      const scrolled = await run.call("ui_scroll", { direction: "down", container: list.selector });
      const screen = await arrived(run, scrolled, "scroll the sheet");
      assert.equal(run.sim.device.screenId(), "filters_sheet_2");
      assert.ok(says(screen, "Discount"), "the sheet's list moved");
      assert.ok(says(screen, "Canvas sneakers"), "the page behind kept its first product");
    },
  },
  {
    name: "scroll until finds a product that starts off screen, in one call",
    async run(run) {
      const home = await freshShop(run);
      assert.equal(says(home, "Daypack"), false);
      const scrolled = await run.call("ui_scroll", { direction: "down", until: { text: "Daypack" } });
      const screen = await arrived(run, scrolled, "scroll until");
      assert.deepEqual(scrolled.data["found"], { text: "Daypack" });
      assert.ok((scrolled.data["swipes"] as number) >= 2, `it took several pages: ${scrolled.data["swipes"]}`);
      assert.equal(run.sim.device.screenId(), "shop_home_3");
      assert.ok(says(screen, "Daypack"));
    },
  },
  {
    name: "home shows the launcher",
    async run(run) {
      await freshShop(run);
      const pressed = await run.call("device_press", { key: "home" });
      const screen = await arrived(run, pressed, "home");
      assert.equal(screen.foreground_package, "com.google.android.apps.nexuslauncher");
      assert.equal(run.sim.device.screenId(), "launcher");
      assert.ok(says(screen, "Shop"));
    },
  },
  {
    name: "ui_wait returns when the late order confirmation appears, and fails typed when what it waits for never comes",
    async run(run) {
      await arrived(run, await run.call("app_open_url", { url: "https://shop.example/checkout" }), "open the checkout");
      const placing = await arrived(run, await run.call("ui_tap", { selector: { text: "Place order" } }), "place the order");
      assert.ok(says(placing, "Placing your order") && !says(placing, "Order confirmed"), "the confirmation comes later");
      const waited = await run.call("ui_wait", { visible: { text: "Order confirmed" }, timeout_ms: 10_000 });
      assert.equal(waited.ok, true, JSON.stringify(waited.error));
      assert.equal(run.sim.device.screenId(), "order_placed");
      assert.ok(says(waited.data["screen"] as Summary, "Order confirmed"));
      const missed = await run.call("ui_wait", { visible: { text: "Order shipped" }, timeout_ms: 1000 });
      assert.equal(missed.error?.code, "UI_ELEMENT_NOT_FOUND");
      assert.match(missed.error!.message, /No visible element matched \{"text":"Order shipped"\} within \d+ ms\. The screen offers: /);
      assert.ok(missed.evidence !== null && existsSync(missed.evidence.path), "a screenshot of the moment it gave up");
    },
  },
  {
    name: "the deep link opens its product page",
    async run(run) {
      const opened = await run.call("app_open_url", { url: "shop://product/42" });
      const screen = await arrived(run, opened, "deep link");
      assert.equal(run.sim.device.screenId(), "product_42");
      assert.equal(screen.foreground_package, SHOP);
      assert.ok(says(screen, "Canvas sneakers") && says(screen, "Add to cart"));
    },
  },
  {
    name: "app_clear signs the user out (the next launch shows the sign-in form)",
    async run(run) {
      await freshShop(run);
      await arrived(run, await run.call("app_clear", { package: SHOP }), "app_clear");
      const launched = await run.call("app_launch", { package: SHOP });
      const screen = await arrived(run, launched, "launch after clear");
      assert.equal(run.sim.device.screenId(), "shop_login");
      assert.ok(says(screen, "Sign in"), JSON.stringify(screen));
    },
  },
];

/**
 * An `index` offered from a `uiautomator dump` (ui_get_tree with no session: adb) names the same element
 * in the session's page source: on the Flutter screen whose nameless button is offered as {"role":"button","index":2},
 * the summaries of both sources agree, and a tap with that selector in the session finds its element
 * (the act checks the session element's rectangle against the node's).
 */
export async function dumpIndexNamesTheSessionElement(appiumUrlOf: (sim: Sim) => string | null): Promise<void> {
  const sim = await startSimDevice({ scenario: "flutter" });
  const served = await serveOn({ sim, appiumUrl: appiumUrlOf(sim) });
  try {
    const fromDump = await callTool(served.server, "ui_get_tree");
    assert.equal(fromDump.ok, true, JSON.stringify(fromDump.error));
    const dumped = fromDump.data as unknown as Summary & { actions: { selector: Record<string, unknown>; bounds: number[] }[] };
    const indexed = dumped.actions.filter((a) => a.selector["index"] !== undefined);
    assert.ok(indexed.length > 0, `the dump's summary offers an index: ${JSON.stringify(dumped.actions)}`);
    const opened = await callTool(served.server, "ui_session_open", {});
    assert.equal(opened.ok, true, JSON.stringify(opened.error));
    const sessionId = opened.data["session_id"] as string;
    const fromSource = await callTool(served.server, "ui_get_tree");
    assert.equal(fromSource.ok, true, JSON.stringify(fromSource.error));
    assert.deepEqual(fromSource.data, fromDump.data, "the page source's summary numbers every element as the dump's does");
    for (const action of indexed) {
      const tapped = await callTool(served.server, "ui_tap", { selector: action.selector, session_id: sessionId });
      assert.equal(tapped.ok, true, `${JSON.stringify(action.selector)}: ${JSON.stringify(tapped.error)}`);
      assert.deepEqual(tapped.data["target"], action.selector);
    }
    await callTool(served.server, "ui_session_close", { session_id: sessionId });
  } finally {
    await served.close();
    served.home.remove();
    await sim.stop();
  }
}
