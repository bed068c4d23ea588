/**
 * What an agent reads, where it had to guess (issue 27), through `serve` over real stdio on the simulated device's
 * `shop` scenario: a scroll at the end of a list that moved nothing says so (`scrolled: false` beside
 * `at_end: true`), a selector sent as a string is answered with the object to send, a lookup whose words are on
 * the screen under another key answers at once (no second page source read), naming that selector, and "The screen
 * offers" names every element by the selector ui_get_tree offers; the summary marks what takes a long press, the
 * menu a long press opens names its item, `element_label` is the label of what the selector named, and
 * `ui_session_open` with a package answers the screen. On a real capture replayed by the simulated device, an
 * icon-font glyph is never offered by its unreadable text.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { startSimDevice } from "../../src/sim/mod.ts";
import { type BatteryTarget, callTool, type Served, serveOn } from "../support/act_battery.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";

let target: BatteryTarget;
let served: Served;

before(async () => {
  const sim = await startSimDevice({ scenario: "shop" });
  target = { sim, appiumUrl: sim.appiumUrl };
  served = await serveOn(target);
});

after(async () => {
  await served?.close();
  served?.home.remove();
  await target?.sim.stop();
});

const call = (name: string, args: Record<string, unknown> = {}) => callTool(served.server, name, args);

test("a lookup whose words are on the screen under another key answers at once, naming that selector", async () => {
  // The product row's photo is known by its content-desc; the agent tries it as a text.
  const log = target.sim.device.log;
  const from = log.length;
  const missed = await call("ui_tap", { selector: { text: "Rain jacket photo" } });
  assert.equal(missed.error?.code, "UI_ELEMENT_NOT_FOUND", JSON.stringify(missed));
  assert.match(missed.error!.message, /\{"content_desc":"Rain jacket photo"\} names one\./);
  const reads = log.slice(from).filter((e) => e.command.startsWith("get page source")).length;
  assert.equal(reads, 1, "the screen before the act, and no second look: the answer did not wait for the element");
});

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

const SHOP = "com.example.shop";
type Action = { selector: Record<string, unknown>; label?: string; long_press?: true; bounds: number[] };
type Summary = { texts: string[]; actions: Action[]; foreground_package: string };

test("'The screen offers' names every element by the selector ui_get_tree offers for it", async () => {
  const launched = await call("app_launch", { package: SHOP, restart: true });
  assert.equal(launched.ok, true, JSON.stringify(launched.error));
  const summary = launched.data["screen"] as Summary;
  const missed = await call("ui_tap", { selector: { text: "Gift cards" } });
  assert.equal(missed.error?.code, "UI_ELEMENT_NOT_FOUND", JSON.stringify(missed));
  const message = missed.error!.message;
  assert.ok(message.includes(`'Home' (button) {"resource_id":"tab_home"}`), message);
  const offered = (missed.error!.details as { offered: { label: string; selector?: unknown }[] }).offered;
  const summarySelectors = summary.actions.map((a) => JSON.stringify(a.selector));
  assert.ok(offered.length > 0);
  for (const offer of offered) {
    assert.ok(offer.selector !== undefined, `every offer has its selector: ${JSON.stringify(offer)}`);
    assert.ok(summarySelectors.includes(JSON.stringify(offer.selector)), `${JSON.stringify(offer)} is the summary's selector`);
    assert.ok(message.includes(`'${offer.label}' `) && message.includes(JSON.stringify(offer.selector)), message);
  }
});

test("the summary marks what takes a long press; the menu it opens names its item; element_label is what the selector named", async () => {
  const tree = await call("ui_get_tree");
  const actions = (tree.data as unknown as Summary).actions;
  const row = actions.find((a) => a.selector["text"] === "Rain jacket");
  assert.equal(row?.long_press, true, JSON.stringify(row));
  const home = actions.find((a) => a.selector["resource_id"] === "tab_home");
  assert.equal(home?.long_press, undefined, "a tab takes no long press");
  const pressed = await call("ui_tap", { selector: { text: "Rain jacket" }, gesture: "long_press" });
  assert.equal(pressed.ok, true, JSON.stringify(pressed.error));
  assert.equal(pressed.data["element_label"], "Rain jacket", "the label of the element named, not its photo's description");
  const menu = pressed.data["screen"] as Summary;
  assert.ok(menu.actions.some((a) => a.selector["text"] === "Share"), "the menu is in front");
  assert.ok(menu.texts.includes("Rain jacket"), `the menu's header names its item: ${JSON.stringify(menu.texts)}`);
  assert.equal((await call("device_back")).ok, true);
});

test("ui_session_open with a package answers the screen, as app_launch does", async () => {
  const opened = await call("ui_session_open", { package: SHOP });
  assert.equal(opened.ok, true, JSON.stringify(opened.error));
  try {
    const screen = opened.data["screen"] as Summary | undefined;
    assert.equal(screen?.foreground_package, SHOP, JSON.stringify(opened.data));
    assert.ok(screen.actions.some((a) => a.selector["text"] === "Canvas sneakers"), JSON.stringify(screen.actions));
  } finally {
    await call("ui_session_close", { session_id: opened.data["session_id"] });
  }
});

/** A real capture whose icon-font glyphs (private-use characters) are clickable text views, one with no id nor description. */
const GLYPHS = join(CORPUS_DIR, "zomato-cart-appium-403-nodes.xml");
const PRIVATE_USE = /[\uE000-\uF8FF]/;

test("an icon-font glyph is offered by its id, description or position, never by its unreadable text", {
  skip: corpusSkipReason() || (existsSync(GLYPHS) ? false : `${GLYPHS} is missing`),
}, async () => {
  const sim = await startSimDevice({ screen: { xml: readFileSync(GLYPHS, "utf8") } });
  const capture = await serveOn({ sim, appiumUrl: sim.appiumUrl }).catch(async (error: unknown) => {
    await sim.stop();
    throw error;
  });
  try {
    const tree = await callTool(capture.server, "ui_get_tree");
    assert.equal(tree.ok, true, JSON.stringify(tree.error));
    const actions = (tree.data as unknown as Summary).actions;
    const unreadable = actions.filter((a) => PRIVATE_USE.test(JSON.stringify(a.selector))); // JSON keeps them as characters
    assert.deepEqual(unreadable.map((a) => a.selector), [], "no selector names an element by a glyph");
    const glyph = actions.find((a) => a.bounds[0] === 1212 && a.bounds[1] === 187);
    assert.ok(glyph !== undefined, "the nameless glyph button is offered");
    const tapped = await callTool(capture.server, "ui_tap", { selector: glyph.selector });
    assert.equal(tapped.ok, true, `its selector names it: ${JSON.stringify(tapped.error)}`);
  } finally {
    await capture.close();
    capture.home.remove();
    await sim.stop();
  }
});
