/**
 * Selector + tree → the distinct elements it names. Only on-screen nodes match. Exact matches win: the
 * partial tier is tried only when nothing matches exactly. A matching node stands for its entity (the
 * text inside a row names the row), so several matches inside one element count once. `role` names the
 * listed targets of that role. `within` keeps matches that lie strictly inside a node the `within` key
 * names, or inside the target that node belongs to. `index` then picks one element of what the rest
 * names, in reading (document) order. Pure; never throws.
 */
import { SELECTOR_KEY_NAMES, type TextKey } from "../../contracts/selector_names.ts";
import { analyzeScreen, type ScreenAnalysis } from "./screen_analysis.ts";
import type { Selector, SelectorKey, SelectorKeyValue, UiNode, UiTree } from "./types.ts";
import { memoizedBy } from "./memo.ts";

/** The keys that name an attribute of a node exactly (text_contains reads text and content-desc; role reads the analysis). */
export type AttributeKey = Exclude<TextKey, "text_contains">;

/** The node attribute each attribute key reads; typed over the key list, so a new key cannot be left out. */
export const KEY_ATTRIBUTE: Readonly<Record<AttributeKey, (node: UiNode) => string>> = {
  resource_id: (node) => node.resourceId,
  text: (node) => node.text,
  content_desc: (node) => node.contentDesc,
  input_hint: (node) => node.hint,
};
const ATTRIBUTE_KEYS = Object.keys(KEY_ATTRIBUTE) as AttributeKey[];

export interface SelectorMatch {
  tier: "exact" | "partial" | "none";
  /** Entity root ids, in document order, each once. */
  entities: number[];
  /** With an `index`: how many elements the rest of the selector names (the index must be below it). */
  beforeIndex?: number;
}

export function matchSelector(tree: UiTree, selector: Selector): SelectorMatch {
  return matchInAnalysis(analyzeScreen(tree), selector);
}

export function matchInAnalysis(analysis: ScreenAnalysis, selector: Selector): SelectorMatch {
  const named = selector.within === undefined ? keyMatch(analysis, selector) : withinMatch(analysis, selector, selector.within);
  if (selector.index === undefined) return named;
  const picked = named.entities[selector.index];
  return picked === undefined
    ? { tier: "none", entities: [], beforeIndex: named.entities.length }
    : { tier: named.tier, entities: [picked], beforeIndex: named.entities.length };
}

/** Position of element `root` among what `selector` (without an index) names, or -1. */
export function indexOf(analysis: ScreenAnalysis, selector: Selector, root: number): number {
  const { within: _within, index: _index, ...bare } = selector;
  const named = selector.within === undefined ? keyMatch(analysis, bare) : withinMatch(analysis, bare, selector.within);
  const at = lowerBound(named.entities, root);
  return named.entities[at] === root ? at : -1;
}

function withinMatch(analysis: ScreenAnalysis, selector: SelectorKeyValue, within: SelectorKeyValue): SelectorMatch {
  const [key, value] = keyOf(selector);
  const scope = scopeIntervals(analysis, within);
  for (const tier of ["exact", "partial"] as const) {
    const entities = new Set<number>();
    forEachInScope(tierMatches(analysis, key, value, tier), scope, (id) => {
      entities.add(analysis.entityOf[id]!);
      return true;
    });
    if (entities.size > 0) return { tier, entities: [...entities].sort((a, b) => a - b) };
  }
  return { tier: "none", entities: [] };
}

/**
 * Whether `selector` names element `root` and nothing else: the same decision as
 * `matchInAnalysis(...).entities` being `[root]`, but it stops at the first match outside `root`.
 * `work.steps` is charged one per scope interval and per match looked at.
 */
export function namesOnlyEntity(analysis: ScreenAnalysis, selector: Selector, root: number, work?: { steps: number }): boolean {
  if (selector.within === undefined || selector.index !== undefined) {
    const match = matchInAnalysis(analysis, selector);
    return match.entities.length === 1 && match.entities[0] === root;
  }
  const [key, value] = keyOf(selector);
  const scope = scopeIntervals(analysis, selector.within);
  for (const tier of ["exact", "partial"] as const) {
    let found = false;
    let onlyRoot = true;
    const looked = forEachInScope(tierMatches(analysis, key, value, tier), scope, (id) => {
      found = true;
      onlyRoot = analysis.entityOf[id] === root;
      return onlyRoot;
    });
    if (work !== undefined) work.steps += looked;
    if (found) return onlyRoot;
  }
  return false;
}

/** A selector without `within`, matched once per analysis (the summary asks the same key many times); the answer is frozen. */
function keyMatch(analysis: ScreenAnalysis, selector: SelectorKeyValue): SelectorMatch {
  const [key, value] = keyOf(selector);
  const memo = memoOf(analysis).keys;
  const signature = `${key}\u0000${value}`;
  let match = memo.get(signature);
  if (match === undefined) {
    match = { tier: "none", entities: [] };
    for (const tier of ["exact", "partial"] as const) {
      const raw = tierMatches(analysis, key, value, tier);
      if (raw.length === 0) continue;
      match = { tier, entities: Object.freeze([...new Set(raw.map((id) => analysis.entityOf[id]!))].sort((a, b) => a - b)) as number[] };
      break;
    }
    memo.set(signature, Object.freeze(match));
  }
  return match; // shared and frozen: the summary asks the same key once per target
}

/** rawMatches, remembered per analysis. */
function tierMatches(analysis: ScreenAnalysis, key: SelectorKey, value: string, tier: "exact" | "partial"): number[] {
  if (tier === "exact" && key !== "text_contains") return rawMatches(analysis, key, value, tier); // an index lookup already
  const memo = memoOf(analysis).raw;
  const signature = `${tier}\u0000${key}\u0000${value}`;
  let raw = memo.get(signature);
  if (raw === undefined) {
    raw = rawMatches(analysis, key, value, tier);
    memo.set(signature, raw);
  }
  return raw;
}

interface MatchMemo {
  keys: Map<string, SelectorMatch>;
  raw: Map<string, number[]>;
  scopes: Map<string, Interval[]>;
  /** For each node id: the id of its last descendant (itself when it has none); ids are in document order. */
  lastDescendant: number[] | null;
}
const memoOf = memoizedBy((_: ScreenAnalysis): MatchMemo => ({ keys: new Map(), raw: new Map(), scopes: new Map(), lastDescendant: null }));

/** The single key of a validated selector (or of a `within`). */
export function keyOf(selector: SelectorKeyValue): [SelectorKey, string] {
  for (const key of SELECTOR_KEY_NAMES) {
    const value = selector[key];
    if (value !== undefined) return [key, value];
  }
  throw new TypeError("selector without a key; validate it with validateSelector first");
}

/** On-screen nodes matching one key (the raw nodes, before grouping into entities), in document order. */
export function rawMatches(analysis: ScreenAnalysis, key: SelectorKey, value: string, tier: "exact" | "partial"): number[] {
  if (key === "role") return tier === "exact" ? roleIndex(analysis).get(value) ?? [] : [];
  const index = exactIndex(analysis);
  if (tier === "exact") {
    if (key === "text_contains") return unionSorted(index.text.get(value), index.content_desc.get(value));
    return index[key].get(value) ?? [];
  }
  if (key === "text_contains") {
    const wanted = normalize(value);
    return analysis.tree.nodes
      .filter((node) =>
        analysis.onScreen[node.id] && (normalize(node.text).includes(wanted) || normalize(node.contentDesc).includes(wanted))
      )
      .map((node) => node.id);
  }
  if (key === "resource_id" && value.includes("/")) {
    return analysis.tree.nodes.filter((node) => analysis.onScreen[node.id] && node.resourceId.endsWith(`/${value}`)).map((node) => node.id);
  }
  // resource_id: the part after the last "/" (`pkg:id/send` → `send`); words: ignoring case and runs of
  // white space, the whole value or one of its lines.
  return partialIndex(analysis)[key].get(key === "resource_id" ? value : normalize(value)) ?? [];
}

type AttributeIndex = Record<AttributeKey, Map<string, number[]>>;

function emptyIndex(): AttributeIndex {
  return Object.fromEntries(ATTRIBUTE_KEYS.map((key) => [key, new Map()])) as AttributeIndex;
}

const partialIndex = memoizedBy((analysis: ScreenAnalysis): AttributeIndex => {
  const index = emptyIndex();
  const addWords = (map: Map<string, number[]>, value: string, id: number) => {
    if (value === "") return;
    for (const form of new Set([normalize(value), ...value.split("\n").map(normalize)])) addTo(map, form, id);
  };
  for (const node of analysis.tree.nodes) {
    if (!analysis.onScreen[node.id]) continue;
    for (const key of ATTRIBUTE_KEYS) {
      const value = KEY_ATTRIBUTE[key](node);
      if (key !== "resource_id") addWords(index[key], value, node.id);
      else if (value.lastIndexOf("/") !== -1) addTo(index.resource_id, value.slice(value.lastIndexOf("/") + 1), node.id);
    }
  }
  return index;
});

/** Listed targets by role, roots in document order. */
const roleIndex = memoizedBy((analysis: ScreenAnalysis): Map<string, number[]> => {
  const index = new Map<string, number[]>();
  for (const target of analysis.listed) addTo(index, target.role, target.root);
  return index;
});

function addTo(map: Map<string, number[]>, value: string, id: number): void {
  if (value === "") return;
  const list = map.get(value);
  if (list === undefined) map.set(value, [id]);
  else list.push(id);
}

/**
 * A value as the partial tier compares it: runs of white space as one space, no case, and Android's typographic
 * marks as a model types them (’ ‘ ‛ ′ ʼ as ', “ ” ‟ ″ as ", … as ...): the permission dialog's "Don’t allow"
 * is found by {"text": "Don't allow"}.
 */
function normalize(value: string): string {
  return value.replace(/\s+/g, " ").trim().toLowerCase().replace(/[\u2018\u2019\u201b\u2032\u02bc]/g, "'")
    .replace(/[\u201c\u201d\u201f\u2033]/g, '"').replace(/\u2026/g, "...");
}

/** Inclusive range of node ids: the strict descendants of one or more scope roots. */
type Interval = [first: number, last: number];

/**
 * Node ids a `within` admits, as sorted disjoint intervals: the strict descendants of every on-screen
 * node its key names (exact, else partial) and of the target each of them belongs to, so that a
 * `within` may name any element the summary lists (`{"text": "Emergency SOS"}` admits what lies inside
 * the notification row that text names). Ids are in document order, so a subtree is one interval.
 */
function scopeIntervals(analysis: ScreenAnalysis, within: SelectorKeyValue): Interval[] {
  const [key, value] = keyOf(within);
  const memo = memoOf(analysis);
  const signature = `${key}\u0000${value}`;
  const known = memo.scopes.get(signature);
  if (known !== undefined) return known;
  const exact = tierMatches(analysis, key, value, "exact");
  const roots = new Set<number>();
  for (const id of exact.length > 0 ? exact : tierMatches(analysis, key, value, "partial")) {
    roots.add(id);
    const entity = analysis.entities.get(analysis.entityOf[id]!);
    if (entity?.target) roots.add(entity.root);
  }
  memo.lastDescendant ??= lastDescendants(analysis.tree.nodes);
  const intervals: Interval[] = [];
  for (const root of [...roots].sort((a, b) => a - b)) {
    const last = memo.lastDescendant[root]!;
    if (last === root) continue;
    const previous = intervals[intervals.length - 1];
    if (previous !== undefined && root + 1 <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else intervals.push([root + 1, last]);
  }
  memo.scopes.set(signature, intervals);
  return intervals;
}

function lastDescendants(nodes: UiNode[]): number[] {
  const last = nodes.map((node) => node.id);
  for (let id = nodes.length - 1; id >= 0; id--) {
    const children = nodes[id]!.children;
    if (children.length > 0) last[id] = last[children[children.length - 1]!]!;
  }
  return last;
}

/**
 * Calls `visit` on each of the sorted `matches` that lies in one of the `scope` intervals, in document
 * order, until it returns false; walks whichever side is shorter, binary-searching the other. Returns
 * the number of steps taken (intervals and matches looked at).
 */
function forEachInScope(matches: number[], scope: Interval[], visit: (id: number) => boolean): number {
  let steps = 0;
  if (matches.length === 0 || scope.length === 0) return 0;
  if (scope.length <= matches.length) {
    for (const [first, last] of scope) {
      steps += 1;
      for (let at = lowerBound(matches, first); at < matches.length && matches[at]! <= last; at++) {
        steps += 1;
        if (!visit(matches[at]!)) return steps;
      }
    }
    return steps;
  }
  for (const id of matches) {
    steps += 1;
    const at = upperBoundInterval(scope, id);
    if (at !== -1 && id <= scope[at]![1] && !visit(id)) return steps;
  }
  return steps;
}

/** Index of the first value ≥ `wanted` in a sorted array (its length when none). */
function lowerBound(sorted: number[], wanted: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! < wanted) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Index of the last interval starting at or before `id`, or -1. */
function upperBoundInterval(scope: Interval[], id: number): number {
  let low = 0;
  let high = scope.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (scope[mid]![0] <= id) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}

const exactIndex = memoizedBy((analysis: ScreenAnalysis): AttributeIndex => {
  const index = emptyIndex();
  for (const node of analysis.tree.nodes) {
    if (!analysis.onScreen[node.id]) continue;
    for (const key of ATTRIBUTE_KEYS) addTo(index[key], KEY_ATTRIBUTE[key](node), node.id);
  }
  return index;
});

function unionSorted(a: number[] | undefined, b: number[] | undefined): number[] {
  return [...new Set([...(a ?? []), ...(b ?? [])])].sort((x, y) => x - y);
}
