/**
 * UiTree + ScreenContext → ScreenSummary (SPEC §5): the screen in the vocabulary the tools accept.
 * Every listed target (clickable, long-clickable, checkable or input; scrollables never; nameless
 * wrappers of other targets are the one exception) becomes one action whose selector names it alone
 * and resolves back to it through the locator, with the state an agent needs (checked, selected,
 * focused, and what is drawn over it: covered_by); texts are the visible strings not already said by an action; where it scrolls (scroll_areas.ts). Fields at their defaults are
 * left out (see docs/screen-model.md for every omission rule). Pure.
 */
import { auditScreen } from "./audit.ts";
import { offeredSelectors, WITHIN_SEARCH_STEPS, withinBudget } from "./choose_selector.ts";
import { coverLabel } from "./locate.ts";
import { isInputNode, labelFrom, tidyName } from "./node_kinds.ts";
import { coveringNode } from "./occlusion.ts";
import { analyzeScreen, type Entity, type ScreenAnalysis, shownStrings } from "./screen_analysis.ts";
import { scrollFields } from "./scroll_areas.ts";
import { keyOf } from "./selector_match.ts";
import type { ActionEntry, ScreenContext, ScreenSummary, Selector, SelectorKeyValue, UiNode, UiTree } from "./types.ts";
import { screenWindows } from "./windows.ts";

/** Text views report `selected` while their text scrolls as a marquee (SystemUI's build number): not a selected tab. */
const MARQUEE_CLASS = /TextView$/;

export function summarize(tree: UiTree, context: ScreenContext): ScreenSummary {
  return summarizeWithNodes(tree, context).summary;
}

/**
 * The summary plus, for each action and each scroll area, the id of the node it was offered for (same order as `actions`, `scroll_areas`).
 * `withinSearchSteps` bounds the `within` searches of the whole summary (WITHIN_SEARCH_STEPS; tests lower it).
 */
export function summarizeWithNodes(
  tree: UiTree,
  context: ScreenContext,
  limits: { withinSearchSteps?: number } = {},
): { summary: ScreenSummary; actionNodes: number[]; scrollAreaNodes: number[] } {
  const analysis = analyzeScreen(tree);
  const budget = withinBudget(limits.withinSearchSteps ?? WITHIN_SEARCH_STEPS);
  const chosen = new Map<number, Selector>();
  const actions: ActionEntry[] = [];
  const actionNodes: number[] = [];
  const selectors = offeredSelectors(analysis, budget);
  analysis.listed.forEach((target, i) => {
    const selector = selectors[i]!;
    chosen.set(target.root, selector);
    actions.push(toAction(analysis, target, selector, context));
    actionNodes.push(target.root);
  });
  const issues = auditScreen(analysis, context, chosen);
  const scroll = scrollFields(analysis, actionNodes.map((node, i) => ({ node, selector: actions[i]!.selector })), budget);
  const summary: ScreenSummary = {
    foreground_package: context.foregroundPackage ?? foregroundPackageOf(tree),
    texts: remainingTexts(analysis, [...actions, ...(scroll.fields.scroll_areas ?? [])], heldTexts(analysis, actions, actionNodes)),
    actions,
    ...scroll.fields,
    ...(context.keyboard.open ? { keyboard: { ...context.keyboard, open: true as const } } : {}),
    ...(issues.length > 0 ? { issues } : {}),
  };
  return { summary, actionNodes, scrollAreaNodes: scroll.nodes };
}

/** One action, its fields in the documented order: selector, label, role, long_press, enabled, checked, selected, focused, password, text_length, bounds, covered_by_keyboard, covered_by. */
function toAction(analysis: ScreenAnalysis, target: Entity, selector: Selector, context: ScreenContext): ActionEntry {
  const { nodes } = analysis.tree;
  const node = nodes[target.root]!;
  const b = node.bounds!;
  const value = wordsOf(selector);
  const keyboardTop = context.keyboard.open ? context.keyboard.top : undefined;
  const on = target.role === "toggle" && target.members.some((id) => nodes[id]!.checkable && nodes[id]!.checked);
  return {
    selector,
    ...(target.label !== "" && (value === null || target.label !== labelFrom(value)) ? { label: target.label } : {}),
    ...(target.role === "button" ? {} : { role: target.role }),
    ...(node.longClickable ? { long_press: true as const } : {}),
    ...(node.enabled ? {} : { enabled: false as const }),
    ...(on ? { checked: true as const } : {}),
    ...(node.selected && !MARQUEE_CLASS.test(node.className) ? { selected: true as const } : {}),
    ...(node.focused && isInputNode(node) ? { focused: true as const } : {}),
    ...(node.password ? { password: true as const, ...(node.textLength === undefined ? {} : { text_length: node.textLength }) } : {}),
    bounds: [b.left, b.top, b.right - b.left, b.bottom - b.top],
    ...(keyboardTop !== undefined && b.top >= keyboardTop ? { covered_by_keyboard: true as const } : {}),
    ...coverField(analysis, node),
  };
}

/** What is drawn over the element where a tap lands (occlusion.ts), by its label: ui_tap refuses it until that is gone. */
function coverField(analysis: ScreenAnalysis, node: UiNode): { covered_by?: string } {
  const cover = coveringNode(analysis.tree, node);
  return cover === null ? {} : { covered_by: coverLabel(analysis, cover) };
}

/** The words a key says (its value), or null for a role, which says no words of the screen. */
function wordsOf(key: SelectorKeyValue): string | null {
  const [name, value] = keyOf(key);
  return name === "role" ? null : value;
}

/**
 * The text each offered input holds (not its hint) that its own entry does not say: an input offered by its
 * hint says nothing of what was typed, so that text stays in `texts` whatever else says the same words.
 */
function heldTexts(analysis: ScreenAnalysis, actions: ActionEntry[], actionNodes: number[]): Set<number> {
  const held = new Set<number>();
  actionNodes.forEach((root, i) => {
    const node = analysis.tree.nodes[root]!;
    if (!isInputNode(node) || node.text.trim() === "" || node.text === node.hint) return;
    const action = actions[i]!;
    const own = [action.selector, action.selector.within].map((key) => (key === undefined ? null : wordsOf(key)));
    if (![...own, action.label].some((value) => value !== null && value !== undefined && tidyName(value) === tidyName(node.text))) {
      held.add(root);
    }
  });
  return held;
}

/**
 * Visible strings in document order, once each, minus what is already said: by an action or a scroll area (its selector
 * value, its `within` value, its label, or one line or comma-separated part of those: Flutter and
 * Compose merge a widget's texts into one content-desc), by parts that are all said (`Wi-Fi, On` when
 * `Wi-Fi` and `On` are), or by a longer text kept in the list (`Touch` when `Touch, Header` is listed).
 * The text of a `held` input (heldTexts) is kept whatever else says it.
 */
function remainingTexts(
  analysis: ScreenAnalysis,
  actions: Pick<ActionEntry, "selector" | "label">[],
  held: Set<number> = new Set(),
): string[] {
  const said = new Set<string>();
  const say = (value: string) => {
    said.add(tidyName(value));
    for (const part of partsOf(value)) said.add(part);
  };
  for (const action of actions) {
    for (const key of [action.selector, action.selector.within]) {
      const words = key === undefined ? null : wordsOf(key);
      if (words !== null) say(words);
    }
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
  const kept = new Set<string>();
  for (const node of analysis.tree.nodes) {
    if (!analysis.onScreen[node.id]) continue;
    if (held.has(node.id) && !seen.has(node.text)) {
      seen.add(node.text);
      kept.add(tidyName(node.text));
      candidates.push(node.text);
    }
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
  return candidates.filter((value) => kept.has(tidyName(value)) || !inLongerText.has(tidyName(value)));
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
