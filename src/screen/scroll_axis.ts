/**
 * The axis a scroll area scrolls along, from what a dump gives: the class when it says (HorizontalScrollView,
 * every ViewPager; ScrollView, ListView, GridView, WebView), else how its items are laid out (side by
 * side in one row is horizontal). Pure; the rule is in docs/screen-model.md ("Where it scrolls").
 */
import type { ScreenAnalysis } from "./screen_analysis.ts";
import type { ScrollAxis, UiNode } from "./types.ts";

/** Classes that scroll sideways: HorizontalScrollView (and TabLayout, which reports it), every ViewPager. */
const HORIZONTAL_CLASS = /HorizontalScrollView$|ViewPager/;
/** Classes that scroll up and down whatever their items look like. */
const VERTICAL_CLASS = /(?<!Horizontal)ScrollView$|ListView$|GridView$|WebView$/;
/** How far down single-child wrappers the item row of an unknown class is looked for. */
const WRAPPER_DEPTH = 3;

/**
 * The axis an area scrolls along. By class first (HorizontalScrollView, ViewPager: horizontal;
 * ScrollView, ListView, GridView, WebView: vertical); a page of a ViewPager2 (a RecyclerView inside it)
 * is horizontal; for any other class (RecyclerView, Compose and Flutter views) its items decide: two or
 * more, side by side in one row (their vertical spans all overlap), is horizontal; otherwise vertical.
 */
export function scrollAxisOf(analysis: ScreenAnalysis, id: number): ScrollAxis {
  const { nodes } = analysis.tree;
  const node = nodes[id]!;
  const parent = node.parent === null ? null : nodes[node.parent]!;
  if (HORIZONTAL_CLASS.test(node.className) || (parent !== null && /ViewPager2$/.test(parent.className))) return "horizontal";
  if (VERTICAL_CLASS.test(node.className)) return "vertical";
  let items = visibleChildren(analysis, node);
  for (let depth = 0; items.length === 1 && depth < WRAPPER_DEPTH; depth++) items = visibleChildren(analysis, items[0]!);
  return items.length >= 2 && inOneRow(items) ? "horizontal" : "vertical";
}

function visibleChildren(analysis: ScreenAnalysis, node: UiNode): UiNode[] {
  return node.children.map((id) => analysis.tree.nodes[id]!).filter((child) => analysis.onScreen[child.id]);
}

/** Every item's vertical span overlaps every other's, and no two overlap sideways by more than half the narrower. */
function inOneRow(items: UiNode[]): boolean {
  const top = Math.max(...items.map((item) => item.bounds!.top));
  const bottom = Math.min(...items.map((item) => item.bounds!.bottom));
  if (top >= bottom) return false;
  const byLeft = [...items].sort((a, b) => a.bounds!.left - b.bounds!.left);
  return byLeft.every((item, i) => {
    const next = byLeft[i + 1];
    if (next === undefined) return true;
    const overlap = item.bounds!.right - next.bounds!.left;
    const narrower = Math.min(item.bounds!.right - item.bounds!.left, next.bounds!.right - next.bounds!.left);
    return overlap <= narrower / 2;
  });
}
