/**
 * What a tap on an element would really reach. UiAutomator2 clicks an element at the centre of its visible
 * bounds (UiObject2.click: `getVisibleCenter`: its bounds cut to its window and its first scrollable ancestor's
 * visible bounds, `visibleBounds` here), never cut by what is drawn over it. Android hands the touch to the
 * children of each ViewGroup in reverse drawing order (the last drawn first), and the first view that takes it
 * (clickable, long-clickable or scrollable) wins: a bottom sheet, a navigation bar or a scrim drawn after the
 * element, in another branch of its window, takes a tap meant for what lies under it. Decided only where the
 * dump says the siblings' `drawing-order` (API 24+, 1 and up); an open DrawerLayout drawer's scrim, which the layout
 * itself handles, is decided without it. Pure.
 */
import { area } from "./node_kinds.ts";
import type { Bounds, UiNode, UiTree } from "./types.ts";

/** The view that would take a tap at the element's centre instead of it (the first Android hands it to: takesFirst), or null when
 * the tap reaches it.
 * A scrollable view takes it too: a list drawn over the element consumes a touch between its rows (a drag may start). */
export function coveringNode(tree: UiTree, target: UiNode): UiNode | null {
  const { nodes } = tree;
  const b = visibleBounds(nodes, target);
  if (b === null) return null;
  const x = (b.left + b.right) >> 1;
  const y = (b.top + b.bottom) >> 1;
  const chain = pathFromRoot(nodes, target);
  const drawers = openDrawersOver(nodes, target);
  const onDrawer = drawers.findLast((d) => inside(d.bounds, x, y));
  if (drawers.length > 0 && onDrawer === undefined) return drawers.at(-1)!; // the scrim beside them takes it
  const window = chain[0]!;
  let cover: UiNode | null = null;
  for (const node of nodes) {
    if (node === target || !takesTouch(node) || !inside(node.bounds, x, y)) continue;
    const path = pathFromRoot(nodes, node);
    if (path[0] !== window) continue; // another window: its place in z-order is not in the dump
    const split = firstDifference(chain, path);
    if (split === chain.length || split === path.length) continue; // an ancestor or a descendant of the target
    // A drawer (elevated over the content) is touched before the content, with or without drawing-order.
    if (!drawnAfter(path[split]!, chain[split]!) && path[split] !== onDrawer) continue;
    if (handlesForTarget(node, chain, split)) continue;
    if (cover === null || takesFirst(nodes, node, cover)) cover = node;
  }
  return cover;
}

/**
 * The open drawers (last drawn last) of the nearest DrawerLayout showing one whose content view holds the element. A
 * closed drawer is INVISIBLE, so not in a dump: any other child shown on it (not content: contentViews) is a drawer open
 * or on its way. While one shows, the layout intercepts a touch on its content (DrawerLayout.onInterceptTouchEvent:
 * scrim opacity > 0 and the touch on a content view) and closes the drawer on release: the scrim takes the tap,
 * whatever lies under it, with or without `drawing-order`. A touch on the drawer itself goes to the drawer's views
 * first (a drawer is elevated over the content, with or without `drawing-order`), and through one that takes none.
 */
export function openDrawersOver(nodes: readonly UiNode[], node: UiNode): UiNode[] {
  for (let child = node, at = node.parent; at !== null; child = nodes[at]!, at = child.parent) {
    const layout = nodes[at]!;
    if (!DRAWER_LAYOUT.test(layout.className)) continue;
    const children = layout.children.map((id) => nodes[id]!);
    const content = contentViews(layout, children);
    if (!content.includes(child)) continue;
    const drawers = children.filter((d) => !content.includes(d) && d.visible && shows(layout, d));
    if (drawers.length > 0) return drawers; // else an outer DrawerLayout may show one over this one
  }
  return [];
}

/** The content views (gravity NONE): every child as wide as the layout, wherever placed (a drawer is measured to the
 * width less 64dp at most); when none is, the first child (its margins may hold a side navigation bar's inset). */
function contentViews(layout: UiNode, children: readonly UiNode[]): UiNode[] {
  const lb = layout.bounds;
  const wide = lb === null ? [] : children.filter((c) => c.bounds !== null && c.bounds.right - c.bounds.left >= lb.right - lb.left);
  return wide.length > 0 ? wide : children.slice(0, 1);
}

/** Whether a drawer shows: it has an area on its layout (a dump's unclipped bounds may park a closed one beside it). */
function shows(layout: UiNode, child: UiNode): boolean {
  const cb = child.bounds;
  if (cb === null || area(cb) === 0) return false;
  const lb = layout.bounds;
  if (lb === null) return true;
  return Math.min(cb.right, lb.right) > Math.max(cb.left, lb.left) && Math.min(cb.bottom, lb.bottom) > Math.max(cb.top, lb.top);
}

/** Whether the tap's cover is an open drawer's scrim (the element lies in the content beside it): only closing the
 * drawer clears it, no scroll does. */
export function coveredByOpenDrawer(tree: UiTree, target: UiNode): boolean {
  const cover = coveringNode(tree, target);
  return cover !== null && openDrawersOver(tree.nodes, target).includes(cover);
}

/** androidx's and the support library's DrawerLayout (and a subclass keeping the name). */
const DRAWER_LAYOUT = /(^|\.)DrawerLayout$/;

function inside(b: Bounds | null, x: number, y: number): boolean {
  return b !== null && x >= b.left && x < b.right && y >= b.top && y < b.bottom;
}

/** Whether `a` gets a touch at the point before `b` (both take touches there): a view before its ancestors, else
 * the one whose branch is drawn later (a dialog over a sheet's option); the deeper when the dump does not say. */
function takesFirst(nodes: readonly UiNode[], a: UiNode, b: UiNode): boolean {
  const pa = pathFromRoot(nodes, a);
  const pb = pathFromRoot(nodes, b);
  const split = firstDifference(pa, pb);
  if (split < pa.length && split < pb.length) {
    if (drawnAfter(pa[split]!, pb[split]!)) return true;
    if (drawnAfter(pb[split]!, pa[split]!)) return false;
  }
  return a.depth > b.depth;
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

/**
 * Where UiAutomator2 taps an element (UiObject2.getVisibleBounds): its bounds cut to its window's (the root's, for
 * the display and the window) and to the visible bounds of its first scrollable ancestor. Views come clipped to
 * their parents already; a WebView's or Compose's virtual nodes may run past their list. As Android's
 * Rect.intersect, a cut that leaves nothing changes nothing.
 */
function visibleBounds(nodes: readonly UiNode[], node: UiNode): Bounds | null {
  if (node.bounds === null) return null;
  let root = node;
  while (root.parent !== null) root = nodes[root.parent]!;
  let shown = root === node ? node.bounds : cut(node.bounds, root.bounds);
  for (let at = node.parent; at !== null; at = nodes[at]!.parent) {
    if (!nodes[at]!.scrollable) continue;
    shown = cut(shown, visibleBounds(nodes, nodes[at]!));
    break;
  }
  return shown;
}

function cut(b: Bounds, by: Bounds | null): Bounds {
  if (by === null) return b;
  const left = Math.max(b.left, by.left), top = Math.max(b.top, by.top);
  const right = Math.min(b.right, by.right), bottom = Math.min(b.bottom, by.bottom);
  return left < right && top < bottom ? { left, top, right, bottom } : b;
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
