/**
 * Picks the selector the summary offers for one element: the most stable key that names it uniquely
 * (its own resource_id, then text, content_desc, input_hint, then its parts' resource ids; a resource
 * id without its `package:id/` prefix when that alone is unique), else such a key with a `within`
 * naming an ancestor or enclosing target (nearest first), else the key naming the fewest elements,
 * marked ambiguous. Uniqueness is decided by the locator's own matching, so every offered selector
 * resolves back to its element.
 */
import { isAcceptableSelectorValue } from "../../contracts/selector.ts";
import { isReadable } from "./node_kinds.ts";
import type { Entity, ScreenAnalysis } from "./screen_analysis.ts";
import { matchInAnalysis, namesOnlyEntity } from "./selector_match.ts";
import type { Selector, SelectorKey, SelectorKeyValue, UiNode } from "./types.ts";
import { memoizedBy } from "./memo.ts";

type OfferedKey = Exclude<SelectorKey, "text_contains">;
const WITHIN_KEY_ORDER: readonly OfferedKey[] = ["resource_id", "content_desc", "text", "input_hint"];

export interface ChosenSelector {
  selector: Selector;
  ambiguous: boolean;
}

/**
 * The work all `within` searches of one summary (or of one locator answer) may do together, in steps
 * (an ancestor key tried, a scope interval or a match looked at). Past it, an element no key names
 * alone is marked ambiguous without a `within` search: on a screen of thousands of identical rows the
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

/** Null when the element carries no key at all (nothing to name it by). */
export function chooseSelector(analysis: ScreenAnalysis, entity: Entity, budget: WithinBudget = withinBudget()): ChosenSelector | null {
  const candidates = candidateKeys(analysis, entity);
  if (candidates.length === 0) return null;
  for (const candidate of candidates) {
    const short = shortResourceId(candidate);
    if (short !== null && namesOnly(analysis, short, entity.root)) return { selector: short, ambiguous: false };
    if (namesOnly(analysis, candidate, entity.root)) return { selector: candidate, ambiguous: false };
  }
  for (const candidate of candidates) {
    for (const form of [shortResourceId(candidate), candidate]) {
      const within = form === null ? null : separatingWithin(analysis, form, entity.root, budget);
      if (form === null || within === null) continue;
      const shortWithin = shortResourceId(within);
      const selector = shortWithin !== null && namesOnly(analysis, { ...form, within: shortWithin }, entity.root)
        ? { ...form, within: shortWithin } // the package is said once
        : { ...form, within };
      return { selector, ambiguous: false };
    }
  }
  return { selector: shortestEquivalent(analysis, narrowest(analysis, candidates)), ambiguous: true };
}

/** The key without its resource id's `package:id/` prefix when that names the same elements: the package is said once. */
function shortestEquivalent(analysis: ScreenAnalysis, key: SelectorKeyValue): SelectorKeyValue {
  const short = shortResourceId(key);
  if (short === null) return key;
  const same = (a: number[], b: number[]) => a.length === b.length && a.every((id, i) => id === b[i]);
  return same(matchInAnalysis(analysis, short).entities, matchInAnalysis(analysis, key).entities) ? short : key;
}

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
      : [...own, ...candidateKeys(analysis, entity).filter((key) => !signatures.has(JSON.stringify(key)))];
    memo.set(at, keys);
  }
  return keys;
}

const withinKeyMemo = memoizedBy((_: ScreenAnalysis) => new Map<number, SelectorKeyValue[]>());

const SHORT_WITHIN = 60;

/** The candidate naming the fewest elements (the first such in preference order; words break ties). */
function narrowest(analysis: ScreenAnalysis, candidates: SelectorKeyValue[]): SelectorKeyValue {
  let best = candidates[0]!;
  let fewest = Infinity;
  for (const candidate of candidates) {
    const count = matchInAnalysis(analysis, candidate).entities.length;
    const wordsWinTie = count === fewest && best.resource_id !== undefined && candidate.resource_id === undefined;
    if (count < fewest || wordsWinTie) [best, fewest] = [candidate, count];
  }
  return best;
}

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
 * Every single-key selector that matches some member of the element, in preference order, each once:
 * the element's own resource id; then text, content_desc and input_hint over its members (itself
 * first, words before icon-font glyphs); then its members' resource ids (a member's id names the part,
 * not the element, so it comes after the element's words).
 */
export function candidateKeys(analysis: ScreenAnalysis, entity: Entity): SelectorKeyValue[] {
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
  for (const key of ["text", "content_desc", "input_hint"] as const) {
    for (const readable of [true, false]) {
      for (const id of entity.members) {
        for (const candidate of ownKeys(nodes[id]!, [key])) {
          if (isReadable(Object.values(candidate)[0]!) === readable) offer(candidate);
        }
      }
    }
  }
  for (const id of entity.members) ownKeys(nodes[id]!, ["resource_id"]).forEach(offer);
  return out;
}

function ownKeys(node: UiNode, order: readonly OfferedKey[]): SelectorKeyValue[] {
  const values: Record<OfferedKey, string> = {
    resource_id: node.resourceId,
    text: node.text,
    content_desc: node.contentDesc,
    input_hint: node.hint,
  };
  return order.filter((key) => isAcceptableSelectorValue(values[key])).map((key) => ({ [key]: values[key] }));
}
