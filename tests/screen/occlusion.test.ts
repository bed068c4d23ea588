/**
 * What a tap on an element would reach (src/screen/occlusion.ts): a view drawn over the element's centre, in
 * another branch of its window, that takes touches (clickable or long-clickable) takes the tap instead; the
 * order is the dump's `drawing-order`, and without it nothing is decided. `coveredBy` says the cover as the
 * summary offers it. Hand-made dumps, and the real corpus's overlays (skipped, with the reason, without it).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { coveredBy, locate, parseDump, summarize } from "../../src/screen/mod.ts";
import { analyzeScreen } from "../../src/screen/screen_analysis.ts";
import { coveringNode } from "../../src/screen/occlusion.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";
import { button, dump, label, type N } from "./dump_builder.ts";

const skip = corpusSkipReason();

/** A page with two rows and, drawn over its lower half, a sheet with one option; `sheet` overrides the sheet. */
function sheetScreen(sheet: Partial<N> = {}, page: Partial<N> = {}): string {
  return dump([
    {
      cls: "android.widget.FrameLayout",
      bounds: [0, 0, 1080, 2400],
      children: [
        {
          cls: "android.widget.LinearLayout",
          order: 1,
          bounds: [0, 0, 1080, 2400],
          children: [button("Top row", [0, 200, 1080, 400]), button("Low row", [0, 1800, 1080, 2000])],
          ...page,
        },
        {
          cls: "android.widget.LinearLayout",
          id: "sheet",
          order: 2,
          bounds: [0, 1200, 1080, 2400],
          children: [label("Sort by", [40, 1250, 1040, 1350]), button("Size", [0, 1700, 1080, 2100])],
          ...sheet,
        },
      ],
    },
  ]);
}

const coverOf = (xml: string, text: string) => {
  const tree = parseDump(xml);
  return coveredBy(tree, locate(tree, { text }));
};

test("a row under a sheet drawn after it is covered by the sheet's option at its centre; one in the clear is not (R42)", () => {
  assert.deepEqual(coverOf(sheetScreen(), "Low row"), { label: "Size", selector: { text: "Size" } });
  assert.equal(coverOf(sheetScreen(), "Top row"), null);
  assert.equal(coverOf(sheetScreen(), "Size"), null, "the sheet's own option is on top");
});

test("the summary lists a covered row with covered_by, the cover's label, before any tap; the row in the clear and the cover carry none", () => {
  const entries = summarize(parseDump(sheetScreen()), { width: 1080, height: 2400, keyboard: { open: false } }).actions;
  const coveredOf = (text: string) => entries.find((a) => a.selector.text === text)?.covered_by;
  assert.equal(coveredOf("Low row"), "Size");
  assert.equal(coveredOf("Top row"), undefined);
  assert.equal(coveredOf("Size"), undefined);
  const unordered = sheetScreen({ order: undefined }, { order: undefined });
  assert.ok(
    summarize(parseDump(unordered), { width: 1080, height: 2400, keyboard: { open: false } }).actions.every((a) =>
      a.covered_by === undefined
    ),
    "no order: nothing said",
  );
});

test("a sheet that takes no touch where the row's centre is lets the tap through; a clickable sheet takes it", () => {
  const holed = sheetScreen({ children: [label("Sort by", [40, 1250, 1040, 1350])] });
  assert.equal(coverOf(holed, "Low row"), null, "nothing over the centre takes touches (Android passes the tap down)");
  const scrim = sheetScreen({ click: true, children: [] });
  assert.deepEqual(coverOf(scrim, "Low row")?.selector, { resource_id: "sheet" }, "a clickable sheet (a scrim) takes it");
  const list = sheetScreen({
    cls: "androidx.recyclerview.widget.RecyclerView",
    scroll: true,
    children: [label("Sort by", [40, 1250, 1040, 1350])],
  });
  assert.notEqual(coverOf(list, "Low row"), null, "a scrolling list drawn over it takes the touch (a drag or a tap) between its rows");
});

test("drawn before is under: the same sheet with a lower drawing-order covers nothing; without drawing-order nothing is decided", () => {
  assert.equal(coverOf(sheetScreen({ order: 0 }), "Low row"), null);
  assert.equal(coverOf(sheetScreen({ order: undefined }, { order: undefined }), "Low row"), null, "child order is not drawing order");
});

/** A card whose clickable foreground (drawn after its text, over the whole card) takes every tap on it; `button` makes the title a button. */
function overlaidCard(title: Partial<N> = {}): string {
  return dump([{
    cls: "android.widget.FrameLayout",
    order: 1,
    bounds: [0, 200, 1080, 500],
    children: [
      { cls: "android.widget.TextView", text: "Title", order: 1, bounds: [40, 250, 1040, 450], ...title },
      { cls: "android.view.View", click: true, order: 2, bounds: [0, 200, 1080, 500] },
    ],
  }]);
}

test("a card's clickable foreground over its plain text is how the text is tapped, not a cover; over a button of its own it covers", () => {
  assert.equal(coverOf(overlaidCard(), "Title"), null, "a finger on the title opens the card: the tap works");
  assert.notEqual(coverOf(overlaidCard({ cls: "android.widget.Button", click: true }), "Title"), null, "the button would never get it");
});

test("drawing-order 0 is no place in the order: a Compose button (virtual nodes all say 0) beside an embedded view is not under it", () => {
  const xml = dump([{
    cls: "androidx.compose.ui.platform.ComposeView",
    order: 1,
    bounds: [0, 0, 1080, 2400],
    children: [{
      cls: "android.view.View",
      order: 0,
      bounds: [0, 0, 1080, 2400],
      children: [
        { cls: "android.webkit.WebView", order: 1, scroll: true, click: true, bounds: [0, 200, 1080, 2000] },
        button("Send", [800, 1800, 1040, 1960], { order: 0 }),
      ],
    }],
  }]);
  assert.equal(coverOf(xml, "Send"), null, "Compose draws the button over the map or page it embeds; 0 only says the order is unknown");
});

test("the centre is the one UiAutomator2 taps: of the bounds its first scrollable ancestor shows (a row half past its list's edge)", () => {
  const screen = (listBottom: number) =>
    dump([{
      cls: "android.widget.FrameLayout",
      bounds: [0, 0, 1080, 2400],
      children: [
        {
          cls: "android.widget.ScrollView",
          scroll: true,
          order: 1,
          bounds: [0, 400, 1080, listBottom],
          // A WebView's or Compose's virtual nodes are not clipped to their list as views are.
          children: [{
            cls: "android.view.View",
            order: 1,
            bounds: [0, 400, 1080, 2400],
            children: [button("Last row", [0, 1800, 1080, 2300])],
          }],
        },
        { cls: "android.view.View", order: 2, bounds: [0, 2000, 1080, 2400], children: [button("Tab", [0, 2000, 1080, 2400])] },
      ],
    }]);
  assert.equal(coverOf(screen(2000), "Last row"), null, "the list shows [1800, 2000] of it: the tap lands at 1900, in the clear");
  assert.deepEqual(
    coverOf(screen(2400), "Last row")?.label,
    "Tab",
    "a list that runs under the tab bar shows it all: the tap lands on the tab",
  );
});

test("the element's own ancestors and descendants never cover it", () => {
  const xml = dump([{
    cls: "android.widget.FrameLayout",
    click: true,
    order: 1,
    bounds: [0, 0, 1080, 600],
    children: [button("Inner", [0, 0, 1080, 600], { order: 1, children: [button("Deep", [0, 0, 1080, 600], { order: 1 })] })],
  }]);
  const tree = parseDump(xml);
  const inner = tree.nodes.find((n) => n.text === "Inner")!;
  assert.equal(coveringNode(tree, inner), null);
});

test(
  "real overlays: the React Native error banner over the tab bar, Twitter's bottom bar over the timeline's counts; nothing else in the corpus",
  {
    skip,
  },
  () => {
    const covered: string[] = [];
    for (const file of readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".xml")).sort()) {
      const tree = parseDump(readFileSync(join(CORPUS_DIR, file), "utf8"));
      for (const entity of analyzeScreen(tree).listed) {
        if (!entity.target) continue;
        if (coveringNode(tree, tree.nodes[entity.root]!) !== null) covered.push(file);
      }
    }
    const counts = Object.fromEntries([...new Set(covered)].map((f) => [f, covered.filter((c) => c === f).length]));
    assert.deepEqual(counts, { "react-native-fitness-home-icon-font.xml": 5, "twitter-timeline-appium.xml": 6 });
    const said: string[] = [];
    for (const file of readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".xml")).sort()) {
      const tree = parseDump(readFileSync(join(CORPUS_DIR, file), "utf8"));
      for (const action of summarize(tree, { width: 1080, height: 2400, keyboard: { open: false } }).actions) {
        if (action.covered_by === undefined) continue;
        said.push(file);
        assert.notEqual(
          coveredBy(tree, locate(tree, action.selector)),
          null,
          `${file}: ${JSON.stringify(action.selector)} is said covered`,
        );
      }
    }
    assert.deepEqual(said, covered, "the summary says covered_by of exactly the targets a tap is refused on");
    const tree = parseDump(readFileSync(join(CORPUS_DIR, "react-native-fitness-home-icon-font.xml"), "utf8"));
    assert.match(coveredBy(tree, locate(tree, { text: "Home" }))?.label ?? "", /Network request failed/);
  },
);

/** A DrawerLayout: a page (its content view, first child) with a menu button at the left and a row; `drawer` (an end drawer
 * from x=180) shown when given. No drawing-order unless the parts carry one. */
function drawerScreen(drawer?: Partial<N>): string {
  return dump([{
    cls: "androidx.drawerlayout.widget.DrawerLayout",
    id: "drawer_layout",
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: "android.widget.LinearLayout",
        id: "page",
        bounds: [0, 0, 1080, 2400],
        children: [button("Menu", [0, 100, 160, 260]), button("Boots", [0, 400, 1080, 600])],
      },
      ...(drawer === undefined ? [] : [{
        cls: "android.widget.FrameLayout",
        id: "cart_drawer",
        bounds: [180, 0, 1080, 2400] as [number, number, number, number],
        children: [label("Your cart", [240, 160, 1080, 250]), button("Checkout", [240, 2200, 1080, 2350])],
        ...drawer,
      }]),
    ],
  }]);
}

test("an open drawer's scrim takes a tap beside the drawer (DrawerLayout closes it), with or without drawing-order; a closed one is not in the dump", () => {
  assert.equal(coverOf(drawerScreen({}), "Menu")?.label, "cart_drawer", "the page's button beside the drawer is under the scrim");
  assert.equal(coverOf(drawerScreen(), "Menu"), null, "no drawer shown: the page takes its taps");
  assert.equal(coverOf(drawerScreen(), "Boots"), null);
  assert.equal(coverOf(drawerScreen({}), "Checkout"), null, "the drawer's own button takes its tap");
  const entries = summarize(parseDump(drawerScreen({})), { width: 1080, height: 2400, keyboard: { open: false } }).actions;
  assert.equal(entries.find((a) => a.selector.text === "Menu")?.covered_by, "cart_drawer");
});

test("on the drawer itself the drawer's views decide: a clickable drawer takes the row's tap, one that takes none passes it (as Android)", () => {
  const ordered = (click: boolean) =>
    drawerScreen({ click, order: 2, children: [label("Your cart", [240, 160, 1080, 250])] }).replace(
      'resource-id="page"',
      'resource-id="page" drawing-order="1"',
    );
  assert.equal(coverOf(ordered(true), "Boots")?.label, "Your cart");
  assert.equal(coverOf(ordered(false), "Boots"), null, "a drawer that takes no touch lets the row under it have it");
});

test("with two drawers shown, a point on either is the drawer's to decide, not the scrim's (the other drawer is not the cover)", () => {
  const xml = dump([{
    cls: "androidx.drawerlayout.widget.DrawerLayout",
    bounds: [0, 0, 1080, 2400],
    children: [
      { cls: "android.widget.LinearLayout", bounds: [0, 0, 1080, 2400], children: [button("Menu", [0, 100, 160, 260])] },
      {
        cls: "android.widget.FrameLayout",
        id: "start_drawer",
        bounds: [0, 0, 400, 2400],
        children: [label("Menu items", [0, 300, 400, 400])],
      },
      {
        cls: "android.widget.FrameLayout",
        id: "end_drawer",
        bounds: [680, 0, 1080, 2400],
        children: [label("Your cart", [700, 160, 1080, 250])],
      },
    ],
  }]);
  assert.equal(coverOf(xml, "Menu"), null, "on the start drawer, which takes no touch: not the end drawer's scrim");
  const one = xml.replace(/<node [^>]*resource-id="start_drawer"[^>]*>.*?<\/node>/, "");
  assert.equal(coverOf(one, "Menu")?.label, "end_drawer", "with the end drawer alone, its scrim takes the tap");
});

test("nested DrawerLayouts: an outer layout's open drawer covers a page inside an inner layout that shows none", () => {
  const xml = dump([{
    cls: "androidx.drawerlayout.widget.DrawerLayout",
    bounds: [0, 0, 1080, 2400],
    children: [
      {
        cls: "androidx.drawerlayout.widget.DrawerLayout",
        bounds: [0, 0, 1080, 2400],
        children: [{ cls: "android.widget.LinearLayout", bounds: [0, 0, 1080, 2400], children: [button("Menu", [0, 100, 160, 260])] }],
      },
      { cls: "android.widget.FrameLayout", id: "outer_drawer", bounds: [180, 0, 1080, 2400], children: [] },
    ],
  }]);
  assert.equal(coverOf(xml, "Menu")?.label, "outer_drawer", "the outer layout intercepts the touch on its content first");
});

test("a second child as wide as the DrawerLayout is content, never a drawer (a drawer is at most the width less 64dp)", () => {
  const xml = dump([{
    cls: "androidx.drawerlayout.widget.DrawerLayout",
    bounds: [0, 0, 1080, 2400],
    children: [
      { cls: "android.widget.LinearLayout", bounds: [0, 0, 1080, 2400], children: [button("Menu", [0, 100, 160, 260])] },
      {
        cls: "android.widget.FrameLayout",
        id: "overlay",
        bounds: [0, 2000, 1080, 2400],
        children: [button("Play", [0, 2100, 1080, 2300])],
      },
    ],
  }]);
  assert.equal(coverOf(xml, "Menu"), null, "no drawer shown: a full-width content child is no scrim");
  assert.equal(coverOf(xml, "Play"), null);
});

test("the content need not be the first child; a drawer of no area (closing, off screen) shows nothing", () => {
  const layout = (drawerBounds: [number, number, number, number]) =>
    dump([{
      cls: "androidx.drawerlayout.widget.DrawerLayout",
      bounds: [0, 0, 1080, 2400],
      children: [
        { cls: "android.widget.FrameLayout", id: "nav_drawer", bounds: drawerBounds, children: [] },
        { cls: "android.widget.LinearLayout", bounds: [0, 0, 1080, 2400], children: [button("Search", [900, 100, 1060, 260])] },
      ],
    }]);
  assert.equal(coverOf(layout([0, 0, 800, 2400]), "Search")?.label, "nav_drawer", "a start drawer placed before the content still shows");
  assert.equal(coverOf(layout([0, 0, 0, 2400]), "Search"), null, "a drawer slid out, zero wide: the page takes its taps");
  assert.equal(coverOf(layout([-800, 0, 0, 2400]), "Search"), null, "a drawer parked off screen, bounds unclipped: nothing shows");
  assert.equal(coverOf(layout([-700, 0, 100, 2400]), "Search")?.label, "nav_drawer", "a drawer partly slid in shows");
});

test("without drawing-order a clickable open drawer still takes a tap on the page under it (a drawer has elevation: touched first)", () => {
  const xml = drawerScreen({ click: true, children: [label("Your cart", [240, 160, 1080, 250])] });
  assert.equal(coverOf(xml, "Boots")?.label, "Your cart", "the row's centre is on the drawer, which takes the touch");
  assert.equal(
    coverOf(drawerScreen({ children: [label("Your cart", [240, 160, 1080, 250])] }), "Boots"),
    null,
    "one that takes none passes it",
  );
});

test("a first child narrower than its DrawerLayout (a side navigation bar's inset as margin, in landscape) is still its content", () => {
  const xml = dump([{
    cls: "androidx.drawerlayout.widget.DrawerLayout",
    bounds: [0, 0, 2400, 1080],
    children: [
      { cls: "android.widget.LinearLayout", bounds: [0, 0, 2274, 1080], children: [button("Search", [1100, 100, 1260, 260])] },
      { cls: "android.widget.FrameLayout", id: "nav_drawer", bounds: [0, 0, 800, 1080], children: [] },
    ],
  }]);
  assert.equal(coverOf(xml, "Search")?.label, "nav_drawer");
});
