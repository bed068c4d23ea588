/**
 * Where a touch lands and who takes it first, as on Android: an element click presses the centre of the element's
 * visible bounds (UiObject2.click → getVisibleCenter: its bounds cut to its window's and to its first scrollable
 * ancestor's visible bounds), and an open DrawerLayout drawer's scrim takes a touch on the content beside the
 * drawer (androidx DrawerLayout.onInterceptTouchEvent: with the scrim shown, a down on the content view is
 * intercepted; onTouchEvent: the tap's up closes the drawers). Pure.
 */
import { boundsOf, type Rect, type SimNode } from "./sim_node.ts";

/** The centre of the node's visible bounds, or null without usable bounds. */
export function visibleCentreOf(node: SimNode): { x: number; y: number } | null {
  const r = visibleBounds(node);
  if (r === null || r.right <= r.left || r.bottom <= r.top) return null;
  return { x: Math.floor((r.left + r.right) / 2), y: Math.floor((r.top + r.bottom) / 2) };
}

function visibleBounds(node: SimNode): Rect | null {
  const own = boundsOf(node);
  if (own === null) return null;
  let root = node;
  while (root.parent !== null) root = root.parent;
  let shown = root === node ? own : intersect(own, boundsOf(root));
  for (let at = node.parent; at !== null; at = at.parent) {
    if (at.attrs["scrollable"] !== "true") continue;
    shown = intersect(shown, visibleBounds(at));
    break;
  }
  return shown;
}

/** Rect.intersect: the overlap, or the rectangle unchanged when there is none. */
function intersect(r: Rect, by: Rect | null): Rect {
  if (by === null) return r;
  const left = Math.max(r.left, by.left), top = Math.max(r.top, by.top);
  const right = Math.min(r.right, by.right), bottom = Math.min(r.bottom, by.bottom);
  return left < right && top < bottom ? { left, top, right, bottom } : r;
}

/**
 * Whether (x, y) is on the scrim of an open drawer: inside a DrawerLayout that shows a drawer (any child after its
 * first, the content view; a closed drawer is invisible, so not in the dump) and on none of its drawers.
 */
export function onDrawerScrim(nodes: readonly SimNode[], x: number, y: number): boolean {
  return nodes.some((n) => {
    if (!/DrawerLayout$/.test(n.attrs["class"] ?? "") || !contains(boundsOf(n), x, y)) return false;
    const drawers = n.children.slice(1);
    return drawers.length > 0 && !drawers.some((d) => contains(boundsOf(d), x, y));
  });
}

function contains(r: Rect | null, x: number, y: number): boolean {
  return r !== null && x >= r.left && x < r.right && y >= r.top && y < r.bottom;
}
