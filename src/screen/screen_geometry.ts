/**
 * What a dump alone says about the screen, for offline use (`tree --file`) when the device cannot be
 * asked: its size (Appium's declared size or the extent of the window roots, whichever is larger) and whether a soft
 * keyboard is open (keyboard nodes in the dump; their top edge is the keyboard's top). Pure.
 */
import type { KeyboardState, UiTree } from "./types.ts";
import { screenWindows } from "./windows.ts";

/**
 * The larger of Appium's declared size and the window roots' extent on each axis: Appium declares the app
 * window (1080x2254 on a 1080x2400 phone, system bars left out), and a node below it is still on screen.
 */
export function screenSizeOf(tree: UiTree): { width: number; height: number } {
  let width = tree.declaredSize?.width ?? 0;
  let height = tree.declaredSize?.height ?? 0;
  for (const node of tree.nodes) {
    if (node.depth !== 0 || node.bounds === null) continue; // window roots: a child may lie off screen
    width = Math.max(width, node.bounds.right);
    height = Math.max(height, node.bounds.bottom);
  }
  return { width, height };
}

/** Open when the dump holds a keyboard window (see windows.ts); its top is the highest top edge in it. */
export function keyboardInDump(tree: UiTree): KeyboardState {
  const { keyboard } = screenWindows(tree);
  let top = Infinity;
  for (const node of tree.nodes) {
    if (!keyboard[node.id] || node.bounds === null || node.bounds.bottom <= node.bounds.top) continue;
    top = Math.min(top, node.bounds.top);
  }
  return top === Infinity ? { open: false } : { open: true, top };
}
