/**
 * What a tap on an element would really reach. UiAutomator2 clicks an element at the centre of its visible
 * bounds (UiObject2.click: `getVisibleCenter`), and those bounds are clipped by the element's parents only, never
 * by what is drawn over it. Android hands the touch to the children of each ViewGroup in reverse drawing order
 * (the last drawn first), and the first view that takes it (clickable, long-clickable or scrollable) wins: a
 * bottom sheet, a navigation bar or a scrim drawn after the element, in another branch of its window, takes a tap
 * meant for what lies under it. Decided only where the dump says the siblings' `drawing-order` (API 24+).
 * Pure.
 */
import type { UiNode, UiTree } from "./types.ts";

/** The deepest view that would take a tap at the element's centre instead of it, or null when the tap reaches it.
 * A scrollable view takes it too: a list drawn over the element consumes a touch between its rows (a drag may start). */
export function coveringNode(tree: UiTree, target: UiNode): UiNode | null {
  const b = target.bounds;
  if (b === null) return null;
  const x = (b.left + b.right) >> 1;
  const y = (b.top + b.bottom) >> 1;
  const { nodes } = tree;
  const chain = pathFromRoot(nodes, target);
  const window = chain[0]!;
  let cover: UiNode | null = null;
  for (const node of nodes) {
    if (node === target || !takesTouch(node) || node.bounds === null) continue;
    const nb = node.bounds;
    if (x < nb.left || x >= nb.right || y < nb.top || y >= nb.bottom) continue;
    const path = pathFromRoot(nodes, node);
    if (path[0] !== window) continue; // another window: its place in z-order is not in the dump
    const split = firstDifference(chain, path);
    if (split === chain.length || split === path.length) continue; // an ancestor or a descendant of the target
    if (!drawnAfter(path[split]!, chain[split]!)) continue;
    if (handlesForTarget(node, chain, split)) continue;
    if (cover === null || node.depth > cover.depth) cover = node;
  }
  return cover;
}

/**
 * A view drawn over the whole of the container it shares with the target (a card's clickable foreground, a
 * row's touch overlay) when nothing in the target's own branch takes touches: the tap reaches that view, which
 * is how a finger on the target's text acts on the screen too. It is what the target's tap has always done.
 * A full-window clickable scrim over plain text is let through by this rule as well (the tap closes the scrim).
 */
function handlesForTarget(cover: UiNode, chain: readonly UiNode[], split: number): boolean {
  if (chain.slice(split).some(takesTouch)) return false;
  const shared = chain[split - 1]!.bounds;
  const c = cover.bounds!;
  return shared !== null && c.left <= shared.left && c.top <= shared.top && c.right >= shared.right && c.bottom >= shared.bottom;
}

function takesTouch(node: UiNode): boolean {
  return node.visible && (node.clickable || node.longClickable || node.scrollable);
}

function pathFromRoot(nodes: readonly UiNode[], node: UiNode): UiNode[] {
  const path: UiNode[] = [node];
  for (let at = node.parent; at !== null; at = nodes[at]!.parent) path.push(nodes[at]!);
  return path.reverse();
}

function firstDifference(a: readonly UiNode[], b: readonly UiNode[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Whether sibling `a` is drawn after sibling `b` (so over it), as the dump's `drawing-order` says. Without it,
 * nothing is decided: the child order is not the drawing order once a sibling has elevation (a bottom bar
 * drawn over the content that comes after it). Nor with 0: a View's place starts at 1 (View.java counts from 1),
 * 0 is what a node whose order is not known says (a window's root, every Compose node), beside a real view too. */
function drawnAfter(a: UiNode, b: UiNode): boolean {
  return (a.drawingOrder ?? 0) > 0 && (b.drawingOrder ?? 0) > 0 && a.drawingOrder! > b.drawingOrder!;
}
