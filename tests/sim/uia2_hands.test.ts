/**
 * The sim's new hands as a client sees them through real webdriverio: the `mobile:` methods' parameter
 * checks answer as Appium does (W3C `invalid argument` naming what is missing or wrong), and the engine
 * behind them: timed screens on the device's own clock (a late result, an animation), password fields
 * dumped as bullets, the recents and the shade closed by BACK / HOME.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type Browser, withScenarioBrowser } from "../support/uia2_browser.ts";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { failure } from "../support/outcomes.ts";

function withShop(fn: (b: Browser, device: ScenarioDevice) => Promise<void>): Promise<void> {
  return withScenarioBrowser("shop", { waitforTimeout: 0 }, fn);
}

/** A node's attributes from the device's dump, by resource-id or text. */
function nodeOf(device: ScenarioDevice, attr: "resource-id" | "text" | "content-desc", value: string): Record<string, string> {
  const tag = device.hierarchyXml().match(new RegExp(`<node [^>]*${attr}="${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"[^>]*>`))?.[0];
  assert.ok(tag !== undefined, `a node with ${attr}="${value}"`);
  return Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

test("mobile: methods check their parameters as Appium does: missing, wrong direction, unknown action or key", async () => {
  await withShop(async (b, device) => {
    const chips = await b.$("id=com.example.shop:id/chips");
    const missing = await failure(b.executeScript("mobile: scrollGesture", [{ elementId: chips.elementId, direction: "right" }]));
    assert.match(missing.message, /The following required parameter is missing: \["percent"\]/);
    const diagonal = await failure(
      b.executeScript("mobile: scrollGesture", [{ elementId: chips.elementId, direction: "diagonal", percent: 0.5 }]),
    );
    assert.match(diagonal.message, /direction "diagonal" is not supported/);
    const nowhere = await failure(b.executeScript("mobile: scrollGesture", [{ direction: "down", percent: 0.5 }]));
    assert.match(nowhere.message, /needs an element or an area/);
    const action = await failure(b.executeScript("mobile: performEditorAction", [{ action: "launch" }]));
    assert.match(action.message, /editor action "launch" is unknown/);
    const key = await failure(b.executeScript("mobile: pressKey", [{ keycode: "home" }]));
    assert.match(key.message, /'keycode' must be an Android key code/);
    const url = await failure(b.executeScript("mobile: deepLink", [{}]));
    assert.match(url.message, /missing: \["url"\]/);
    assert.equal(device.screenId(), "shop_home", "no refused call changed the screen");
  });
});

test("a deep link nothing handles answers the driver's error with AOSP's 'unable to resolve Intent' text", async () => {
  await withShop(async (b) => {
    const error = await failure(b.executeScript("mobile: deepLink", [{ url: "nothing://here/1?q=secret#frag" }]));
    assert.match(error.message, /Error attempting to start URI/);
    // Uri.toSafeString keeps a custom scheme's scheme-specific part, the query with it; only the fragment goes.
    assert.match(
      error.message,
      /unable to resolve Intent \{ act=android\.intent\.action\.VIEW dat=nothing:\/\/here\/1\?q=secret flg=0x10000000 \}/,
    );
    assert.doesNotMatch(error.message, /frag/, "the fragment is not printed");
  });
});

test("swipeGesture moves the finger: a swipe left on the chips shows the chips on the right", async () => {
  await withShop(async (b, device) => {
    const chips = await b.$("id=com.example.shop:id/chips");
    await b.executeScript("mobile: swipeGesture", [{ elementId: chips.elementId, direction: "left", percent: 0.8 }]);
    assert.equal(device.screenId(), "shop_home_chips");
    // By area (no element): the scrollable under the area's centre, here the product list.
    await b.executeScript("mobile: scrollGesture", [{ left: 100, top: 900, width: 800, height: 800, direction: "down", percent: 1 }]);
    assert.equal(device.screenId(), "shop_home_2");
  });
});

test("long and double click also take a point, as the driver allows; the node drawn there receives them", async () => {
  await withShop(async (b, device) => {
    const title = nodeOf(device, "text", "Wool beanie");
    const [, l, t, r, bottom] = /\[(\d+),(\d+)\]\[(\d+),(\d+)\]/.exec(title["bounds"]!)!.map(Number);
    await b.executeScript("mobile: longClickGesture", [{ x: (l! + r!) / 2, y: (t! + bottom!) / 2 }]);
    assert.equal(device.screenId(), "product_menu");
  });
});

test("W3C pointer actions are read as a phone reads them: a pause between down and up is a long press, a short one a tap", async () => {
  await withShop(async (b, device) => {
    const press = (ms: number) =>
      b.action("pointer", { parameters: { pointerType: "touch" } }).move({ x: 658, y: 880 }).down().pause(ms).up().perform();
    await press(100);
    assert.equal(device.screenId(), "shop_home", "held 100 ms: a tap, which does nothing on Rain jacket");
    await press(1000);
    assert.equal(device.screenId(), "product_menu", "held 1 s, past the long-press timeout: its menu");
    device.back();
    await (await b.$('android=new UiSelector().text("Wool beanie")')).longPress(); // webdriverio: down, pause(1500), up
    assert.equal(device.screenId(), "product_menu");
    device.back();
    await b.executeScript("mobile: longClickGesture", [{ x: 658, y: 880, duration: 100 }]);
    assert.equal(device.screenId(), "shop_home", "the driver's long click held 100 ms is a tap");
    await b.executeScript("mobile: longClickGesture", [{ x: 658, y: 880 }]);
    assert.equal(device.screenId(), "product_menu", "its default hold (500 ms) is a long press");
  });
});

test("W3C pointer actions: two taps 100 ms apart on the photo are a double tap (it likes the product); 500 ms apart two taps", async () => {
  await withShop(async (b, device) => {
    device.tap(nodeOf(device, "text", "Canvas sneakers"));
    const taps = (gapMs: number) =>
      b.action("pointer", { parameters: { pointerType: "touch" } }).move({ x: 540, y: 700 }).down().up().pause(gapMs).down().up()
        .perform();
    await taps(500);
    assert.equal(nodeOf(device, "resource-id", "com.example.shop:id/favourite")["checked"], "false");
    await taps(100);
    assert.equal(nodeOf(device, "resource-id", "com.example.shop:id/favourite")["checked"], "true");
  });
});

test("timed screens follow the device's clock: the order confirmation 3 s later, the cart drawer frame by frame", () => {
  let now = 1_000_000;
  const device = new ScenarioDevice(resolveScenario("shop"), { now: () => now });
  assert.ok(device.openUrl("https://shop.example/checkout") !== null);
  device.tap(nodeOf(device, "text", "Place order"));
  assert.equal(device.screenId(), "order_placing");
  now += 2999;
  assert.match(device.hierarchyXml(), /text="Placing your order"/);
  now += 1;
  assert.match(device.hierarchyXml(), /text="Order confirmed"/);
  device.back();
  device.back();
  device.home();
  device.launch("com.example.shop");
  assert.equal(device.screenId(), "shop_home");
  device.tap(nodeOf(device, "content-desc", "Cart"));
  const drawerLeft = () => Number(/^\[(\d+),/.exec(nodeOf(device, "resource-id", "com.example.shop:id/cart_drawer")["bounds"]!)![1]);
  const lefts: number[] = [];
  for (let frame = 0; frame < 8; frame++) {
    lefts.push(drawerLeft());
    now += 120;
  }
  assert.deepEqual(lefts, [900, 630, 400, 250, 190, 180, 180, 180], "the drawer slides in over five frames, then stays");
  assert.equal(device.screenId(), "cart");
});

test("a password field dumps one bullet per character, never its text; the sim still knows what was typed", () => {
  const device = new ScenarioDevice(resolveScenario("shop"));
  assert.ok(device.clearApp("com.example.shop"));
  assert.ok(device.launch("com.example.shop"));
  assert.equal(device.screenId(), "shop_login");
  device.setText(nodeOf(device, "resource-id", "com.example.shop:id/password"), "hunter22");
  const xml = device.hierarchyXml();
  assert.match(xml, /text="••••••••" resource-id="com\.example\.shop:id\/password"/);
  assert.doesNotMatch(xml, /hunter22/);
  device.pressKey(67); // DEL on the focused field
  assert.match(device.hierarchyXml(), /text="•••••••" resource-id="com\.example\.shop:id\/password"/);
  device.tap(nodeOf(device, "resource-id", "com.example.shop:id/sign_in"));
  assert.equal(device.screenId(), "shop_home");
});

test("recents and the shade close on BACK and HOME; a HOME from the shade shows the launcher", () => {
  const device = new ScenarioDevice(resolveScenario("shop"));
  device.pressKey(187);
  assert.equal(device.screenId(), "@recents");
  assert.match(device.hierarchyXml(), /content-desc="Shop"/);
  device.back();
  assert.equal(device.screenId(), "shop_home");
  device.openNotifications();
  assert.equal(device.foregroundPackage(), "com.android.systemui");
  device.pressKey(3);
  assert.equal(device.screenId(), "launcher");
  device.openNotifications();
  device.back();
  assert.equal(device.screenId(), "launcher");
});
