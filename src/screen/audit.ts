/**
 * The arithmetic audit of SPEC §5: a target entirely off screen, a named actionable node of zero area
 * (not inside a scroll container, which clips what it scrolled away to nothing),
 * and a target smaller than 48 dp on both axes at the device's real density (not checked when the
 * density is unknown). A target cut by the edge of its scroll container or of the screen is clipped,
 * not small, and is not reported: the aim is zero false positives. The same issue of every element a
 * selector without its `index` names (eight identical forward buttons) is said once, by that selector. Pure.
 */
import { area, isActionableNode } from "./node_kinds.ts";
import type { ScreenAnalysis } from "./screen_analysis.ts";
import { matchInAnalysis } from "./selector_match.ts";
import type { AuditIssue, Bounds, ScreenContext, Selector, UiNode } from "./types.ts";
import { screenWindows } from "./windows.ts";

export const MIN_TOUCH_DP = 48;

export function minimumTouchPx(density: number): number {
  return Math.ceil((MIN_TOUCH_DP * density) / 160);
}

/** `chosen` holds the selector already chosen for each target (by root id). */
export function auditScreen(analysis: ScreenAnalysis, context: ScreenContext, chosen: Map<number, Selector>): AuditIssue[] {
  const { nodes } = analysis.tree;
  const issues: AuditIssue[] = [];
  const elementOf = new Map<AuditIssue, number>();
  const minimum = context.density !== undefined && context.density > 0 ? minimumTouchPx(context.density) : null;
  const { keyboard } = screenWindows(analysis.tree);
  for (const node of nodes) {
    if (!node.visible || keyboard[node.id] || !isActionableNode(node)) continue;
    if (!analysis.onScreen[node.id]) {
      const selector = zeroAreaSelector(node);
      if (node.bounds !== null && area(node.bounds) === 0 && selector !== null && !insideScroller(node, nodes)) {
        issues.push({ issue: "zero_area", selector });
      }
      continue;
    }
    const selector = chosen.get(node.id);
    if (selector === undefined) continue; // merged into another target, or a nameless wrapper
    const b = node.bounds!;
    const width = b.right - b.left;
    const height = b.bottom - b.top;
    const screenKnown = context.width > 0 && context.height > 0;
    if (b.right <= 0 || b.bottom <= 0 || (screenKnown && (b.left >= context.width || b.top >= context.height))) {
      issues.push({ issue: "off_screen", selector });
    } else if (minimum !== null && width < minimum && height < minimum && !isClipped(node, nodes, context)) {
      issues.push({ issue: "touch_target_too_small", selector, size_px: [width, height], minimum_px: minimum });
    } else continue;
    elementOf.set(issues[issues.length - 1]!, node.id);
  }
  return withoutRepeats(sayOnce(analysis, issues, elementOf));
}

/**
 * An issue whose selector carries an `index` is written with the selector without it when every element
 * that one names has the very same issue (kind and size), and then said once for all of them (eight
 * identical forward buttons, however each is named, make one issue).
 */
function sayOnce(analysis: ScreenAnalysis, issues: AuditIssue[], elementOf: Map<AuditIssue, number>): AuditIssue[] {
  const kindOf = (issue: AuditIssue) => `${issue.issue} ${JSON.stringify(issue.size_px ?? null)}`;
  const kindsOf = new Map<number, Set<string>>();
  for (const issue of issues) {
    const root = elementOf.get(issue);
    if (root !== undefined) kindsOf.set(root, (kindsOf.get(root) ?? new Set()).add(kindOf(issue)));
  }
  const covered = new Map<number, string>(); // element → the kind a shared selector already says for it
  const shared = new Set<AuditIssue>();
  const out = issues.map((issue) => {
    if (issue.selector.index === undefined) return issue;
    const { index: _index, ...withoutIndex } = issue.selector;
    const named = matchInAnalysis(analysis, withoutIndex).entities;
    if (!named.every((root) => kindsOf.get(root)?.has(kindOf(issue)))) return issue;
    for (const root of named) covered.set(root, kindOf(issue));
    const once = { ...issue, selector: withoutIndex };
    shared.add(once);
    return once;
  });
  return out.filter((issue, i) => shared.has(issue) || covered.get(elementOf.get(issues[i]!) ?? -1) !== kindOf(issue));
}

/** Identical issues (same kind, selector and sizes) are said once. */
function withoutRepeats(issues: AuditIssue[]): AuditIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = JSON.stringify(issue);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * What shows of the node may be a cut-off part: it touches an edge of the screen or of a scrolling
 * ancestor, or exactly one of the two opposite edges of any ancestor (a node filling its parent
 * from edge to edge is whole; one flush with a single edge may continue beyond it).
 */
function isClipped(node: UiNode, nodes: UiNode[], context: ScreenContext): boolean {
  const b = node.bounds!;
  const touchesAny = (f: Bounds) => b.left <= f.left || b.top <= f.top || b.right >= f.right || b.bottom >= f.bottom;
  if (touchesAny({ left: 0, top: 0, right: context.width, bottom: context.height })) return true;
  for (let at = node.parent; at !== null; at = nodes[at]!.parent) {
    const f = nodes[at]!.bounds;
    if (f === null) continue;
    if (nodes[at]!.scrollable && touchesAny(f)) return true;
    if ((b.left <= f.left) !== (b.right >= f.right) || (b.top <= f.top) !== (b.bottom >= f.bottom)) return true;
  }
  return false;
}

/** Content scrolled out of a scroll container (or a WebView) is clipped to zero area: not a defect. */
function insideScroller(node: UiNode, nodes: UiNode[]): boolean {
  for (let at = node.parent; at !== null; at = nodes[at]!.parent) {
    if (nodes[at]!.scrollable) return true;
  }
  return false;
}

/** A zero-area node cannot be matched (it is not on screen), so it is named by its own first key. */
function zeroAreaSelector(node: UiNode): Selector | null {
  if (node.resourceId !== "") return { resource_id: node.resourceId };
  if (node.text.trim() !== "") return { text: node.text };
  if (node.contentDesc.trim() !== "") return { content_desc: node.contentDesc };
  return null;
}
