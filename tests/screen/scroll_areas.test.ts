/**
 * Where a screen scrolls (SPEC §5, issue 16): which scrollable nodes the summary lists and when, the axis
 * each scrolls along (class, else the items' arrangement), the selector offered for each, and
 * `scrollContainerOf` (what `ui_scroll.container` resolves through); a clickable scrollable is a tap target.
 * Hand-made dumps, plus the chip rows and carousels of the real corpus (skipped, with the reason, without it).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { keyboardInDump, parseDump, screenSizeOf, scrollContainerOf, summarize, summarizeWithNodes } from "../../src/screen/mod.ts";
import type { ScreenSummary, UiTree } from "../../src/screen/types.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";
import { button, dump, label, type N, SCREEN } from "./dump_builder.ts";

const skip = corpusSkipReason();

function treeOf(children: N[]): UiTree {
  return parseDump(dump(children));
}

function summaryOf(children: N[]): ScreenSummary {
  return summarize(treeOf(children), SCREEN);
}

const chip = (text: string, left: number): N => button(text, [left, 300, left + 300, 420]);
const row = (text: string, top: number): N => button(text, [0, top, 1080, top + 200]);

/** A page list with rows, and a bottom sheet over it holding its own list. */
const PAGE_AND_SHEET: N[] = [
  {
    cls: "androidx.recyclerview.widget.RecyclerView",
    scroll: true,
    id: "com.example.app:id/page",
    bounds: [0, 0, 1080, 2400],
    children: [row("Home", 0), row("Deals", 200)],
  },
  {
    cls: "android.widget.FrameLayout",
    id: "com.example.app:id/sheet",
    bounds: [0, 1200, 1080, 2400],
    children: [
      { cls: "android.widget.ListView", scroll: true, bounds: [0, 1300, 1080, 2400], children: [row("Size S", 1300), row("Size M", 1500)] },
    ],
  },
];

test("one vertical area: can_scroll alone, as small as before; a listed vertical area leaves its axis out (the default)", () => {
  const list: N = {
    cls: "androidx.recyclerview.widget.RecyclerView",
    scroll: true,
    id: "com.example.app:id/list",
    bounds: [0, 0, 1080, 2400],
    children: [row("A", 0), row("B", 200)],
  };
  const s = summaryOf([list]);
  assert.equal(s.can_scroll, true);
  assert.equal("scroll_areas" in s, false);
  assert.equal("can_scroll" in summaryOf([row("A", 0)]), false, "nothing scrolls: left out");
});

test("one area scrolling sideways is listed, with its axis", () => {
  const chips: N = {
    cls: "android.widget.HorizontalScrollView",
    scroll: true,
    id: "com.example.app:id/chips",
    bounds: [0, 300, 1080, 420],
    children: [chip("All", 0), chip("Music", 300)],
  };
  const s = summaryOf([chips]);
  assert.deepEqual(s.scroll_areas, [{ selector: { resource_id: "chips" }, axis: "horizontal" }]);
  assert.equal(s.can_scroll, true);
});

test("axis from the class: ViewPager horizontal, ScrollView vertical whatever its items", () => {
  const s = summaryOf([
    {
      cls: "androidx.viewpager.widget.ViewPager",
      scroll: true,
      id: "com.example.app:id/pager",
      bounds: [0, 0, 1080, 800],
      children: [label("Page one", [0, 0, 1080, 800])],
    },
    {
      cls: "android.widget.ScrollView",
      scroll: true,
      id: "com.example.app:id/body",
      bounds: [0, 800, 1080, 2400],
      children: [chip("Left", 0), chip("Right", 540)],
    },
  ]);
  assert.deepEqual(s.scroll_areas?.map((area) => [area.selector, area.axis ?? "vertical"]), [
    [{ resource_id: "pager" }, "horizontal"],
    [{ resource_id: "body" }, "vertical"],
  ]);
});

test("axis from the items: side by side in one row is horizontal; a grid of rows, a column, a wrapper of one row", () => {
  const recycler = (id: string, bounds: N["bounds"], children: N[]): N => ({
    cls: "androidx.recyclerview.widget.RecyclerView",
    scroll: true,
    id: `com.example.app:id/${id}`,
    bounds,
    children,
  });
  const brands: N = {
    cls: "android.view.View",
    scroll: true,
    desc: "Brands",
    bounds: [0, 1400, 1080, 1600],
    children: [{
      cls: "android.view.View",
      bounds: [0, 1400, 1080, 1600],
      children: [button("Acme", [0, 1400, 400, 1600]), button("Bolt", [400, 1400, 800, 1600])],
    }],
  };
  const s = summaryOf([
    recycler("carousel", [0, 300, 1080, 420], [
      chip("One", 0),
      chip("Two", 300),
      chip("Three", 600),
      button("Four", [900, 300, 1080, 420]),
    ]),
    recycler("grid", [0, 500, 1080, 1000], [
      button("a", [0, 500, 540, 750]),
      button("b", [540, 500, 1080, 750]),
      button("c", [0, 750, 540, 1000]),
    ]),
    recycler("column", [0, 1000, 1080, 1400], [row("x", 1000), row("y", 1200)]),
    brands,
  ]);
  assert.deepEqual(s.scroll_areas?.map((area) => (area.axis ?? "vertical")), ["horizontal", "vertical", "vertical", "horizontal"]);
});

test("two vertical areas (a sheet's list over a scrolling page) are both listed; each selector leads back to its area", () => {
  const tree = treeOf(PAGE_AND_SHEET);
  const { summary, scrollAreaNodes } = summarizeWithNodes(tree, SCREEN);
  assert.equal(summary.scroll_areas?.length, 2);
  assert.deepEqual(summary.scroll_areas![0], { selector: { resource_id: "page" } });
  // The sheet's list has no key of its own: it is named by the shortest offered action inside it.
  assert.deepEqual(summary.scroll_areas![1], { selector: { text: "Size S" } });
  summary.scroll_areas!.forEach((area, i) => assert.equal(scrollContainerOf(tree, area.selector)?.id, scrollAreaNodes[i]));
});

test("scrollContainerOf: the nearest area around what the selector names; the largest without one", () => {
  const tree = treeOf(PAGE_AND_SHEET);
  const sheetList = tree.nodes.find((node) => node.className === "android.widget.ListView")!;
  const page = tree.nodes.find((node) => node.resourceId.endsWith("/page"))!;
  assert.equal(scrollContainerOf(tree, { text: "Size M" })?.id, sheetList.id, "a row of the sheet: the sheet's list");
  assert.equal(scrollContainerOf(tree, { text: "Deals" })?.id, page.id, "a row of the page: the page");
  assert.equal(scrollContainerOf(tree, { resource_id: "page" })?.id, page.id, "the area itself");
  assert.equal(scrollContainerOf(tree)?.id, page.id, "no selector: the largest area");
  assert.equal(scrollContainerOf(treeOf([row("A", 0)])), null, "nothing scrolls");
});

test("scrollContainerOf without a selector, for a direction: the largest area along its axis, else the largest", () => {
  const chips: N = {
    cls: "android.widget.HorizontalScrollView",
    scroll: true,
    id: "com.example.app:id/chips",
    bounds: [0, 300, 1080, 420],
    children: [chip("All", 0), chip("Shoes", 300), chip("Bags", 600)],
  };
  const tree = treeOf([chips, ...PAGE_AND_SHEET]);
  const page = tree.nodes.find((node) => node.resourceId.endsWith("/page"))!;
  const chipRow = tree.nodes.find((node) => node.resourceId.endsWith("/chips"))!;
  assert.equal(scrollContainerOf(tree, undefined, "right")?.id, chipRow.id, "sideways: the chip row, though the page is larger");
  assert.equal(scrollContainerOf(tree, undefined, "left")?.id, chipRow.id);
  assert.equal(scrollContainerOf(tree, undefined, "down")?.id, page.id, "up and down: the largest vertical area");
  const upright = treeOf(PAGE_AND_SHEET);
  const uprightPage = upright.nodes.find((node) => node.resourceId.endsWith("/page"))!;
  assert.equal(scrollContainerOf(upright, undefined, "right")?.id, uprightPage.id, "none sideways: the largest, as before");
  assert.equal(scrollContainerOf(tree, { text: "Size M" }, "right")?.id, tree.nodes.find((n) => n.className.endsWith("ListView"))!.id);
});

test("scrollContainerOf refuses, typed, what names no area: outside every area, no element, several", () => {
  const tree = treeOf([...PAGE_AND_SHEET, button("Close", [900, 1200, 1080, 1300])]);
  assert.throws(() => scrollContainerOf(tree, { text: "Close" }), (error: { code: string; message: string }) => {
    assert.equal(error.code, "UI_ELEMENT_NOT_FOUND");
    assert.match(error.message, /not inside a scrollable area \(the screen has 2\)\. Name a scroll area from the summary's scroll_areas/);
    return true;
  });
  assert.throws(() => scrollContainerOf(tree, { text: "Nowhere" }), { code: "UI_ELEMENT_NOT_FOUND" });
  assert.throws(() => scrollContainerOf(tree, { text_contains: "Size" }), { code: "UI_ELEMENT_AMBIGUOUS" });
});

test("an area inside a clickable card is named by its own id, and its items lead to it, not to the page", () => {
  const card: N = {
    cls: "android.widget.LinearLayout",
    click: true,
    desc: "Offers",
    bounds: [0, 200, 1080, 700],
    children: [{
      cls: "androidx.recyclerview.widget.RecyclerView",
      scroll: true,
      id: "com.example.app:id/offers",
      bounds: [0, 300, 1080, 600],
      children: [label("10% off", [0, 300, 500, 600]), label("Free ship", [500, 300, 1000, 600])],
    }],
  };
  const page: N = {
    cls: "android.widget.ScrollView",
    scroll: true,
    id: "com.example.app:id/page",
    bounds: [0, 0, 1080, 2400],
    children: [card, row("Help", 800)],
  };
  const tree = treeOf([page]);
  const { summary } = summarizeWithNodes(tree, SCREEN);
  assert.deepEqual(summary.scroll_areas?.[1], { selector: { resource_id: "offers" }, axis: "horizontal" });
  assert.equal(scrollContainerOf(tree, { text: "Free ship" })?.resourceId, "com.example.app:id/offers");
});

test("a Spinner clickable as well as scrollable (Gmail's From picker) is a tap target, not a scroll area", () => {
  const spinner: N = {
    cls: "android.widget.Spinner",
    click: true,
    scroll: true,
    id: "com.example.app:id/from_picker",
    bounds: [200, 250, 1080, 400],
    children: [label("sam@example.com", [200, 300, 900, 350])],
  };
  const s = summaryOf([spinner]);
  assert.deepEqual(s.actions.map((a) => [a.selector, a.label]), [[{ resource_id: "from_picker" }, "sam@example.com"]]);
  assert.equal("can_scroll" in s, false, "a picker is tapped, not scrolled");
  const pager: N = { ...spinner, cls: "androidx.viewpager.widget.ViewPager", click: false, longClick: true };
  const onlyScrolls = summaryOf([pager]);
  assert.deepEqual(onlyScrolls.actions, [], "long-clickable and scrollable: a scroll area (the launcher's card pager)");
  assert.deepEqual(onlyScrolls.scroll_areas, [{ selector: { resource_id: "from_picker" }, axis: "horizontal" }]);
});

test("any other clickable scrollable is a tap target and a scroll area: nothing that scrolls is lost", () => {
  const list: N = {
    cls: "android.widget.ListView",
    click: true,
    scroll: true,
    id: "com.example.app:id/songs",
    bounds: [0, 0, 1080, 2400],
    children: [label("Song one", [0, 0, 1080, 200]), label("Song two", [0, 200, 1080, 400])],
  };
  const tree = treeOf([list]);
  const s = summarize(tree, SCREEN);
  assert.deepEqual(s.actions.map((a) => a.selector), [{ resource_id: "songs" }]);
  assert.equal(s.can_scroll, true);
  assert.equal(scrollContainerOf(tree, { text: "Song two" })?.resourceId, "com.example.app:id/songs");
  assert.equal(scrollContainerOf(tree)?.resourceId, "com.example.app:id/songs");
});

function corpusSummary(name: string): { tree: UiTree; summary: ScreenSummary } {
  const tree = parseDump(readFileSync(join(CORPUS_DIR, name), "utf8"));
  return { tree, summary: summarize(tree, { ...screenSizeOf(tree), density: 420, keyboard: keyboardInDump(tree) }) };
}

test("real captures: Gmail's From picker is offered; chip rows, carousels sideways, grids and feeds up and down", { skip }, () => {
  const gmail = corpusSummary("gmail-compose-gboard-keyboard-open.xml").summary;
  assert.ok(gmail.actions.some((a) => a.selector.resource_id === "from_picker" && a.label === "sam@example.com"));
  const areas = (name: string) => corpusSummary(name).summary.scroll_areas ?? [];
  const axes = (name: string) => areas(name).map((area) => `${JSON.stringify(area.selector)} ${area.axis ?? "vertical"}`);
  const axesOnly = (name: string) => areas(name).map((area) => area.axis ?? "vertical");
  assert.deepEqual(
    axes("documentsui-file-picker.xml"),
    ['{"text":"Media"} vertical', '{"text":"Audio"} horizontal'],
    "the file-type chips",
  );
  assert.deepEqual(axesOnly("youtube-home-feed.xml"), ["horizontal", "vertical", "horizontal"], "filter chips, feed, shorts shelf");
  assert.ok(axes("thai-kplus-banking-home.xml").includes('{"resource_id":"recyclerView_quickBankingWidget"} horizontal'));
  assert.deepEqual(axesOnly("android-tv-philo-guide-1920x1080.xml"), ["vertical", ...Array(5).fill("horizontal")], "the guide's rows");
  const drawer = corpusSummary("launcher-transsion-xos-app-drawer.xml");
  assert.equal(drawer.summary.can_scroll, true);
  assert.equal(drawer.summary.scroll_areas, undefined, "an app grid (five icons a row) is one vertical area");
  assert.deepEqual(axesOnly("zomato-cart-appium-403-nodes.xml"), Array(5).fill("vertical"));
});
