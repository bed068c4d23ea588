/**
 * The summary's `covered_by` and the tap's `details.covered_by` on covers the first tests do not draw: a
 * scrollable sheet (no target of its own) with a long or many-line name, a nameless clickable sheet, a password
 * field, and a cover that is itself drawn under a later dialog (hand-made dumps, dump_builder.ts); then every built-in
 * scenario screen and real capture against Android's dispatch order written apart.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { coveredBy, locate, parseDump, summarize, summarizeWithNodes } from "../../src/screen/mod.ts";
import { LABEL_MAX_CHARACTERS } from "../../src/screen/node_kinds.ts";
import { coveringNode } from "../../src/screen/occlusion.ts";
import type { ScreenContext, UiNode } from "../../src/screen/types.ts";
import { BUILTIN_SCENARIOS, ScenarioDevice } from "../../src/sim/mod.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";
import { button, dump, type N } from "./dump_builder.ts";

const skip = corpusSkipReason();

const CONTEXT = { width: 1080, height: 2400, keyboard: { open: false as const } };

/** A page with two rows and a sheet (`sheet`) drawn over its lower half; `later` are drawn after both. */
function screen(sheet: Partial<N>, later: N[] = []): string {
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
        },
        { cls: "android.widget.LinearLayout", order: 2, bounds: [0, 1200, 1080, 2400], ...sheet },
        ...later,
      ],
    },
  ]);
}

/** What the summary says covers `text`, and what ui_tap's refusal would name. */
function covers(xml: string, text: string): { said: string | undefined; tap: string | undefined } {
  const tree = parseDump(xml);
  const said = summarize(tree, CONTEXT).actions.find((a) => a.selector.text === text)?.covered_by;
  return { said, tap: coveredBy(tree, locate(tree, { text }))?.label };
}

const LONG = "Lorem ipsum dolor sit amet ".repeat(30).trim();

test("a cover's name is a label: one line, at most 80 characters, though the cover is a scrollable with a long text or description", () => {
  for (const sheet of [{ scroll: true, desc: LONG }, { scroll: true, text: `First line\nsecond ${LONG}` }]) {
    const { said, tap } = covers(screen(sheet), "Low row");
    assert.ok(said !== undefined, "the row is covered");
    assert.ok([...said].length <= LABEL_MAX_CHARACTERS, `${[...said].length} characters: ${said}`);
    assert.doesNotMatch(said, /\n/);
    assert.equal(tap, said, "the tap names the cover as the summary did");
  }
});

test("a nameless clickable sheet, or a password field, is named the same by the summary and by the tap, never by a password's text", () => {
  const nameless = covers(screen({ click: true, children: [] }), "Low row");
  assert.ok(nameless.said !== undefined && nameless.said !== "", JSON.stringify(nameless));
  assert.equal(nameless.tap, nameless.said);
  const field: N = { cls: "android.widget.EditText", text: "hunter2secret", password: true, click: true, bounds: [0, 1700, 1080, 2100] };
  const password = covers(screen({ children: [field] }), "Low row");
  assert.ok(password.said !== undefined && password.said !== "", JSON.stringify(password));
  assert.equal(password.tap, password.said);
  assert.doesNotMatch(`${password.said} ${password.tap}`, /hunter2/);
});

test("a cover drawn under a later dialog is not the cover: the dialog takes the tap, and both the summary and the tap name it", () => {
  const sheet = { children: [button("Size", [0, 1700, 1080, 2100])] };
  const dialog: N = {
    cls: "android.widget.FrameLayout",
    order: 3,
    bounds: [0, 1500, 1080, 2400],
    children: [button("OK", [0, 1500, 1080, 2400])],
  };
  assert.deepEqual(covers(screen(sheet, [dialog]), "Low row"), { said: "OK", tap: "OK" });
  const scrim: N = { cls: "android.widget.FrameLayout", order: 3, click: true, desc: "Dismiss", bounds: [0, 0, 1080, 2400] };
  assert.deepEqual(covers(screen(sheet, [scrim]), "Low row"), { said: "Dismiss", tap: "Dismiss" });
  assert.deepEqual(covers(screen(sheet), "Low row"), { said: "Size", tap: "Size" }, "without the dialog, the sheet's option");
});

/** Android's own dispatch, written apart from occlusion.ts: from the window's root, each group hands the touch to its
 * children in reverse drawing order, and the first view under the point that takes touches keeps it. "unknown" when
 * a group with several children does not say their order. */
function dispatched(nodes: readonly UiNode[], node: UiNode, x: number, y: number): UiNode | null | "unknown" {
  const b = node.bounds;
  if (b === null || x < b.left || x >= b.right || y < b.top || y >= b.bottom) return null;
  const children = nodes.filter((c) => c.parent === node.id);
  // A DrawerLayout with a drawer shown (any child but the first, its content) takes a touch on its content itself
  // (onInterceptTouchEvent while the scrim shows), said by the drawer; a touch on a drawer goes to it.
  const drawers = /DrawerLayout$/.test(node.className) ? children.slice(1).filter((c) => c.visible && c.bounds !== null) : [];
  const onDrawer = drawers.some((d) => x >= d.bounds!.left && x < d.bounds!.right && y >= d.bounds!.top && y < d.bounds!.bottom);
  if (drawers.length > 0 && !onDrawer) return drawers.at(-1)!;
  if (children.length > 1 && children.some((c) => (c.drawingOrder ?? 0) <= 0)) return "unknown";
  for (const child of children.sort((p, q) => q.drawingOrder! - p.drawingOrder!)) {
    const hit = dispatched(nodes, child, x, y);
    if (hit !== null) return hit;
  }
  return node.visible && (node.clickable || node.longClickable || node.scrollable) ? node : null;
}

function screensToCheck(): { name: string; xml: string; context: ScreenContext }[] {
  const screens = Object.entries(BUILTIN_SCENARIOS).flatMap(([name, scenario]) =>
    Object.keys(scenario.screens).map((id) => {
      const device = new ScenarioDevice({ ...scenario, start: id });
      return { name: `${name}/${id}`, xml: device.hierarchyXml(), context: { ...CONTEXT, keyboard: device.keyboard() } };
    })
  );
  if (skip !== false) return screens;
  const files = readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".xml")).sort();
  return [...screens, ...files.map((f) => ({ name: f, xml: readFileSync(join(CORPUS_DIR, f), "utf8"), context: CONTEXT }))];
}

test("on every built-in scenario screen and capture, each covered_by names the view Android's dispatch hands the touch to", () => {
  const said = { corpus: 0, sim: 0 };
  for (const { name, xml, context } of screensToCheck()) {
    const tree = parseDump(xml);
    const { summary, actionNodes } = summarizeWithNodes(tree, context);
    summary.actions.forEach((action, at) => {
      if (action.covered_by === undefined) return;
      said[name.endsWith(".xml") ? "corpus" : "sim"]++;
      const node = tree.nodes[actionNodes[at]!]!;
      let root = node;
      while (root.parent !== null) root = tree.nodes[root.parent]!;
      const b = node.bounds!;
      const hit = dispatched(tree.nodes, root, (b.left + b.right) >> 1, (b.top + b.bottom) >> 1);
      assert.equal(hit, coveringNode(tree, node), `${name}: ${JSON.stringify(action.selector)} under ${action.covered_by}`);
      assert.equal(coveredBy(tree, locate(tree, action.selector))?.label, action.covered_by, `${name}: the tap names it so`);
    });
  }
  assert.equal(said.corpus, skip === false ? 11 : 0, "the 11 the corpus census counts (occlusion.test.ts)");
  assert.ok(said.sim > 0, "the shop's filter sheet and cart drawer cover rows: the check ran");
});

test("a nameless clickable sheet around its own options covers a row by its empty part: named, no selector the summary lacks", () => {
  const sheet = { click: true, children: [button("Size", [0, 1200, 1080, 1400]), button("Color", [0, 1400, 1080, 1600])] };
  const tree = parseDump(screen(sheet));
  const cover = coveredBy(tree, locate(tree, { text: "Low row" }));
  const said = summarize(tree, CONTEXT).actions;
  assert.equal(cover?.label, said.find((a) => a.selector.text === "Low row")?.covered_by);
  if (cover?.selector !== undefined) {
    assert.ok(said.some((a) => JSON.stringify(a.selector) === JSON.stringify(cover.selector)), JSON.stringify(cover));
  }
});
