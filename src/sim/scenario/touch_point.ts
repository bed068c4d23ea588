/**
 * Where a touch lands and who takes it, as on Android: an element click presses the centre of the element's
 * visible bounds (UiObject2.click → getVisibleCenter: its bounds cut to its window's and to its first scrollable
 * ancestor's visible bounds); an open DrawerLayout drawer's scrim takes a touch on the content beside the
 * drawer (androidx DrawerLayout.onInterceptTouchEvent: with the scrim shown, a down on the content view is
 * intercepted; onTouchEvent: the tap's up closes the drawers); otherwise the down goes to the window drawn last
 * under the finger and, inside it, as ViewGroup.dispatchTouchEvent hands it on: to each child under the finger in
 * reverse drawing order (buildTouchDispatchChildList: the dump's `drawing-order`, which counts Z, else the child
 * order), depth first; the first view whose onTouchEvent returns true takes the whole gesture, and a group none of
 * whose children takes it tries itself. View.onTouchEvent returns true for a clickable, long-clickable or
 * context-clickable view, enabled or not ("A disabled view that is clickable still consumes the touch events, it
 * just doesn't respond to them"); a scrolling container (RecyclerView, ScrollView, ListView) takes it too, to drag.
 * So a tap that a view drawn over another does not take falls through to the views below it. Pure.
 */
import { boundsOf, isInput, type Rect, type SimNode } from "./sim_node.ts";

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

/**
 * The view that takes a down at (x, y): ViewGroup.dispatchTouchEvent's touch target, or null when nothing in the
 * window drawn last under the finger takes it (the touch is dropped there: it never passes to another window).
 */
export function touchTarget(roots: readonly SimNode[], x: number, y: number): SimNode | null {
  const window = roots.findLast((r) => shown(r) && contains(boundsOf(r), x, y));
  return window === undefined ? null : dispatch(window, x, y);
}

/**
 * Offers the touch to the children under the finger (a child whose own bounds miss the point may still hold it in a
 * descendant: a WebView's or Compose's virtual nodes run past their parent), last drawn first, then to `node`. Where
 * the dump does not say the siblings' drawing order (`drawing-order` missing or 0), the child order is no guide (a
 * bottom bar with elevation is drawn over the content that comes after it): the smallest view that takes the touch
 * among them gets it, the later child on a tie (a bar's button over a card, a tile over a full-screen list). A guess
 * where the dump is silent, as the harness's occlusion model does not decide there either (src/screen/occlusion.ts).
 */
function dispatch(node: SimNode, x: number, y: number): SimNode | null {
  const children = node.children.filter((c) => shown(c) && reaches(c, x, y));
  let found: SimNode | null = null;
  if (children.every((c) => Number(c.attrs["drawing-order"] ?? 0) > 0)) {
    for (const child of touchOrder(children)) {
      found = dispatch(child, x, y);
      if (found !== null) break;
    }
  } else {
    for (const child of children) {
      const taker = dispatch(child, x, y);
      if (taker !== null && (found === null || areaOf(taker) <= areaOf(found))) found = taker;
    }
  }
  if (found !== null) return found;
  return takesTouch(node) && contains(boundsOf(node), x, y) ? node : null;
}

function areaOf(node: SimNode): number {
  const r = boundsOf(node);
  return r === null ? 0 : Math.max(0, r.right - r.left) * Math.max(0, r.bottom - r.top);
}

/** Whether the node or one of its descendants is under the finger. */
function reaches(node: SimNode, x: number, y: number): boolean {
  return contains(boundsOf(node), x, y) || node.children.some((c) => reaches(c, x, y));
}

/** The node drawn on top under the finger: the deepest one reached by always taking the child drawn last there. */
export function nodeUnderFinger(roots: readonly SimNode[], x: number, y: number): SimNode | null {
  let at = roots.findLast((r) => shown(r) && contains(boundsOf(r), x, y)) ?? null;
  for (let next = at; next !== null;) {
    at = next;
    next = touchOrder(at.children).find((c) => shown(c) && contains(boundsOf(c), x, y)) ?? null;
  }
  return at;
}

/**
 * View.onTouchEvent's answer to a down: clickable, long-clickable or context-clickable (disabled or not), an input
 * (an EditText is clickable), or a container that scrolls (it takes the down to start a drag). A checkable node
 * with no clickable ancestor takes it too: it handles its own press (a Compose toggle without a click action); a
 * Switch in a clickable row does not (the row takes the touch and toggles it).
 */
export function takesTouch(node: SimNode): boolean {
  const a = node.attrs;
  return a["clickable"] === "true" || a["long-clickable"] === "true" || a["context-clickable"] === "true" || isInput(node) ||
    a["scrollable"] === "true" || pressesItself(node) || drawsItself(node);
}

/** A game's SurfaceView: it handles touches in its own onTouchEvent, though the dump says it is not clickable. */
function drawsItself(node: SimNode): boolean {
  return /(^|\.)(GL)?SurfaceView$/.test(node.attrs["class"] ?? "");
}

/** Whether a tap on the view that took it is a click: clickable (an input counts, a checkable pressing itself too, a
 * SurfaceView's own touch handling too). */
export function clicks(node: SimNode): boolean {
  return node.attrs["clickable"] === "true" || isInput(node) || pressesItself(node) || drawsItself(node);
}

function pressesItself(node: SimNode): boolean {
  if (node.attrs["checkable"] !== "true") return false;
  for (let p = node.parent; p !== null; p = p.parent) if (p.attrs["clickable"] === "true") return false;
  return true;
}

/** Siblings that all say their `drawing-order` in the order a touch is offered to them: the last drawn first. */
function touchOrder(children: readonly SimNode[]): SimNode[] {
  const ordered = children.map((c, i) => ({ c, i, order: Number(c.attrs["drawing-order"] ?? 0) }));
  return ordered.sort((a, b) => b.order - a.order || b.i - a.i).map((e) => e.c);
}

/** Not hidden by the dump (`visible-to-user` / Appium's `displayed`): an invisible view gets no touch. */
function shown(node: SimNode): boolean {
  return node.attrs["visible-to-user"] !== "false" && node.attrs["displayed"] !== "false";
}
