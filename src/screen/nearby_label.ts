/**
 * A name for a nameless target (SPEC §5): the nearest readable label beside it (left or right, sharing
 * some of its rows) or above it (sharing some of its columns), looked for in its parent, then in up to
 * LABEL_LEVELS enclosing containers (Gmail's recipient field sits in a chip group beside its "To"). A
 * label is short (at most BORROWED_LABEL_MAX), lies outside the target, and is a text: a plain node
 * (in no target), or a clickable text view standing alone (Gmail's "To"); a word inside another target,
 * or another button's name, names that target, not this one. "" when none. Pure, bounded.
 */
import { labelFrom, ownName } from "./node_kinds.ts";
import type { Bounds, UiTree } from "./types.ts";

/** How many containers up the search goes (the parent is the first). */
const LABEL_LEVELS = 3;
/** Longer strings are content (a message, a paragraph), not a label. */
const BORROWED_LABEL_MAX = 40;
/** Nodes looked at per target, at most: a huge container is not scanned for every icon in it. */
const LABEL_SCAN_NODES = 400;
/** Added to the distance of a label above the target, so that any label beside it wins. */
const ABOVE_RANK = 1_000_000;

/**
 * `labelNode(id)`: whether a node may lend its name (the analysis says: plain, or a text view that is a
 * target of its own).
 */
export function nearbyLabel(tree: UiTree, onScreen: readonly boolean[], root: number, labelNode: (id: number) => boolean): string {
  const { nodes } = tree;
  const target = nodes[root]!.bounds!;
  let inside = root; // the branch already searched (the target itself at first)
  let budget = LABEL_SCAN_NODES;
  for (let level = 0, container = nodes[root]!.parent; level < LABEL_LEVELS && container !== null; level++) {
    let best: { name: string; gap: number } | null = null;
    const stack = nodes[container]!.children.filter((id) => id !== inside).reverse();
    while (stack.length > 0 && budget > 0) {
      const id = stack.pop()!;
      budget -= 1;
      const node = nodes[id]!;
      const name = labelFrom(ownName(node));
      const gap = onScreen[id] && name !== "" && labelNode(id) && name.length <= BORROWED_LABEL_MAX ? gapTo(target, node.bounds!) : null;
      if (gap !== null && (best === null || gap < best.gap)) best = { name, gap };
      const children = nodes[id]!.children;
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
    if (best !== null) return best.name;
    if (budget <= 0) return "";
    inside = container;
    container = nodes[container]!.parent;
  }
  return "";
}

/**
 * How far a label is from the target when it is beside or above it, else null. A label on the target's
 * own row (beside) ranks before any label above it: Gmail's "To" beats the "From" line just above.
 */
function gapTo(target: Bounds, label: Bounds): number | null {
  const sharesRows = label.top < target.bottom && label.bottom > target.top;
  const sharesColumns = label.left < target.right && label.right > target.left;
  if (sharesRows && label.right <= target.left) return target.left - label.right;
  if (sharesRows && label.left >= target.right) return label.left - target.right;
  if (sharesColumns && label.bottom <= target.top) return ABOVE_RANK + target.top - label.bottom;
  return null;
}
