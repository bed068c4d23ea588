/**
 * Selector + tree → the distinct elements it names. Only on-screen nodes match. Exact matches win: the
 * partial tier is tried only when nothing matches exactly. A matching node stands for its entity (the
 * text inside a row names the row), so several matches inside one element count once. `within`
 * keeps matches that lie strictly inside a node the `within` key names, or inside the target that
 * node belongs to. Pure; never throws.
 */
import { analyzeScreen, type ScreenAnalysis } from "./screen_analysis.ts";
import type { Selector, SelectorKey, SelectorKeyValue, UiNode, UiTree } from "./types.ts";

export const SELECTOR_KEYS: readonly SelectorKey[] = ["resource_id", "text", "content_desc", "text_contains", "input_hint"];

export interface SelectorMatch {
  tier: "exact" | "partial" | "none";
  /** Entity root ids, in document order, each once. */
  entities: number[];
}

export function matchSelector(tree: UiTree, selector: Selector): SelectorMatch {
  return matchInAnalysis(analyzeScreen(tree), selector);
}

export function matchInAnalysis(analysis: ScreenAnalysis, selector: Selector): SelectorMatch {
  const [key, value] = keyOf(selector);
  const scopes = selector.within === undefined ? null : scopeRoots(analysis, selector.within);
  const inScope = (id: number) => scopes === null || hasAncestorIn(analysis.tree.nodes, id, scopes);
  for (const tier of ["exact", "partial"] as const) {
    const raw = rawMatches(analysis, key, value, tier).filter(inScope);
    if (raw.length > 0) {
      const entities = [...new Set(raw.map((id) => analysis.entityOf[id]!))].sort((a, b) => a - b);
      return { tier, entities };
    }
  }
  return { tier: "none", entities: [] };
}

/** The single key of a validated selector (or of a `within`). */
export function keyOf(selector: SelectorKeyValue): [SelectorKey, string] {
  for (const key of SELECTOR_KEYS) {
    const value = selector[key];
    if (value !== undefined) return [key, value];
  }
  throw new TypeError("selector without a key; validate it with validateSelector first");
}

/** On-screen nodes matching one key (the raw nodes, before grouping into entities), in document order. */
export function rawMatches(analysis: ScreenAnalysis, key: SelectorKey, value: string, tier: "exact" | "partial"): number[] {
  const index = exactIndex(analysis);
  if (tier === "exact") {
    if (key === "text_contains") return unionSorted(index.text.get(value), index.content_desc.get(value));
    return index[key].get(value) ?? [];
  }
  if (key === "text_contains") {
    const wanted = normalize(value);
    return analysis.tree.nodes
      .filter((node) => analysis.onScreen[node.id] && (normalize(node.text).includes(wanted) || normalize(node.contentDesc).includes(wanted)))
      .map((node) => node.id);
  }
  if (key === "resource_id" && value.includes("/")) {
    return analysis.tree.nodes.filter((node) => analysis.onScreen[node.id] && node.resourceId.endsWith(`/${value}`)).map((node) => node.id);
  }
  // resource_id: the part after the last "/" (`pkg:id/send` → `send`); words: ignoring case and runs of
  // white space, the whole value or one of its lines.
  return partialIndex(analysis)[key].get(key === "resource_id" ? value : normalize(value)) ?? [];
}

type PartialIndex = Record<Exclude<SelectorKey, "text_contains">, Map<string, number[]>>;
const partialIndexes = new WeakMap<ScreenAnalysis, PartialIndex>();

function partialIndex(analysis: ScreenAnalysis): PartialIndex {
  let index = partialIndexes.get(analysis);
  if (index !== undefined) return index;
  index = { resource_id: new Map(), text: new Map(), content_desc: new Map(), input_hint: new Map() };
  const addWords = (map: Map<string, number[]>, value: string, id: number) => {
    if (value === "") return;
    for (const form of new Set([normalize(value), ...value.split("\n").map(normalize)])) addTo(map, form, id);
  };
  for (const node of analysis.tree.nodes) {
    if (!analysis.onScreen[node.id]) continue;
    const slash = node.resourceId.lastIndexOf("/");
    if (slash !== -1) addTo(index.resource_id, node.resourceId.slice(slash + 1), node.id);
    addWords(index.text, node.text, node.id);
    addWords(index.content_desc, node.contentDesc, node.id);
    addWords(index.input_hint, node.hint, node.id);
  }
  partialIndexes.set(analysis, index);
  return index;
}

function addTo(map: Map<string, number[]>, value: string, id: number): void {
  if (value === "") return;
  const list = map.get(value);
  if (list === undefined) map.set(value, [id]);
  else list.push(id);
}

function normalize(value: string): string {
  return value.replace(/\s+/g, " ").trim().toLowerCase();
}

/**
 * Nodes whose descendants a `within` admits: every on-screen node its key names (exact, else partial),
 * and the target each of them belongs to, so that a `within` may name any element the summary lists
 * (`{"text": "Emergency SOS"}` admits what lies inside the notification row that text names).
 */
function scopeRoots(analysis: ScreenAnalysis, within: SelectorKeyValue): Set<number> {
  const [key, value] = keyOf(within);
  const exact = rawMatches(analysis, key, value, "exact");
  const roots = new Set<number>();
  for (const id of exact.length > 0 ? exact : rawMatches(analysis, key, value, "partial")) {
    roots.add(id);
    const entity = analysis.entities.get(analysis.entityOf[id]!);
    if (entity?.target) roots.add(entity.root);
  }
  return roots;
}

function hasAncestorIn(nodes: UiNode[], id: number, roots: Set<number>): boolean {
  for (let at = nodes[id]!.parent; at !== null; at = nodes[at]!.parent) {
    if (roots.has(at)) return true;
  }
  return false;
}

type ExactIndex = Record<Exclude<SelectorKey, "text_contains">, Map<string, number[]>>;
const indexes = new WeakMap<ScreenAnalysis, ExactIndex>();

function exactIndex(analysis: ScreenAnalysis): ExactIndex {
  let index = indexes.get(analysis);
  if (index !== undefined) return index;
  index = { resource_id: new Map(), text: new Map(), content_desc: new Map(), input_hint: new Map() };
  for (const node of analysis.tree.nodes) {
    if (!analysis.onScreen[node.id]) continue;
    addTo(index.resource_id, node.resourceId, node.id);
    addTo(index.text, node.text, node.id);
    addTo(index.content_desc, node.contentDesc, node.id);
    addTo(index.input_hint, node.hint, node.id);
  }
  indexes.set(analysis, index);
  return index;
}

function unionSorted(a: number[] | undefined, b: number[] | undefined): number[] {
  return [...new Set([...(a ?? []), ...(b ?? [])])].sort((x, y) => x - y);
}
