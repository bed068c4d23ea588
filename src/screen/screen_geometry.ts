/**
 * What a dump alone says about the screen, for offline use (`tree --file`) when the device cannot be
 * asked: its size (declared by Appium page sources, else the extent of the nodes) and whether a soft
 * keyboard is open (keyboard nodes in the dump; their top edge is the keyboard's top). Pure.
 */
import { isImeNode } from "./node_kinds.ts";
import type { KeyboardState, UiTree } from "./types.ts";

export function screenSizeOf(tree: UiTree): { width: number; height: number } {
  if (tree.declaredSize !== null) return { ...tree.declaredSize };
  let width = 0;
  let height = 0;
  for (const node of tree.nodes) {
    if (node.bounds === null) continue;
    width = Math.max(width, node.bounds.right);
    height = Math.max(height, node.bounds.bottom);
  }
  return { width, height };
}

export function keyboardInDump(tree: UiTree): KeyboardState {
  let top = Infinity;
  for (const node of tree.nodes) {
    if (!isImeNode(node) || node.bounds === null || node.bounds.bottom <= node.bounds.top) continue;
    top = Math.min(top, node.bounds.top);
  }
  return top === Infinity ? { open: false } : { open: true, top };
}
