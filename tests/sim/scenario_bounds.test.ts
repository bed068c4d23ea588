/**
 * The built-in scenarios' screens as a real dump has views: Android clips a view's bounds to its parents'
 * (getBoundsInScreen), so a row scrolled half under a tab bar is dumped with only its visible part, and its
 * centre, where UiAutomator2 taps, is in the clear (a WebView's or Compose's virtual nodes are not clipped so;
 * the built-in screens have none). A row drawn past its list's edge made the Flutter history's
 * last row look covered by the tab bar (ui_tap refused it, R42) where a phone taps the row. Every screen's
 * tappable targets covered by another view (src/screen/occlusion.ts) are the shop's filter sheet's and what lies
 * under its open cart drawer, by design. A search results screen is dumped as the device shows it: filtered by its
 * field's text (empty at first: every row that fits).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseDump } from "../../src/screen/mod.ts";
import { coveringNode } from "../../src/screen/occlusion.ts";
import { analyzeScreen } from "../../src/screen/screen_analysis.ts";
import type { UiTree } from "../../src/screen/types.ts";
import { readDump, writeDump } from "../../src/sim/scenario/dump_xml.ts";
import { filterRows } from "../../src/sim/scenario/list_rows.ts";
import { nodeFromSpec } from "../../src/sim/scenario/sim_node.ts";
import { BUILTIN_SCENARIOS } from "../../src/sim/scenarios/mod.ts";

function* builtinScreens(): Generator<[string, UiTree]> {
  for (const [name, scenario] of Object.entries(BUILTIN_SCENARIOS)) {
    for (const [id, spec] of Object.entries(scenario.screens)) {
      const roots = spec.root !== undefined ? [nodeFromSpec(spec.root, spec.package)] : readDump(spec.xml ?? "").roots;
      if (spec.filter !== undefined) filterRows(roots, spec.filter, "");
      yield [`${name}/${id}`, parseDump(writeDump(roots))];
    }
  }
}

test("every node of every built-in screen lies within its parent's bounds, as Android dumps views", () => {
  const outside: string[] = [];
  for (const [screen, tree] of builtinScreens()) {
    for (const n of tree.nodes) {
      const p = n.parent === null ? null : tree.nodes[n.parent]!.bounds;
      const b = n.bounds;
      if (p == null || b === null) continue;
      if (b.left < p.left || b.top < p.top || b.right > p.right || b.bottom > p.bottom) {
        outside.push(`${screen}: '${n.text || n.contentDesc}' ${JSON.stringify(b)} in ${JSON.stringify(p)}`);
      }
    }
  }
  assert.deepEqual(outside, []);
});

test("the only covered targets on the built-in screens are the shop's rows under its filter sheet and its cart drawer (R42)", () => {
  const covered: string[] = [];
  const underDrawer: string[] = [];
  for (const [screen, tree] of builtinScreens()) {
    for (const entity of analyzeScreen(tree).listed) {
      const cover = entity.target ? coveringNode(tree, tree.nodes[entity.root]!) : null;
      if (cover === null) continue;
      if (cover.resourceId === "com.example.shop:id/cart_drawer") underDrawer.push(`${screen}: '${entity.label}'`);
      else covered.push(`${screen}: '${entity.label}' under '${cover.text || cover.resourceId.replace(/^.*\//, "")}'`);
    }
  }
  // The open drawer (clickable: it keeps the taps made in it) is over the toolbar's buttons and the list's photos.
  assert.deepEqual(underDrawer.filter((e) => e.startsWith("shop/cart:")), [
    "shop/cart: 'Filters'",
    "shop/cart: 'Cart'",
    "shop/cart: 'Canvas sneakers photo'",
    "shop/cart: 'Rain jacket photo'",
    "shop/cart: 'Wool beanie photo'",
    "shop/cart: 'Leather wallet photo'",
    "shop/cart: 'Running shorts photo'",
  ]);
  assert.ok(underDrawer.every((e) => /^shop\/cart(_\d)?: /.test(e)), JSON.stringify(underDrawer));
  // The modal sheet (clickable: it takes the touches on its surface) covers the row whose centre lies on it between its
  // options; its options cover the row under them.
  assert.deepEqual(covered, [
    "shop/filters: 'Leather wallet photo' under 'design_bottom_sheet'",
    "shop/filters: 'Running shorts photo' under 'Size'",
    "shop/filters_sheet_2: 'Leather wallet photo' under 'design_bottom_sheet'",
    "shop/filters_sheet_2: 'Running shorts photo' under 'Delivery'",
    "shop/filters_page_2: 'Sunglasses photo' under 'design_bottom_sheet'",
    "shop/filters_page_2: 'Water bottle photo' under 'Size'",
  ]);
});
