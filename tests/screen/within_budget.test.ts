/**
 * The bound on `within` searches (WITHIN_SEARCH_STEPS): on a list of rows that each hold a unique title
 * and an identical "More" button, the buttons are separated by their row's title while the budget
 * lasts; once it is spent, the remaining buttons get their `index` (still naming each alone, never a
 * wrong or ambiguous selector), and keys that are unique alone are still offered. The default budget
 * covers such a list whole.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { locate, parseDump, summarizeWithNodes } from "../../src/screen/mod.ts";
import { button, dump, label, type N, SCREEN } from "./dump_builder.ts";

function rows(count: number): N[] {
  return Array.from({ length: count }, (_, i): N => ({
    cls: "android.widget.LinearLayout",
    click: true,
    bounds: [0, i * 20, 1080, i * 20 + 20],
    children: [label(`Row ${i}`, [0, i * 20, 500, i * 20 + 20]), button("More", [900, i * 20, 1080, i * 20 + 20])],
  }));
}

test("within searches stop at the budget: later identical buttons get their index, unique keys still offered", () => {
  const tree = parseDump(dump(rows(40)));
  const { summary, actionNodes } = summarizeWithNodes(tree, SCREEN, { withinSearchSteps: 40 });
  const more = summary.actions.filter((action) => action.selector.text === "More");
  const titled = summary.actions.filter((action) => action.selector.text?.startsWith("Row "));
  assert.equal(more.length, 40);
  assert.equal(titled.length, 40, "each row is offered by its unique title, budget or not");
  assert.ok(titled.every((action) => action.selector.within === undefined && action.selector.index === undefined));
  const separated = more.filter((action) => action.selector.within !== undefined);
  assert.ok(separated.length > 0, "the budget allows the first searches");
  assert.ok(separated.length < 40, "the budget is spent before the last rows");
  // Separated entries come first (document order); every later one is named by its index, without a within.
  more.forEach((action, i) => {
    assert.deepEqual(action.selector, i < separated.length ? { text: "More", within: { text: `Row ${i}` } } : { text: "More", index: i });
    const id = actionNodes[summary.actions.indexOf(action)]!;
    assert.equal(locate(tree, action.selector).node.id, id, "every offered selector still resolves to its button");
  });
});

test("the default budget separates every button of a 500-row list", () => {
  const { summary } = summarizeWithNodes(parseDump(dump(rows(500))), SCREEN);
  const more = summary.actions.filter((action) => action.selector.text === "More");
  assert.equal(more.length, 500);
  assert.ok(more.every((action, i) => action.selector.index === undefined && action.selector.within?.text === `Row ${i}`));
});
