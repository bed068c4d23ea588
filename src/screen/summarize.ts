/**
 * UiTree + ScreenContext → ScreenSummary (SPEC §5): the screen in the vocabulary the tools accept.
 * Every target (clickable, checkable or input; scrollables never) with a name becomes one action whose
 * selector resolves back to it through the locator; texts are the visible strings not already said by
 * an action. Each thing is said once (see docs/screen-model.md for the omission rules). Pure.
 */
import { auditScreen } from "./audit.ts";
import { chooseSelector, type ChosenSelector, WITHIN_SEARCH_STEPS, withinBudget } from "./choose_selector.ts";
import { firstLine, tidyName } from "./node_kinds.ts";
import { analyzeScreen, type ScreenAnalysis, shownStrings } from "./screen_analysis.ts";
import { keyOf } from "./selector_match.ts";
import type { ActionEntry, Role, ScreenContext, ScreenSummary, UiTree } from "./types.ts";
import { screenWindows } from "./windows.ts";

export function summarize(tree: UiTree, context: ScreenContext): ScreenSummary {
  return summarizeWithNodes(tree, context).summary;
}

/**
 * The summary plus, for each action, the id of the node it was offered for (same order as `actions`).
 * `withinSearchSteps` bounds the `within` searches of the whole summary (WITHIN_SEARCH_STEPS; tests lower it).
 */
export function summarizeWithNodes(
  tree: UiTree,
  context: ScreenContext,
  limits: { withinSearchSteps?: number } = {},
): { summary: ScreenSummary; actionNodes: number[] } {
  const analysis = analyzeScreen(tree);
  const budget = withinBudget(limits.withinSearchSteps ?? WITHIN_SEARCH_STEPS);
  const chosen = new Map<number, ChosenSelector>();
  const actions: ActionEntry[] = [];
  const actionNodes: number[] = [];
  for (const target of analysis.targets) {
    if (target.label === "" && target.wrapsTargets > 0) continue; // a nameless container: its targets are listed
    const choice = chooseSelector(analysis, target, budget);
    if (choice === null) continue; // nothing names it; the contract never offers coordinates
    chosen.set(target.root, choice);
    actions.push(toAction(analysis, target.root, target.label, target.role, choice, context));
    actionNodes.push(target.root);
  }
  const summary: ScreenSummary = {
    foreground_package: context.foregroundPackage ?? foregroundPackageOf(tree),
    texts: remainingTexts(analysis, actions),
    actions,
    can_scroll: tree.nodes.some((node) => node.scrollable && analysis.onScreen[node.id]),
    keyboard: context.keyboard.open ? { ...context.keyboard } : { open: false },
    issues: auditScreen(analysis, context, chosen),
  };
  return { summary, actionNodes };
}

function toAction(
  analysis: ScreenAnalysis,
  root: number,
  label: string,
  role: Role,
  choice: ChosenSelector,
  context: ScreenContext,
): ActionEntry {
  const node = analysis.tree.nodes[root]!;
  const b = node.bounds!;
  const entry: ActionEntry = {
    selector: choice.selector,
    bounds: [b.left, b.top, b.right - b.left, b.bottom - b.top],
  };
  if (role !== "button") entry.role = role;
  const [, value] = keyOf(choice.selector);
  if (label !== "" && label !== firstLine(value)) entry.label = label;
  if (!node.enabled) entry.enabled = false;
  if (choice.ambiguous) entry.ambiguous = true;
  const keyboardTop = context.keyboard.open ? context.keyboard.top : undefined;
  if (keyboardTop !== undefined && b.top >= keyboardTop) entry.covered_by_keyboard = true;
  // Keep the documented key order: selector, label, role, enabled, bounds, flags.
  return {
    selector: entry.selector,
    ...(entry.label === undefined ? {} : { label: entry.label }),
    ...(entry.role === undefined ? {} : { role: entry.role }),
    ...(entry.enabled === undefined ? {} : { enabled: entry.enabled }),
    bounds: entry.bounds,
    ...(entry.ambiguous === undefined ? {} : { ambiguous: entry.ambiguous }),
    ...(entry.covered_by_keyboard === undefined ? {} : { covered_by_keyboard: entry.covered_by_keyboard }),
  };
}

/**
 * Visible strings in document order, once each, minus what is already said: by an action (its selector
 * value, its `within` value, its label, or one line or comma-separated part of those: Flutter and
 * Compose merge a widget's texts into one content-desc), by parts that are all said (`Wi-Fi, On` when
 * `Wi-Fi` and `On` are), or by a longer text kept in the list (`Touch` when `Touch, Header` is listed).
 */
function remainingTexts(analysis: ScreenAnalysis, actions: ActionEntry[]): string[] {
  const said = new Set<string>();
  const say = (value: string) => {
    said.add(tidyName(value));
    for (const part of partsOf(value)) said.add(part);
  };
  for (const action of actions) {
    say(keyOf(action.selector)[1]);
    if (action.selector.within !== undefined) say(keyOf(action.selector.within)[1]);
    if (action.label !== undefined) say(action.label);
  }
  const isSaid = (value: string) => {
    const whole = tidyName(value);
    if (said.has(whole)) return true;
    const parts = partsOf(value).filter((part) => part !== whole);
    return parts.length > 0 && parts.every((part) => said.has(part));
  };
  const candidates: string[] = [];
  const seen = new Set<string>();
  for (const node of analysis.tree.nodes) {
    if (!analysis.onScreen[node.id]) continue;
    for (const value of shownStrings(node)) {
      if (seen.has(value) || isSaid(value)) continue;
      seen.add(value);
      candidates.push(value);
    }
  }
  const inLongerText = new Set<string>();
  for (const value of candidates) {
    const whole = tidyName(value);
    for (const part of partsOf(value)) if (part !== whole) inLongerText.add(part);
  }
  return candidates.filter((value) => !inLongerText.has(tidyName(value)));
}

/** The lines of a string and the comma-separated parts of each line, tidied (a comma between digits, as in 1,234, does not separate). */
function partsOf(value: string): string[] {
  const parts: string[] = [];
  for (const line of value.split("\n")) {
    const tidyLine = tidyName(line);
    if (tidyLine !== "" && !parts.includes(tidyLine)) parts.push(tidyLine);
    for (const part of line.split(/,(?!\d)/)) {
      const tidyPart = tidyName(part);
      if (tidyPart !== "" && !parts.includes(tidyPart)) parts.push(tidyPart);
    }
  }
  return parts;
}

/** The package the screen belongs to, from the dump: most nodes outside the status bar and the keyboard (see windows.ts). */
export function foregroundPackageOf(tree: UiTree): string {
  return screenWindows(tree).mainPackage;
}
