/**
 * Which nodes of a dump are the soft keyboard, and which app the screen belongs to. A keyboard is a
 * separate window: a window root (a top-level node under <hierarchy>) whose package is a keyboard's
 * (Gboard, Honeyboard, SwiftKey …) and is not the screen's main package, with everything inside it.
 * The main app's own nodes are never the keyboard, even when its package looks like one (Gboard's
 * settings, com.acme.keyboardtrainer). Decided from the tree alone (cached), so the summary and the
 * locator agree.
 */
import { isImePackage } from "./node_kinds.ts";
import type { UiTree } from "./types.ts";
import { memoizedBy } from "./memo.ts";

const SYSTEM_UI = "com.android.systemui";

export interface ScreenWindows {
  /** The package the screen belongs to ("" when no node says). */
  mainPackage: string;
  /** For each node id: true when it lies in the keyboard's window. */
  keyboard: boolean[];
}

export const screenWindows: (tree: UiTree) => ScreenWindows = memoizedBy(readWindows);

function readWindows(tree: UiTree): ScreenWindows {
  const { nodes } = tree;
  // The window root each node lies in (document order: a parent comes before its children).
  const windowOf = nodes.map((node) => node.id);
  for (const node of nodes) if (node.parent !== null) windowOf[node.id] = windowOf[node.parent]!;
  const keyboardLike = (id: number) => isImePackage(nodes[windowOf[id]!]!.packageName);
  const mainPackage = mainPackageOf(tree, keyboardLike);
  const keyboard = nodes.map((node) => {
    const root = nodes[windowOf[node.id]!]!;
    return isImePackage(root.packageName) && root.packageName !== mainPackage;
  });
  return { mainPackage, keyboard };
}

/**
 * The package owning most nodes outside keyboard-like windows and the status bar; when only
 * keyboard-like windows are left (a keyboard's own settings app), the one whose root covers the most
 * screen (the app, not the keyboard strip); else the status bar's; else "".
 */
function mainPackageOf(tree: UiTree, keyboardLike: (id: number) => boolean): string {
  const counts = new Map<string, number>();
  for (const node of tree.nodes) {
    if (node.packageName === "" || node.packageName === SYSTEM_UI || keyboardLike(node.id)) continue;
    counts.set(node.packageName, (counts.get(node.packageName) ?? 0) + 1);
  }
  let best = "";
  let most = 0;
  for (const [name, count] of counts) {
    if (count > most) [best, most] = [name, count];
  }
  if (best !== "") return best;
  let largest = -1;
  for (const node of tree.nodes) {
    if (node.depth !== 0 || !isImePackage(node.packageName)) continue;
    const b = node.bounds;
    const area = b === null ? 0 : Math.max(0, b.right - b.left) * Math.max(0, b.bottom - b.top);
    if (area > largest) [best, largest] = [node.packageName, area];
  }
  if (best !== "") return best;
  return tree.nodes.some((node) => node.packageName === SYSTEM_UI) ? SYSTEM_UI : "";
}
