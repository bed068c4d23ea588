/**
 * Where a screen scrolls (SPEC §5, issue 16): its scroll areas (on-screen scrollable nodes but pickers),
 * the selector the summary offers for each (with its axis, scroll_axis.ts), and
 * `scrollContainerOf`: a selector naming an area or anything inside it → that area's node (what
 * `ui_scroll.container` resolves through). Pure.
 */
import { isAcceptableSelectorValue } from "../../contracts/selector_names.ts";
import { HarnessError } from "../errors.ts";
import { locate } from "./locate.ts";
import { candidateKeys, chooseSelector, type WithinBudget, withinBudget } from "./choose_selector.ts";
import { area, labelFrom, ownName } from "./node_kinds.ts";
import { analyzeScreen, type ScreenAnalysis } from "./screen_analysis.ts";
import { keyOf, matchInAnalysis, rawMatches } from "./selector_match.ts";
import { scrollAxisOf } from "./scroll_axis.ts";
import type { ScreenSummary, ScrollArea, ScrollAxis, Selector, UiNode, UiTree } from "./types.ts";

/** A ui_scroll direction (toward the content to show). */
export type ScrollDirection = "up" | "down" | "left" | "right";
import { memoizedBy } from "./memo.ts";

/**
 * A Spinner reports `scrollable` (an AdapterView's flag) but is a picker: a tap opens its list, nothing
 * scrolls in place (Gmail's From account picker). Any other clickable scrollable is a target and an area.
 */
const PICKER_CLASS = /Spinner$/;

/** The scroll areas' node ids in document order: on screen, scrollable, not a picker. */
export const scrollAreaIds: (analysis: ScreenAnalysis) => number[] = memoizedBy((analysis) =>
  analysis.tree.nodes
    .filter((node) => node.scrollable && analysis.onScreen[node.id] && !PICKER_CLASS.test(node.className))
    .map((node) => node.id)
);

const scrollAreaSet = memoizedBy((analysis: ScreenAnalysis) => new Set(scrollAreaIds(analysis)));

/** The scroll area at or above node `id` (the nearest), or -1. */
export function enclosingScrollArea(analysis: ScreenAnalysis, id: number): number {
  const areas = scrollAreaSet(analysis);
  for (let at: number | null = id; at !== null; at = analysis.tree.nodes[at]!.parent) if (areas.has(at)) return at;
  return -1;
}

/**
 * The default container: the largest scroll area (the first of equals in document order) that scrolls
 * along `axis` when one does, else the largest of all; -1 when nothing scrolls.
 */
export function largestScrollArea(analysis: ScreenAnalysis, axis?: ScrollAxis): number {
  const ids = scrollAreaIds(analysis);
  const along = axis === undefined ? [] : ids.filter((id) => scrollAxisOf(analysis, id) === axis);
  let best = -1;
  for (const id of along.length > 0 ? along : ids) {
    if (best === -1 || area(analysis.tree.nodes[id]!.bounds) > area(analysis.tree.nodes[best]!.bounds)) best = id;
  }
  return best;
}

/**
 * The area `selector` stands for: the nearest scroll area at or above the node it matched (the first
 * matching node inside the one element it names, so an area's own id names that area even inside a
 * clickable card); -1 when it names no element or several, or lies in no area.
 */
function areaNamedBy(analysis: ScreenAnalysis, selector: Selector): number {
  const match = matchInAnalysis(analysis, selector);
  if (match.entities.length !== 1 || match.tier === "none") return -1;
  const element = match.entities[0]!;
  const [key, value] = keyOf(selector);
  const matched = rawMatches(analysis, key, value, match.tier).find((id) => analysis.entityOf[id] === element) ?? element;
  return enclosingScrollArea(analysis, matched);
}

/**
 * The scroll container a selector means: the nearest scroll area at or above the element it names
 * (the area itself, or anything inside it); without a selector, the largest scroll area along the axis
 * of `direction` (left/right: horizontal, up/down: vertical) when one scrolls that way, else the largest
 * scroll area, or null when nothing on screen scrolls. Throws UI_ELEMENT_NOT_FOUND / UI_ELEMENT_AMBIGUOUS as the locator does, and
 * UI_ELEMENT_NOT_FOUND when the element lies in no scroll area.
 */
export function scrollContainerOf(tree: UiTree, selector?: Selector, direction?: ScrollDirection): UiNode | null {
  const analysis = analyzeScreen(tree);
  if (selector === undefined) {
    const axis = direction === undefined ? undefined : direction === "left" || direction === "right" ? "horizontal" : "vertical";
    const largest = largestScrollArea(analysis, axis);
    return largest === -1 ? null : tree.nodes[largest]!;
  }
  if (matchInAnalysis(analysis, selector).entities.length !== 1) return locateFailure(tree, selector);
  const at = areaNamedBy(analysis, selector);
  if (at !== -1) return tree.nodes[at]!;
  const count = scrollAreaIds(analysis).length;
  throw new HarnessError(
    "UI_ELEMENT_NOT_FOUND",
    `${JSON.stringify(selector)} names an element that is not inside a scrollable area (the screen has ${count === 0 ? "none" : count}). ` +
      `Name a scroll area from the summary's scroll_areas, or leave container out to scroll the largest one.`,
    { selector, scroll_areas: count },
  );
}

/** The locator's own error for a selector that names no element or several. */
function locateFailure(tree: UiTree, selector: Selector): never {
  locate(tree, selector);
  throw new TypeError(`${JSON.stringify(selector)} was located but matchInAnalysis named no single element`);
}

/**
 * The summary's entry for each scroll area, with the node it was offered for. Its selector names the
 * area itself when a key of its own does (chooseSelector: unique key, `within`, `index`), else the shortest
 * offered action's inside it, else the first text inside it that names one element, each checked to lead
 * back to this area through `scrollContainerOf`; an area nothing names is left out. `label` is the
 * area's own readable name, left out when the selector already says it; `axis` is written only when horizontal.
 */
export function scrollAreasOf(
  analysis: ScreenAnalysis,
  offered: { selector: Selector; node: number }[],
  budget: WithinBudget = withinBudget(),
): { areas: ScrollArea[]; nodes: number[] } {
  const areas: ScrollArea[] = [];
  const nodes: number[] = [];
  for (const id of scrollAreaIds(analysis)) {
    const selector = areaSelector(analysis, id, offered, budget);
    if (selector === null) continue;
    const name = labelFrom(ownName(analysis.tree.nodes[id]!));
    const [key, value] = keyOf(selector);
    const said = key !== "role" && labelFrom(value) === name;
    const sideways = scrollAxisOf(analysis, id) === "horizontal";
    areas.push({ selector, ...(sideways ? { axis: "horizontal" as const } : {}), ...(name !== "" && !said ? { label: name } : {}) });
    nodes.push(id);
  }
  return { areas, nodes };
}

function areaSelector(
  analysis: ScreenAnalysis,
  id: number,
  offered: { selector: Selector; node: number }[],
  budget: WithinBudget,
): Selector | null {
  const own = analysis.entities.get(analysis.entityOf[id]!);
  if (own !== undefined && candidateKeys(analysis, own).length > 0) {
    const selector = own.root === id ? chooseSelector(analysis, own, budget) : ownKeyOf(analysis, id);
    if (selector !== null && areaNamedBy(analysis, selector) === id) return selector;
  }
  let shortest: Selector | null = null;
  for (const action of offered) {
    if (enclosingScrollArea(analysis, action.node) !== id || areaNamedBy(analysis, action.selector) !== id) continue;
    if (shortest === null || JSON.stringify(action.selector).length < JSON.stringify(shortest).length) shortest = action.selector;
  }
  if (shortest !== null) return shortest;
  const last = lastDescendant(analysis.tree, id);
  for (let at = id + 1, looked = 0; at <= last && looked < TEXTS_LOOKED_AT; at++) {
    const entity = analysis.entities.get(at);
    if (entity === undefined || entity.target || enclosingScrollArea(analysis, at) !== id) continue;
    looked += 1;
    for (const key of candidateKeys(analysis, entity)) {
      if (areaNamedBy(analysis, key) === id) return key;
    }
  }
  return null;
}

/** How many plain elements inside an area are tried as its name when no key of its own and no action names it. */
const TEXTS_LOOKED_AT = 200;

/** An area inside a target (a clickable card holding a carousel): its own resource id or content-desc, when one names it. */
function ownKeyOf(analysis: ScreenAnalysis, id: number): Selector | null {
  const node = analysis.tree.nodes[id]!;
  const short = node.resourceId.includes(":id/") ? node.resourceId.slice(node.resourceId.indexOf(":id/") + 4) : "";
  for (const selector of [{ resource_id: short }, { resource_id: node.resourceId }, { content_desc: node.contentDesc }]) {
    const value = Object.values(selector)[0]!;
    if (value.trim() !== "" && isAcceptableSelectorValue(value) && areaNamedBy(analysis, selector) === id) return selector;
  }
  return null;
}

function lastDescendant(tree: UiTree, id: number): number {
  let at = id;
  while (tree.nodes[at]!.children.length > 0) at = tree.nodes[at]!.children[tree.nodes[at]!.children.length - 1]!;
  return at;
}

/**
 * The summary's scroll fields: `can_scroll` when any scroll area is on screen; `scroll_areas` (with the
 * node each entry stands for) when there are two or more, or the only one scrolls sideways.
 */
export function scrollFields(
  analysis: ScreenAnalysis,
  offered: { selector: Selector; node: number }[],
  budget: WithinBudget,
): { fields: Pick<ScreenSummary, "can_scroll" | "scroll_areas">; nodes: number[] } {
  const ids = scrollAreaIds(analysis);
  if (ids.length === 0) return { fields: {}, nodes: [] };
  if (ids.length === 1 && scrollAxisOf(analysis, ids[0]!) === "vertical") return { fields: { can_scroll: true }, nodes: [] };
  const { areas, nodes } = scrollAreasOf(analysis, offered, budget);
  return { fields: { can_scroll: true, ...(areas.length > 0 ? { scroll_areas: areas } : {}) }, nodes };
}
