/**
 * The round-trip law on every real capture of the shared corpus (SPEC §5): each selector the summary
 * offers resolves through the locator to exactly the node it was offered for, and an `index` is offered
 * only as the last resort (SPEC §6): no key of the element's subtree (nor its role), alone or with a
 * `within` naming an ancestor by its own key or an enclosing target by any of its members' keys, names
 * it alone (brute force). Each listed scroll area's selector leads back, through `scrollContainerOf`, to
 * exactly that area, and every offered action's selector to the nearest scroll area around its element.
 * Skipped, with the reason, when the corpus is missing.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { keyboardInDump, locate, parseDump, screenSizeOf, scrollContainerOf, summarizeWithNodes } from "../../src/screen/mod.ts";
import type { Selector, SelectorKeyValue, UiNode, UiTree } from "../../src/screen/types.ts";
import { analyzeScreen } from "../../src/screen/screen_analysis.ts";
import { isReadable } from "../../src/screen/node_kinds.ts";
import { matchSelector } from "../../src/screen/selector_match.ts";
import { scrollAreaIds } from "../../src/screen/scroll_areas.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";

const skip = corpusSkipReason();
const captures = skip === false && existsSync(CORPUS_DIR) ? readdirSync(CORPUS_DIR).filter((name) => name.endsWith(".xml")).sort() : [];

function summaryOf(tree: UiTree) {
  return summarizeWithNodes(tree, { ...screenSizeOf(tree), density: 420, keyboard: keyboardInDump(tree) });
}

function keysOf(node: UiNode): SelectorKeyValue[] {
  const keys: SelectorKeyValue[] = [];
  if (node.resourceId !== "") {
    keys.push({ resource_id: node.resourceId });
    const at = node.resourceId.indexOf(":id/");
    if (at > 0) keys.push({ resource_id: node.resourceId.slice(at + 4) });
  }
  // Words only: an icon-font glyph (private-use characters) is never offered, so it may name an element offered by index.
  if (isReadable(node.text)) keys.push({ text: node.text });
  if (isReadable(node.contentDesc)) keys.push({ content_desc: node.contentDesc });
  if (isReadable(node.hint)) keys.push({ input_hint: node.hint });
  return keys;
}

function subtree(tree: UiTree, root: number): UiNode[] {
  const out: UiNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = tree.nodes[stack.pop()!]!;
    out.push(node);
    stack.push(...node.children);
  }
  return out;
}

/** The locator's matching core (what `locate` decides on, without building error messages). */
function namesExactly(tree: UiTree, selector: Selector, id: number): boolean {
  const match = matchSelector(tree, selector);
  return match.entities.length === 1 && match.entities[0] === id;
}

test("the corpus is present and holds the 38 captures", { skip }, () => {
  assert.equal(captures.length, 38);
});

for (const name of captures) {
  test(`round-trip law: ${name}`, () => {
    const tree = parseDump(readFileSync(join(CORPUS_DIR, name), "utf8"));
    const { summary, actionNodes } = summaryOf(tree);
    summary.actions.forEach((action, i) => {
      const id = actionNodes[i]!;
      const found = locate(tree, action.selector);
      assert.equal(found.node.id, id, `${name}: ${JSON.stringify(action.selector)} resolved to node ${found.node.id}, offered for ${id}`);
      const { left, top, width, height } = found.bounds;
      assert.deepEqual([left, top, width, height], action.bounds);
      if (action.selector.index === undefined) return;
      // Every key that can name a scope holding the element: an ancestor's own keys, and the keys of
      // every member of a target that encloses it.
      const analysis = analyzeScreen(tree);
      const ancestors: SelectorKeyValue[] = [];
      for (let at = tree.nodes[id]!.parent; at !== null; at = tree.nodes[at]!.parent) {
        ancestors.push(...keysOf(tree.nodes[at]!));
        const entity = analysis.entities.get(at);
        if (entity?.target) { for (const member of entity.members) ancestors.push(...keysOf(tree.nodes[member]!)); }
      }
      const keys = [...subtree(tree, id).flatMap(keysOf), { role: action.role ?? "button" } as SelectorKeyValue];
      for (const key of keys) {
        assert.ok(!namesExactly(tree, key, id), `${name}: index offered but ${JSON.stringify(key)} names it`);
        for (const within of ancestors) {
          const selector = { ...key, within };
          assert.ok(!namesExactly(tree, selector, id), `${name}: index offered but ${JSON.stringify(selector)} names it`);
        }
      }
    });
  });
}

for (const name of captures) {
  test(`round-trip law, scroll areas: ${name}`, () => {
    const tree = parseDump(readFileSync(join(CORPUS_DIR, name), "utf8"));
    const { summary, actionNodes, scrollAreaNodes } = summaryOf(tree);
    const areas = new Set(scrollAreaIds(analyzeScreen(tree)));
    const listed = summary.scroll_areas ?? [];
    assert.equal(listed.length, scrollAreaNodes.length);
    listed.forEach((area, i) => {
      const found = scrollContainerOf(tree, area.selector);
      const offeredFor = scrollAreaNodes[i];
      assert.equal(
        found?.id,
        offeredFor,
        `${name}: ${JSON.stringify(area.selector)} leads to ${found?.id}, offered for area ${offeredFor}`,
      );
    });
    if (areas.size === 1 && listed.length === 0) assert.equal(summary.can_scroll, true);
    summary.actions.forEach((action, i) => {
      const root = actionNodes[i]!;
      let around: number | null = null;
      for (let at: number | null = root; at !== null && around === null; at = tree.nodes[at]!.parent) if (areas.has(at)) around = at;
      // The node the selector matched may lie in an area inside the action's element (a card holding a carousel):
      // the area found is the one around the element, or one inside the element; with neither, a typed refusal.
      let found: number | null = null;
      try {
        found = scrollContainerOf(tree, action.selector)!.id;
      } catch (error) {
        assert.equal((error as { code?: string }).code, "UI_ELEMENT_NOT_FOUND");
      }
      const shown = JSON.stringify(action.selector);
      if (found === null) return assert.equal(around, null, `${name}: ${shown} refused, but area ${around} holds it`);
      let inside = false;
      for (let at: number | null = found; at !== null && !inside; at = tree.nodes[at]!.parent) inside = at === around || at === root;
      assert.ok(inside, `${name}: ${shown} leads to area ${found}, neither ${around} nor inside its element`);
    });
  });
}
