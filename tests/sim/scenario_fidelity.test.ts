/**
 * The simulated device answers as a phone would (task SIMF): shop search results filter by the query, a saved note
 * shows in the Notes list, an element click presses the centre of the element's visible bounds (UiObject2.click),
 * and the cart drawer behaves as androidx DrawerLayout (a tap on the scrim closes it and reaches nothing else).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import type { Scenario } from "../../src/sim/scenario/types.ts";
import { PIXEL_API35 } from "../../src/sim/scenarios/layout.ts";

function attrsOf(xml: string, needle: string): Record<string, string> {
  const m = new RegExp(`<node [^>]*${needle}[^>]*>`).exec(xml);
  assert.ok(m, `no node with ${needle} on this screen`);
  return Object.fromEntries([...m[0].matchAll(/([\w-]+)="([^"]*)"/g)].map((x) => [x[1]!, x[2]!]));
}
const texts = (xml: string) => [...xml.matchAll(/ text="([^"]*)"/g)].map((m) => m[1]!).filter((t) => t !== "");
const SHOP = "com.example.shop";

function search(query: string): ScenarioDevice {
  const d = new ScenarioDevice(resolveScenario("shop"));
  d.tap(attrsOf(d.hierarchyXml(), 'content-desc="Search"'));
  d.setText(attrsOf(d.hierarchyXml(), `resource-id="${SHOP}:id/search_field"`), query);
  d.editorAction("search");
  assert.equal(d.screenId(), "search_results");
  return d;
}

const titles = (d: ScenarioDevice) =>
  [...d.hierarchyXml().matchAll(/text="([^"]*)" resource-id="com\.example\.shop:id\/product_title"/g)].map((m) => m[1]!);

test("shop search: the results are the products whose name contains the query, case-insensitively", () => {
  assert.deepEqual(titles(search("boots")), ["Hiking boots"]);
  assert.match(search("boots").hierarchyXml(), /text="1 result"/);
  assert.deepEqual(titles(search("SUN")), ["Sunglasses"]);
  const an = search("an");
  assert.deepEqual(titles(an), ["Canvas sneakers", "Wool beanie"], "in catalogue order, only matches");
  assert.match(an.hierarchyXml(), /text="2 results"/);
  const mug = search("mug");
  assert.deepEqual(titles(mug), ["Travel mug"]);
  assert.match(mug.hierarchyXml(), /text="mug" resource-id="com\.example\.shop:id\/search_field"/, "the query stays in the field");
});

test("shop search matches the product's name only, as documented: a query only a price holds finds nothing", () => {
  assert.deepEqual(titles(search("$")), [], "every price holds '$', no name does");
  assert.deepEqual(titles(search("59")), [], "Canvas sneakers costs $59; its name does not hold 59");
});

test("shop search: the empty state names the query as typed, $ signs too (no replacement patterns)", () => {
  for (const query of ["$$$", "$&", "a$'b"]) {
    const shown = texts(search(query).hierarchyXml()).map((t) => t.replace(/&apos;/g, "'").replace(/&amp;/g, "&"));
    assert.ok(shown.includes(`No results for \u201c${query}\u201d`), `${query}: ${JSON.stringify(shown)}`);
  }
});

test("shop search: nothing matches → an honest empty state naming the query, no product rows", () => {
  const d = search("umbrella");
  assert.deepEqual(titles(d), []);
  assert.ok(texts(d.hierarchyXml()).includes("No results for \u201cumbrella\u201d"), JSON.stringify(texts(d.hierarchyXml())));
  assert.doesNotMatch(d.hierarchyXml(), /results_count/);
});

test("shop search: a second search on the results screen shows the new query's results; a match opens its product", () => {
  const d = search("boots");
  d.setText(attrsOf(d.hierarchyXml(), `resource-id="${SHOP}:id/search_field"`), "canvas");
  d.editorAction("search");
  assert.deepEqual(titles(d), ["Canvas sneakers"]);
  d.tap(attrsOf(d.hierarchyXml(), 'text="Canvas sneakers"'));
  assert.equal(d.screenId(), "product_42");
});

test("notes: a note saved in the editor appears in the Notes list (newest first) and is still there after a relaunch", () => {
  const d = new ScenarioDevice(resolveScenario("launcher"));
  d.tap(attrsOf(d.hierarchyXml(), 'content-desc="Notes"'));
  d.tap(attrsOf(d.hierarchyXml(), 'content-desc="New note"'));
  assert.equal(d.screenId(), "editor");
  d.setText(attrsOf(d.hierarchyXml(), 'resource-id="com.example.notes:id/title"'), "Dentist");
  d.setText(attrsOf(d.hierarchyXml(), 'resource-id="com.example.notes:id/body"'), "Tuesday 9:30");
  d.tap(attrsOf(d.hierarchyXml(), 'text="Save"'));
  assert.equal(d.screenId(), "notes_list");
  const shown = texts(d.hierarchyXml());
  assert.deepEqual(shown.slice(shown.indexOf("Notes") + 1, shown.indexOf("Notes") + 5), [
    "Dentist",
    "Tuesday 9:30",
    "Groceries",
    "Milk, eggs, coffee",
  ]);
  const row = attrsOf(d.hierarchyXml(), 'text="Dentist"');
  const groceries = attrsOf(d.hierarchyXml(), 'text="Groceries"');
  assert.ok(
    Number(/\]\[\d+,(\d+)\]$/.exec(row["bounds"]!)![1]) <= Number(/^\[\d+,(\d+)\]/.exec(groceries["bounds"]!)![1]),
    "the rows below moved down",
  );
  d.tap(attrsOf(d.hierarchyXml(), 'content-desc="New note"'));
  assert.equal(
    attrsOf(d.hierarchyXml(), 'resource-id="com.example.notes:id/title"')["text"],
    "Title",
    "a new note starts empty (its hint shows)",
  );
  d.back();
  d.forceStop("com.example.notes");
  d.launch("com.example.notes");
  assert.match(d.hierarchyXml(), /text="Dentist"/, "saved, not just drawn");
  d.clearApp("com.example.notes");
  d.launch("com.example.notes");
  assert.doesNotMatch(d.hierarchyXml(), /text="Dentist"/, "pm clear forgets it");
});

test("notes: Save on an empty editor adds nothing (an empty note is discarded)", () => {
  const d = new ScenarioDevice(resolveScenario("launcher"));
  d.tap(attrsOf(d.hierarchyXml(), 'content-desc="Notes"'));
  const before = texts(d.hierarchyXml());
  d.tap(attrsOf(d.hierarchyXml(), 'content-desc="New note"'));
  d.tap(attrsOf(d.hierarchyXml(), 'text="Save"'));
  assert.deepEqual(texts(d.hierarchyXml()), before);
});

/** A list [0,300]–[1080,1000] whose last row runs past its bottom edge (a virtual node, as a WebView's), over a bottom bar. */
function clippedRowScenario(): Scenario {
  return {
    name: "clipped-row",
    description: "a row half past its list's edge",
    android: PIXEL_API35,
    start: "list",
    screens: {
      list: {
        package: "com.example.list",
        activity: "com.example.list.Main",
        root: {
          class: "android.widget.FrameLayout",
          bounds: [0, 0, 1080, 2400],
          children: [
            {
              class: "androidx.recyclerview.widget.RecyclerView",
              scrollable: true,
              bounds: [0, 300, 1080, 1000],
              children: [{ class: "android.widget.Button", text: "Half row", clickable: true, bounds: [0, 800, 1080, 1400] }],
            },
            { class: "android.widget.Button", text: "Bar", clickable: true, bounds: [0, 1000, 1080, 1400] },
          ],
        },
      },
      row: {
        package: "com.example.list",
        activity: "com.example.list.Row",
        root: { class: "android.widget.TextView", text: "row", bounds: [0, 0, 1080, 2400] },
      },
      bar: {
        package: "com.example.list",
        activity: "com.example.list.Bar",
        root: { class: "android.widget.TextView", text: "bar", bounds: [0, 0, 1080, 2400] },
      },
    },
    packages: [{ name: "com.example.list", screen: "list" }],
    transitions: [
      { from: "list", on: "tap", selector: { text: "Half row" }, to: "row" },
      { from: "list", on: "tap", selector: { text: "Bar" }, to: "bar" },
    ],
  };
}

test("an element click presses the centre of its visible bounds (cut to its first scrollable ancestor), not of its raw bounds", () => {
  const d = new ScenarioDevice(clippedRowScenario());
  d.tap(attrsOf(d.hierarchyXml(), 'text="Half row"')); // raw centre y 1100 is on the bar; visible centre y 900 on the row
  assert.equal(d.screenId(), "row");
  const long = new ScenarioDevice(clippedRowScenario());
  long.doubleTap(attrsOf(long.hierarchyXml(), 'text="Half row"'));
  assert.equal(long.screenId(), "row", "a double tap presses the same point");
});

function openCart(): ScenarioDevice {
  let now = 0;
  const d = new ScenarioDevice(resolveScenario("shop"), { now: () => now });
  d.tap(attrsOf(d.hierarchyXml(), 'content-desc="Cart"'));
  now += 5 * 120;
  assert.equal(d.screenId(), "cart");
  return d;
}

test("cart drawer (DrawerLayout): a tap on the scrim beside the open drawer closes it and reaches nothing under it", () => {
  const d = openCart();
  d.tapAt(90, 700); // on the product list's "Canvas sneakers" row, beside the drawer
  assert.equal(d.screenId(), "shop_home", "the drawer closed; the row under the scrim was not tapped");
  const mid = new ScenarioDevice(resolveScenario("shop"), { now: () => 0 });
  mid.tap(attrsOf(mid.hierarchyXml(), 'content-desc="Cart"'));
  mid.tapAt(90, 700); // while it slides in: the scrim is there from the first frame
  assert.equal(mid.screenId(), "shop_home");
});

test("cart drawer: a tap inside the open drawer stays in the drawer (it is clickable and consumes it); BACK closes it", () => {
  const d = openCart();
  assert.equal(attrsOf(d.hierarchyXml(), `resource-id="${SHOP}:id/cart_drawer"`)["clickable"], "true");
  d.tapAt(600, 700); // over the "Canvas sneakers" row behind the drawer
  assert.equal(d.screenId(), "cart");
  d.tap(attrsOf(d.hierarchyXml(), 'text="Your cart"'));
  assert.equal(d.screenId(), "cart", "the drawer's title is not a close button");
  d.back();
  assert.equal(d.screenId(), "shop_home");
});

test("shop search: a second search from the results closes the keyboard as the first did (same IME action, same screen)", () => {
  const d = search("boots");
  assert.equal(d.keyboard().open, false, "the first search closes the keyboard");
  const field = attrsOf(d.hierarchyXml(), `resource-id="${SHOP}:id/search_field"`);
  d.tap(field);
  assert.equal(d.keyboard().open, true, "a tap on the field opens it");
  d.setText(field, "Boots");
  d.editorAction("search");
  assert.equal(d.screenId(), "search_results");
  assert.equal(d.keyboard().open, false, "the second search closes it too");
});

/** A page whose button lies under a full-screen frame drawn last (drawing-order 3), as on the Pixel's "Security & privacy". */
function coveredButton(cover: Partial<{ clickable: boolean; enabled: boolean; scrollable: boolean }>): ScenarioDevice {
  const { width, height } = PIXEL_API35;
  const scenario: Scenario = {
    name: "cover",
    description: "a button under a frame drawn after it",
    android: PIXEL_API35,
    start: "page",
    screens: {
      page: {
        package: "com.example.cover",
        activity: ".Main",
        root: {
          class: "android.widget.FrameLayout",
          bounds: [0, 0, width, height],
          children: [
            { class: "android.view.View", bounds: [0, 0, width, 200] },
            {
              class: "android.widget.LinearLayout",
              bounds: [0, 200, width, height],
              children: [{ class: "android.widget.Button", text: "Set screen lock", clickable: true, bounds: [40, 600, 1040, 760] }],
            },
            { class: "android.widget.FrameLayout", id: "com.example.cover:id/overlay", bounds: [0, 0, width, height], ...cover },
          ],
        },
      },
      lock: { package: "com.example.cover", activity: ".Lock", root: { text: "Choose a screen lock", bounds: [0, 0, width, height] } },
    },
    packages: [{ name: "com.example.cover", screen: "page" }],
    transitions: [{ from: "page", on: "tap", selector: { text: "Set screen lock" }, to: "lock" }],
  };
  return new ScenarioDevice(resolveScenario(scenario));
}

test("a tap the view drawn on top does not take falls through to the views below (ViewGroup.dispatchTouchEvent)", () => {
  const plain = coveredButton({});
  assert.match(plain.hierarchyXml(), /resource-id="com\.example\.cover:id\/overlay"[^>]*drawing-order="3"/);
  plain.tapAt(540, 680);
  assert.equal(plain.screenId(), "lock", "a non-clickable frame drawn last lets the tap through to the button");
  const clicked = coveredButton({});
  clicked.tap(attrsOf(clicked.hierarchyXml(), 'text="Set screen lock"'));
  assert.equal(clicked.screenId(), "lock", "so does the element click");
  for (const cover of [{ clickable: true }, { clickable: true, enabled: false }, { scrollable: true }]) {
    const d = coveredButton(cover);
    d.tapAt(540, 680);
    assert.equal(d.screenId(), "page", `a frame that takes touches swallows the tap: ${JSON.stringify(cover)}`);
  }
});
