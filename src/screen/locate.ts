/**
 * The locator of SPEC §6 on one tree, without waiting: `findElement` returns found / not_found /
 * ambiguous as data (what a poller needs to decide to look again), `locate` returns the one element or
 * throws UI_ELEMENT_NOT_FOUND ("The screen offers: …", with the offered actions in details) or
 * UI_ELEMENT_AMBIGUOUS (numbered candidates, each with the `within` that separates it, in details).
 * Waiting and polling live with the act tools; they call these on each fresh tree.
 */
import { HarnessError } from "../errors.ts";
import { separatingWithin, withinBudget } from "./choose_selector.ts";
import { analyzeScreen, type ScreenAnalysis } from "./screen_analysis.ts";
import { keyOf, matchInAnalysis } from "./selector_match.ts";
import type { Role, Selector, SelectorKeyValue, ElementRect, UiNode, UiTree } from "./types.ts";

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
  /** The `within` that names this candidate alone together with the selector's key, when one exists. */
  within?: SelectorKeyValue;
}

export type FindResult =
  | { status: "found"; element: LocatedElement }
  | { status: "not_found"; offered: { label: string; role: Role }[] }
  | { status: "ambiguous"; candidates: Candidate[] };

export function findElement(tree: UiTree, selector: Selector): FindResult {
  const analysis = analyzeScreen(tree);
  const match = matchInAnalysis(analysis, selector);
  if (match.entities.length === 0) {
    return { status: "not_found", offered: analysis.targets.filter((t) => t.label !== "").map((t) => ({ label: t.label, role: t.role })) };
  }
  if (match.entities.length === 1) {
    return { status: "found", element: { ...describe(analysis, match.entities[0]!), node: analysis.tree.nodes[match.entities[0]!]!, partial: match.tier === "partial" } };
  }
  const bare: Selector = Object.fromEntries([keyOf(selector)]);
  const budget = withinBudget(); // one bound for all candidates: thousands of identical rows stay fast
  const candidates = match.entities.map((root) => {
    const within = separatingWithin(analysis, bare, root, budget);
    return within === null ? describe(analysis, root) : { ...describe(analysis, root), within };
  });
  return { status: "ambiguous", candidates };
}

/** The one element the selector names on this tree; throws UI_ELEMENT_NOT_FOUND or UI_ELEMENT_AMBIGUOUS. */
export function locate(tree: UiTree, selector: Selector, options: { waitedMs?: number } = {}): LocatedElement {
  const result = findElement(tree, selector);
  if (result.status === "found") return result.element;
  const shown = JSON.stringify(selector);
  if (result.status === "not_found") {
    const waited = options.waitedMs === undefined ? "" : ` within ${Math.round(options.waitedMs)} ms`;
    const offers = result.offered.slice(0, 25).map((o) => `'${oneLine(o.label)}' (${o.role})`);
    const more = result.offered.length > 25 ? `, and ${result.offered.length - 25} more` : "";
    const screen = offers.length === 0 ? "The screen offers no named actions." : `The screen offers: ${offers.join(", ")}${more}.`;
    throw new HarnessError("UI_ELEMENT_NOT_FOUND", `No visible element matched ${shown}${waited}. ${screen}`, {
      selector,
      offered: result.offered,
    });
  }
  const lines = result.candidates.map((c, i) =>
    `${i + 1}) '${oneLine(c.label)}'${c.role === null ? "" : ` (${c.role})`} at ${c.bounds.left},${c.bounds.top}` +
    (c.within === undefined ? "" : ` → add "within": ${JSON.stringify(c.within)}`)
  );
  const hint = result.candidates.some((c) => c.within !== undefined)
    ? "Repeat the call with the `within` of the one you mean."
    : "No ancestor separates them; use a more specific key from the screen summary.";
  throw new HarnessError(
    "UI_ELEMENT_AMBIGUOUS",
    `${shown} matched ${result.candidates.length} distinct elements: ${lines.join("; ")}. ${hint}`,
    { selector, candidates: result.candidates },
  );
}

function describe(analysis: ScreenAnalysis, root: number): Candidate {
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
