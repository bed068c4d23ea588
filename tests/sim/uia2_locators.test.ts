/**
 * The simulated server's locator pieces on their own: the UiSelector parser (what it accepts and
 * the `invalid selector` it answers otherwise), the page-source rewrite of a real uiautomator dump
 * from the shared corpus, and the W3C pointer actions reduced to taps and swipes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isHarnessError } from "../../src/errors.ts";
import { findNodes } from "../../src/sim/uia2/locate.ts";
import { pointerStrokes } from "../../src/sim/uia2/pointer_actions.ts";
import { readSnapshot } from "../../src/sim/uia2/screen_snapshot.ts";
import { parseUiAutomator } from "../../src/sim/uia2/ui_selector_parser.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";

function w3cKind(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return isHarnessError(error) ? error.details?.["w3c"] : error;
  }
  return "no error";
}

test("UiSelector chains parse, with escapes, numbers, booleans and a nested UiScrollable", () => {
  assert.deepEqual(parseUiAutomator('new UiSelector().text("Say \\"hi\\"").clickable(true).instance(2)'), {
    kind: "selector",
    calls: [{ name: "text", args: ['Say "hi"'] }, { name: "clickable", args: [true] }, { name: "instance", args: [2] }],
  });
  const scrollable = parseUiAutomator(
    'new UiScrollable(new UiSelector().scrollable(true)).setMaxSearchSwipes(5).scrollIntoView(new UiSelector().textContains("About"));',
  );
  assert.equal(scrollable.kind, "scrollable");
  assert.equal(scrollable.kind === "scrollable" ? scrollable.maxSwipes : 0, 5);
});

test("anything outside the subset is `invalid selector`, never a silent empty match", () => {
  assert.equal(w3cKind(() => parseUiAutomator('new UiSelector().text("x"')), "invalid selector");
  assert.equal(w3cKind(() => parseUiAutomator('new UiSelector().childSelector("x")')), "invalid selector");
  assert.equal(w3cKind(() => parseUiAutomator("new UiSelector().fromParent(new UiSelector().bogus(1))")), "invalid selector");
  assert.equal(w3cKind(() => parseUiAutomator("new UiSelector().text(3)")), "invalid selector");
  assert.equal(w3cKind(() => parseUiAutomator('new UiObject().text("x")')), "invalid selector");
  assert.equal(w3cKind(() => parseUiAutomator('new UiSelector().textMatches("(")')), "invalid selector");
  assert.equal(w3cKind(() => parseUiAutomator('new UiSelector().textMatches("Disp.*")')), "no error");
});

test("a real dump becomes a page source whose xpath, id, accessibility id and UiSelector finds agree", { skip: corpusSkipReason() }, () => {
  const xml = readFileSync(join(CORPUS_DIR, "permission-location-dialog-en.xml"), "utf8");
  const snapshot = readSnapshot(xml, { width: 1080, height: 2400 });
  const screen = { read: () => snapshot, scroll: () => {} };
  assert.ok(snapshot.nodes.length > 10);
  assert.match(snapshot.source, /^<\?xml[^>]*\?>\r?\n<hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2400">/);
  const buttons = findNodes(screen, "xpath", "//android.widget.Button", null);
  assert.ok(buttons.length >= 2);
  for (const button of buttons) {
    const id = button.attrs["resource-id"] ?? "";
    if (id !== "") assert.deepEqual(findNodes(screen, "id", id, null).map((n) => n.path), [button.path]);
    const text = button.attrs["text"] ?? "";
    const viaUiSelector = findNodes(
      screen,
      "-android uiautomator",
      `new UiSelector().text(${JSON.stringify(text)}).className("android.widget.Button")`,
      null,
    );
    assert.deepEqual(viaUiSelector.map((n) => n.path), [button.path]);
  }
});

test("content-desc with a newline survives the page-source rewrite and matches by accessibility id", () => {
  const dump =
    `<hierarchy rotation="0"><node index="0" class="android.view.View" package="p" text="" resource-id="" content-desc="Historial&#10;Tab 2 of 3" clickable="true" bounds="[0,0][10,10]" /></hierarchy>`;
  const snapshot = readSnapshot(dump, { width: 10, height: 10 });
  const screen = { read: () => snapshot, scroll: () => {} };
  assert.equal(findNodes(screen, "accessibility id", "Historial\nTab 2 of 3", null).length, 1);
  assert.match(snapshot.source, /content-desc="Historial&#10;Tab 2 of 3"/);
  assert.equal(w3cKind(() => findNodes(screen, "css selector", "button", null)), "invalid selector");
});

test("childSelector searches inside the matches; fromParent among their siblings; instance applies per level", () => {
  const row = (i: number, title: string, summary: string): string =>
    `<node index="${i}" class="android.widget.LinearLayout" clickable="true" bounds="[0,${i * 100}][100,${i * 100 + 100}]">` +
    `<node index="0" class="android.widget.TextView" text="${title}" bounds="[0,0][1,1]" />` +
    `<node index="1" class="android.widget.TextView" text="${summary}" bounds="[0,0][1,1]" /></node>`;
  const dump = `<hierarchy rotation="0"><node index="0" class="android.widget.FrameLayout" bounds="[0,0][100,300]">` +
    `<node index="0" class="android.widget.TextView" text="On" bounds="[0,0][1,1]" />` +
    `<node index="1" class="androidx.recyclerview.widget.RecyclerView" resource-id="p:id/list" scrollable="true" bounds="[0,0][100,300]">` +
    `${row(0, "Wi-Fi", "On")}${row(1, "Bluetooth", "Off")}</node></node></hierarchy>`;
  const snapshot = readSnapshot(dump, { width: 100, height: 300 });
  const screen = { read: () => snapshot, scroll: () => {} };
  const texts = (selector: string): string[] =>
    findNodes(screen, "-android uiautomator", selector, null).map((n) => n.attrs["text"] ?? n.attrs["class"] ?? "");
  assert.deepEqual(texts('new UiSelector().text("On")'), ["On", "On"]);
  assert.deepEqual(texts('new UiSelector().resourceId("p:id/list").childSelector(new UiSelector().text("On"))'), ["On"]);
  assert.deepEqual(texts('new UiSelector().text("Bluetooth").fromParent(new UiSelector().index(1))'), ["Off"]);
  assert.deepEqual(
    texts('new UiSelector().scrollable(true).childSelector(new UiSelector().className("android.widget.LinearLayout").instance(1))').length,
    1,
  );
  assert.deepEqual(
    texts('new UiSelector().className("android.widget.LinearLayout").instance(1).childSelector(new UiSelector().index(0))'),
    ["Bluetooth"],
  );
});

test("pointer actions: each finger's down … up is a stroke with where it went, how long it was held and when it began", () => {
  const move = (x: number, y: number, origin: unknown = "viewport", duration?: number) => ({ type: "pointerMove", x, y, origin, duration });
  const source = (actions: unknown[]) => [{ type: "pointer", id: "finger1", parameters: { pointerType: "touch" }, actions }];
  const none = () => ({ x: 0, y: 0 });
  assert.deepEqual(
    pointerStrokes(source([move(10, 20), { type: "pointerDown" }, { type: "pause", duration: 80 }, { type: "pointerUp" }]), none),
    [{ from: { x: 10, y: 20 }, to: { x: 10, y: 20 }, heldMs: 80, afterMs: 0 }],
  );
  assert.deepEqual(
    pointerStrokes(source([move(500, 2000), { type: "pointerDown" }, move(0, -1200, "pointer", 250), { type: "pointerUp" }]), none),
    [{ from: { x: 500, y: 2000 }, to: { x: 500, y: 800 }, heldMs: 250, afterMs: 0 }],
  );
  const onElement = move(5, 0, { "element-6066-11e4-a52e-4f735466cecf": "e1" });
  assert.deepEqual(
    pointerStrokes(
      source([onElement, { type: "pointerDown" }, { type: "pointerUp" }]),
      (id) => (id === "e1" ? { x: 100, y: 200 } : { x: -1, y: -1 }),
    ),
    [{ from: { x: 105, y: 200 }, to: { x: 105, y: 200 }, heldMs: 0, afterMs: 0 }],
  );
  // A double tap: the second down comes after the pause; a key source's pause in the same tick lengthens it (W3C ticks).
  const twice = [
    ...source([move(7, 9), { type: "pointerDown" }, { type: "pointerUp" }, { type: "pause", duration: 10 }, { type: "pointerDown" }, {
      type: "pointerUp",
    }]),
    { type: "key", id: "keys", actions: [{ type: "pause" }, { type: "pause" }, { type: "pause" }, { type: "pause", duration: 120 }] },
  ];
  assert.deepEqual(pointerStrokes(twice, none).map((s) => [s.afterMs, s.heldMs]), [[0, 0], [120, 0]]);
  assert.deepEqual(pointerStrokes([{ type: "key", actions: [{ type: "keyDown", value: "a" }] }], none), []);
  assert.equal(w3cKind(() => pointerStrokes("nope", none)), "invalid argument");
  assert.equal(w3cKind(() => pointerStrokes(source([{ type: "pause", duration: -5 }]), none)), "invalid argument");
});
