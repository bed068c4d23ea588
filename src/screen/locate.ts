/**
 * The locator of SPEC §6 on one tree, without waiting: `findElement` returns found / not_found /
 * ambiguous as data (what a poller needs to decide to look again), `locate` returns the one element or
 * throws UI_ELEMENT_NOT_FOUND ("The screen offers: …", each by its label, role and the selector the summary
 * offers for it, the offered actions in details; the same words under another key when they name one
 * element there, `found_as`; an index past
 * the last match says how many there are) or UI_ELEMENT_AMBIGUOUS (numbered candidates, each with the
 * full selector that names it alone: the key with a separating `within`, else with its `index`).
 * Waiting and polling live with the act tools; they call these on each fresh tree.
 */
import { HarnessError } from "../errors.ts";
import { chooseSelector, offeredSelectors, separatingWithin, withinBudget } from "./choose_selector.ts";
import { coveringNode, openDrawersOver } from "./occlusion.ts";
import { labelFrom, ownName } from "./node_kinds.ts";
import { analyzeScreen, type Entity, type ScreenAnalysis } from "./screen_analysis.ts";
import { KEY_ATTRIBUTE, keyOf, matchInAnalysis } from "./selector_match.ts";
import type { ElementRect, Role, Selector, SelectorKeyValue, UiNode, UiTree } from "./types.ts";

export interface LocatedElement {
  /** The node that stands for the element: for a target, its outermost actionable node. */
  node: UiNode;
  label: string;
  /** Null for a plain (non-actionable) element such as a text. */
  role: Role | null;
  bounds: ElementRect;
  /** Whether the match needed the partial tier (no exact match existed). */
  partial: boolean;
}

export interface Candidate {
  label: string;
  role: Role | null;
  bounds: ElementRect;
  /** The selector that names this candidate alone: the key asked for, with a separating `within`, else with its `index`. */
  selector: Selector;
  /** The `within` of `selector`, when a `within` is what separates it. */
  within?: SelectorKeyValue;
}

/** An element the screen offers, said when nothing matched: `root` its node (left out of the error's details). */
export interface Offer {
  label: string;
  role: Role;
  root?: number;
  selector?: Selector;
}

export type FindResult =
  | { status: "found"; element: LocatedElement }
  /** `matched`: with an `index` past the last match, how many elements the rest of the selector names. */
  | { status: "not_found"; offered: Offer[]; matched?: number }
  | { status: "ambiguous"; candidates: Candidate[] };

export function findElement(tree: UiTree, selector: Selector): FindResult {
  const analysis = analyzeScreen(tree);
  const match = matchInAnalysis(analysis, selector);
  if (match.entities.length === 0) {
    const offered = analysis.listed.filter((t) => t.label !== "").map((t) => ({ label: t.label, role: t.role, root: t.root }));
    return match.beforeIndex ? { status: "not_found", offered, matched: match.beforeIndex } : { status: "not_found", offered };
  }
  if (match.entities.length === 1) {
    const root = match.entities[0]!;
    const described = describe(analysis, root);
    return {
      status: "found",
      element: {
        ...described,
        label: wordsNamed(analysis, selector, root) ?? described.label,
        node: analysis.tree.nodes[root]!,
        partial: match.tier === "partial",
      },
    };
  }
  const key: Selector = Object.fromEntries([keyOf(selector)]);
  const budget = withinBudget(); // one bound for all candidates: thousands of identical rows stay fast
  const candidates = match.entities.map((root, index): Candidate => {
    // A within the agent wrote is kept (the index counts inside it); otherwise one that separates is looked for.
    const within = selector.within ?? separatingWithin(analysis, key, root, budget);
    if (within !== null && selector.within === undefined) return { ...describe(analysis, root), selector: { ...key, within }, within };
    const indexed: Selector = within === null ? { ...key, index } : { ...key, within, index };
    return { ...describe(analysis, root), selector: indexed };
  });
  return { status: "ambiguous", candidates };
}

/** The one element the selector names on this tree; throws UI_ELEMENT_NOT_FOUND or UI_ELEMENT_AMBIGUOUS. */
export function locate(tree: UiTree, selector: Selector, options: { waitedMs?: number } = {}): LocatedElement {
  const result = findElement(tree, selector);
  if (result.status === "found") return result.element;
  const shown = JSON.stringify(selector);
  if (result.status === "not_found" && result.matched !== undefined) {
    const { index: _index, ...rest } = selector;
    throw new HarnessError(
      "UI_ELEMENT_NOT_FOUND",
      `${JSON.stringify(rest)} names ${result.matched} element${
        result.matched === 1 ? "" : "s"
      }, so index ${selector.index} is past the last ` +
        `(0 to ${result.matched - 1}). Take the selector from a fresh ui_get_tree.`,
      { selector, matched: result.matched },
    );
  }
  if (result.status === "not_found") {
    const waited = options.waitedMs === undefined ? "" : ` within ${Math.round(options.waitedMs)} ms`;
    const offered = withSelectors(tree, result.offered);
    const offers = offered.slice(0, OFFERS_SAID).map((o) => saidOffer(o.label, o.role, o.selector!));
    const more = result.offered.length > OFFERS_SAID ? `, and ${result.offered.length - OFFERS_SAID} more` : "";
    const screen = offers.length === 0 ? "The screen offers no named actions." : `The screen offers: ${offers.join(", ")}${more}.`;
    const foundAs = underAnotherKey(tree, selector);
    const hint = foundAs === null ? "" : ` ${JSON.stringify(foundAs)} names one.`;
    throw new HarnessError("UI_ELEMENT_NOT_FOUND", `No visible element matched ${shown}${waited}.${hint} ${screen}`, {
      selector,
      ...(foundAs === null ? {} : { found_as: foundAs }),
      offered,
    });
  }
  const said = result.candidates.slice(0, OFFERS_SAID);
  const lines = said.map((c, i) =>
    `${i + 1}) '${oneLine(c.label)}'${c.role === null ? "" : ` (${c.role})`} at ${c.bounds.left},${c.bounds.top} → ${
      JSON.stringify(c.selector)
    }`
  );
  const total = result.candidates.length;
  // Hundreds of identical rows are not all said: the index goes on counting past the last one listed.
  const more = total > said.length
    ? `; and ${total - said.length} more, in screen order (${JSON.stringify(result.candidates[said.length]!.selector)} is the next)`
    : "";
  const hint = "Repeat the call with the selector of the one you mean.";
  throw new HarnessError(
    "UI_ELEMENT_AMBIGUOUS",
    `${shown} matched ${total} distinct elements: ${lines.join("; ")}${more}. ${hint}`,
    { selector, candidates: said, ...(total > said.length ? { matched: total } : {}) },
  );
}

/**
 * What a tap on the element would reach instead (occlusion.ts: a view drawn over its centre that takes
 * touches), said as the summary offers it: its label and, when the summary offers it, its selector. Null when
 * a tap reaches the element.
 */
export function coveredBy(tree: UiTree, element: LocatedElement): { label: string; selector?: Selector } | null {
  const cover = coveringNode(tree, element.node);
  return cover === null ? null : saidAsOffered(tree, cover);
}

/** A cover by its label and, when the summary lists it, the selector the summary offers for it. */
function saidAsOffered(tree: UiTree, cover: UiNode): { label: string; selector?: Selector } {
  const analysis = analyzeScreen(tree);
  const entity = coverEntity(analysis, cover);
  const label = coverLabel(analysis, cover);
  return entity === undefined ? { label } : { label, selector: chooseSelector(analysis, entity, withinBudget()) };
}

/**
 * The open drawer of a DrawerLayout whose content (its first child) holds the node, named as coveredBy names a cover;
 * else null. While a drawer shows, the layout takes every touch on its content and the drawer every touch on itself,
 * so no gesture reaches the node wherever it starts (ui_scroll's swipe on a list behind the cart drawer).
 */
export function drawerCover(tree: UiTree, node: UiNode): { label: string; selector?: Selector } | null {
  const drawer = openDrawersOver(tree.nodes, node).at(-1);
  return drawer === undefined ? null : saidAsOffered(tree, drawer);
}

/** How the summary and ui_tap name a view drawn over an element (its `covered_by`): the label of the target it
 * belongs to, else its own text, description or id made a label (one line, at most 80 characters), else its class. */
export function coverLabel(analysis: ScreenAnalysis, cover: UiNode): string {
  return coverEntity(analysis, cover)?.label || labelFrom(cover.text) || labelFrom(cover.contentDesc) || labelFrom(cover.resourceId) ||
    cover.className;
}

/** The summary's entry the cover belongs to, if the summary lists one (a nameless clickable sheet around its own
 * options is not listed: it has no selector to offer). */
function coverEntity(analysis: ScreenAnalysis, cover: UiNode): Entity | undefined {
  const root = analysis.entityOf[cover.id] ?? -1;
  const entity = root === -1 ? undefined : analysis.entities.get(root);
  return entity?.target === true && entity.listed ? entity : undefined;
}

/**
 * One element as "The screen offers: …" says it: its label (one line, cut at 60 characters), its role and the selector the
 * summary offers for it. The failed lookup's message and a flow's failure (`describeScreen`) both say offers so.
 */
export function saidOffer(label: string, role: Role, selector: Selector): string {
  return `'${oneLine(label.replace(/\s+/g, " ").trim())}' (${role}) ${JSON.stringify(selector)}`;
}

/** A cover as a message says it: its label, and the selector the summary offers for it when there is one. */
export function saidCover(cover: { label: string; selector?: Selector }): string {
  return cover.selector === undefined ? `'${cover.label}'` : `'${cover.label}' ${JSON.stringify(cover.selector)}`;
}

/**
 * The same words under another key when they name one element there (`{"text": "Hiking boots photo"}` for a
 * photo known by its content-desc, which the summary's texts list without saying the key), with the selector's
 * own `within` and `index`; else null.
 */
export function underAnotherKey(tree: UiTree, selector: Selector): Selector | null {
  const [key, value] = keyOf(selector);
  if (!WORD_KEYS.includes(key as (typeof WORD_KEYS)[number])) return null;
  const { within, index } = selector;
  for (const other of WORD_KEYS) {
    if (other === key) continue;
    const candidate: Selector = { [other]: value, ...(within === undefined ? {} : { within }), ...(index === undefined ? {} : { index }) };
    if (findElement(tree, candidate).status === "found") return candidate;
  }
  return null;
}

/** The keys that name an element by its words, tried in this order for a value another key did not find. */
const WORD_KEYS = ["text", "content_desc", "input_hint"] as const;

/** How many offered elements a not-found message names, and how many candidates an ambiguous one lists. */
const OFFERS_SAID = 25;

/** The offers, each with the selector the summary offers for it (offeredSelectors), its node left out. */
function withSelectors(tree: UiTree, offers: Offer[]): Offer[] {
  const analysis = analyzeScreen(tree);
  const selectors = offeredSelectors(analysis);
  const byRoot = new Map(analysis.listed.map((target, i) => [target.root, selectors[i]!]));
  return offers.map(({ root, ...said }) => (root === undefined ? said : { ...said, selector: byRoot.get(root)! }));
}

/**
 * The words a selector by words names the element by, as its label, when the element's label is a part's description
 * (a row labelled by the photo before its title): `{"text":"Rain jacket"}` names "Rain jacket", not "Rain jacket
 * photo". Null otherwise: a selector by id or role, a label that is words on the element (a row "Android Auto" named by
 * its "Connected" keeps its name), or words no part holds exactly (the partial tier).
 */
function wordsNamed(analysis: ScreenAnalysis, selector: Selector, root: number): string | null {
  const [key, value] = keyOf(selector);
  if (!(WORD_KEYS as readonly string[]).includes(key)) return null;
  const { nodes } = analysis.tree;
  const members = analysis.entities.get(root)!.members;
  const namer = members.find((id) => labelFrom(ownName(nodes[id]!)) !== "");
  if (namer === undefined || namer === root || ownName(nodes[namer]!) !== nodes[namer]!.contentDesc) return null;
  const attribute = KEY_ATTRIBUTE[key as (typeof WORD_KEYS)[number]];
  const label = members.some((id) => attribute(nodes[id]!) === value) ? labelFrom(value) : "";
  return label === "" ? null : label;
}

function describe(analysis: ScreenAnalysis, root: number): Omit<Candidate, "selector"> {
  const entity = analysis.entities.get(root)!;
  const b = analysis.tree.nodes[root]!.bounds!;
  return {
    label: entity.label,
    role: entity.target ? entity.role : null,
    bounds: { left: b.left, top: b.top, width: b.right - b.left, height: b.bottom - b.top },
  };
}

function oneLine(value: string): string {
  return value.length > 60 ? `${value.slice(0, 59)}…` : value;
}
