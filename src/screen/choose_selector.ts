/**
 * Picks the selector the summary offers for one listed element (SPEC §5: one that names it alone): the
 * most stable key that names it uniquely (its own resource_id, then text, content_desc, input_hint (an
 * input: input_hint, content_desc, text, since typing replaces its text), then its parts' resource ids,
 * then its role; a resource id without its `package:id/` prefix when that alone is unique), else such a
 * key with a `within` naming an ancestor or enclosing target (nearest first), else the key naming the
 * fewest elements with the element's `index` among them. Uniqueness is decided by the locator's own
 * matching, so every offered selector resolves back to its element.
 */
import { isAcceptableSelectorValue } from "../../contracts/selector_names.ts";
import { isReadable } from "./node_kinds.ts";
import type { Entity, ScreenAnalysis } from "./screen_analysis.ts";
import { type AttributeKey, indexOf, KEY_ATTRIBUTE, matchInAnalysis, namesOnlyEntity } from "./selector_match.ts";
import type { Selector, SelectorKeyValue, UiNode } from "./types.ts";
import { memoizedBy } from "./memo.ts";

const WITHIN_KEY_ORDER: readonly AttributeKey[] = ["resource_id", "content_desc", "text", "input_hint"];

/**
 * The work all `within` searches of one summary (or of one locator answer) may do together, in steps
 * (an ancestor key tried, a scope interval or a match looked at). Past it, an element no key names
 * alone gets its `index` without a `within` search: on a screen of thousands of identical rows the
 * summary stays near-linear (a 3000-row list takes well under a second) instead of tens of seconds.
 * No real capture of the corpus comes near it.
 */
export const WITHIN_SEARCH_STEPS = 2_000_000;

/** What is left of the `within` search budget; shared by the calls for one summary. */
export interface WithinBudget {
  steps: number;
}

export function withinBudget(steps: number = WITHIN_SEARCH_STEPS): WithinBudget {
  return { steps };
}

/**
 * The selector the summary offers for each listed target (`analysis.listed`, same order), chosen in that order under
 * one budget: the summary's actions and the locator's "The screen offers: …" both read them here, so they say the same.
 */
export function offeredSelectors(analysis: ScreenAnalysis, budget: WithinBudget = withinBudget()): Selector[] {
  return analysis.listed.map((target) => chooseSelector(analysis, target, budget));
}

/** The selector naming `entity` alone: a unique key, else a key with a `within`, else a key with an `index`. */
export function chooseSelector(analysis: ScreenAnalysis, entity: Entity, budget: WithinBudget = withinBudget()): Selector {
  const candidates = candidateKeys(analysis, entity);
  for (const candidate of candidates) {
    const short = shortResourceId(candidate);
    if (short !== null && namesOnly(analysis, short, entity.root)) return short;
    if (namesOnly(analysis, candidate, entity.root)) return candidate;
  }
  for (const candidate of candidates) {
    if (budget.steps <= 0) break; // spent: see WITHIN_SEARCH_STEPS
    for (const form of [shortResourceId(candidate), candidate]) {
      const within = form === null ? null : separatingWithin(analysis, form, entity.root, budget);
      if (form === null || within === null) continue;
      const shortWithin = shortResourceId(within);
      return shortWithin !== null && namesOnly(analysis, { ...form, within: shortWithin }, entity.root)
        ? { ...form, within: shortWithin } // the package is said once
        : { ...form, within };
    }
  }
  return indexed(analysis, candidates, entity.root);
}

/**
 * The last resort (SPEC §6): the candidate naming the fewest elements (words before resource ids on a
 * tie, the role last), with the element's position among them in reading order.
 */
function indexed(analysis: ScreenAnalysis, candidates: SelectorKeyValue[], root: number): Selector {
  let best: { key: SelectorKeyValue; count: number } | null = null;
  for (const candidate of candidates) {
    const key = shortestEquivalent(analysis, candidate);
    if (indexOf(analysis, key, root) === -1) continue;
    const count = matchInAnalysis(analysis, key).entities.length;
    const wordsWinTie = best !== null && count === best.count && best.key.resource_id !== undefined && key.resource_id === undefined &&
      key.role === undefined;
    if (best === null || count < best.count || wordsWinTie) best = { key, count };
  }
  if (best === null) throw new TypeError(`no key names element ${root}: it must be a listed target`);
  return { ...best.key, index: indexOf(analysis, best.key, root) };
}

/** The key without its resource id's `package:id/` prefix when that names the same elements: the package is said once. Remembered per analysis. */
function shortestEquivalent(analysis: ScreenAnalysis, key: SelectorKeyValue): SelectorKeyValue {
  const short = shortResourceId(key);
  if (short === null) return key;
  const memo = equivalentMemo(analysis);
  const signature = key.resource_id!;
  let same = memo.get(signature);
  if (same === undefined) {
    const [a, b] = [matchInAnalysis(analysis, short).entities, matchInAnalysis(analysis, key).entities];
    same = a.length === b.length && a.every((id, i) => id === b[i]);
    memo.set(signature, same);
  }
  return same ? short : key;
}

const equivalentMemo = memoizedBy((_: ScreenAnalysis) => new Map<string, boolean>());

/**
 * A `within` under which `selector` names only `root`: an own key of a strict ancestor, or any key of
 * an enclosing target (the name the summary gives it). First keys that name one element only (SPEC §5:
 * a unique semantic ancestor), then any. Nearest ancestor first, taking the first value of at most
 * SHORT_WITHIN characters, else the shortest found, so a long content-desc (a whole post) is not
 * repeated when a short name will do.
 */
export function separatingWithin(
  analysis: ScreenAnalysis,
  selector: Selector,
  root: number,
  budget: WithinBudget = withinBudget(),
): SelectorKeyValue | null {
  const { nodes } = analysis.tree;
  for (const uniqueAncestor of [true, false]) {
    let best: { within: SelectorKeyValue; length: number } | null = null;
    for (let at = nodes[root]!.parent; at !== null; at = nodes[at]!.parent) {
      if (!analysis.onScreen[at]) continue;
      for (const within of withinKeys(analysis, at)) {
        if (budget.steps <= 0) return best?.within ?? null; // spent: see WITHIN_SEARCH_STEPS
        budget.steps -= 1;
        const value = Object.values(within)[0]!;
        if (best !== null && value.length >= best.length) continue;
        if (uniqueAncestor && matchInAnalysis(analysis, within).entities.length !== 1) continue;
        const work = { steps: 0 };
        const separates = namesOnlyEntity(analysis, { ...selector, within }, root, work);
        budget.steps -= work.steps;
        if (!separates) continue;
        if (value.length <= SHORT_WITHIN) return within;
        best = { within, length: value.length };
      }
    }
    if (best !== null) return best.within;
  }
  return null;
}

/** Keys that can name ancestor `at` in a `within`: its own, and, for a target, those of its members. Remembered per analysis. */
function withinKeys(analysis: ScreenAnalysis, at: number): SelectorKeyValue[] {
  const memo = withinKeyMemo(analysis);
  let keys = memo.get(at);
  if (keys === undefined) {
    const own = ownKeys(analysis.tree.nodes[at]!, WITHIN_KEY_ORDER);
    const entity = analysis.entities.get(at);
    const signatures = new Set(own.map((key) => JSON.stringify(key)));
    keys = entity === undefined || !entity.target
      ? own
      : [...own, ...wordAndIdKeys(analysis, entity).filter((key) => !signatures.has(JSON.stringify(key)))];
    memo.set(at, keys);
  }
  return keys;
}

const withinKeyMemo = memoizedBy((_: ScreenAnalysis) => new Map<number, SelectorKeyValue[]>());

const SHORT_WITHIN = 60;

/** `{resource_id: "pkg:id/name"}` → `{resource_id: "name"}` (the locator's partial tier accepts it), else null. */
function shortResourceId(candidate: SelectorKeyValue): SelectorKeyValue | null {
  const id = candidate.resource_id;
  const at = id === undefined ? -1 : id.indexOf(":id/");
  return at <= 0 || !isAcceptableSelectorValue(id!.slice(at + 4)) ? null : { resource_id: id!.slice(at + 4) };
}

function namesOnly(analysis: ScreenAnalysis, selector: Selector, root: number): boolean {
  return namesOnlyEntity(analysis, selector, root);
}

/**
 * Every single-key selector that names the element, in preference order, each once: its words and ids
 * (wordAndIdKeys), then its role (a listed target's role names it among the others of that role).
 */
export function candidateKeys(analysis: ScreenAnalysis, entity: Entity): SelectorKeyValue[] {
  const keys = wordAndIdKeys(analysis, entity);
  if (entity.listed) keys.push({ role: entity.role });
  return keys;
}

const WORD_KEYS = ["text", "content_desc", "input_hint"] as const;
/** An input's text is what typing replaces (and an empty one shows its hint as text): its hint and content-desc stay. */
const INPUT_WORD_KEYS = ["input_hint", "content_desc", "text"] as const;

/**
 * Every single attribute key that matches some member of the element, in preference order, each once:
 * the element's own resource id; then text, content_desc and input_hint over its members (itself
 * first; never an icon-font glyph's; for an input input_hint, content_desc, then text); then its members' resource ids (a member's id names the part,
 * not the element, so it comes after the element's words).
 */
function wordAndIdKeys(analysis: ScreenAnalysis, entity: Entity): SelectorKeyValue[] {
  const { nodes } = analysis.tree;
  const out: SelectorKeyValue[] = [];
  const seen = new Set<string>();
  const offer = (candidate: SelectorKeyValue) => {
    const signature = JSON.stringify(candidate);
    if (seen.has(signature)) return;
    seen.add(signature);
    out.push(candidate);
  };
  ownKeys(nodes[entity.root]!, ["resource_id"]).forEach(offer);
  for (const key of entity.role === "input" ? INPUT_WORD_KEYS : WORD_KEYS) {
    for (const id of entity.members) ownKeys(nodes[id]!, [key]).forEach(offer);
  }
  for (const id of entity.members) ownKeys(nodes[id]!, ["resource_id"]).forEach(offer);
  return out;
}

/** The node's keys in `order` whose value may be sent and can be read: an icon-font glyph (private-use characters) shows as
 * nothing or a box to whoever reads the selector, so an element is never offered by it. */
function ownKeys(node: UiNode, order: readonly AttributeKey[]): SelectorKeyValue[] {
  return order.filter((key) => {
    const value = KEY_ATTRIBUTE[key](node);
    return isAcceptableSelectorValue(value) && isReadable(value);
  }).map((key) => ({ [key]: KEY_ATTRIBUTE[key](node) }));
}
