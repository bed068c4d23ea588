/**
 * The absolute XPath of a node in the page source it was parsed from: `/hierarchy/*[2]/*[1]/…`, each
 * step the node's 1-based position among its parent's element children (the parser keeps every element,
 * so positions match the XML). Tag-free on purpose: class names need no escaping and cannot mislead.
 * Pure; the act tools append the node's exact `@bounds` to it, so the find is also the rectangle check.
 */
import type { UiNode, UiTree } from "../screen/mod.ts";

export function xpathOf(tree: UiTree, node: UiNode): string {
  const steps: number[] = [];
  let current: UiNode = node;
  for (;;) {
    const parentId = current.parent;
    const siblings = parentId === null ? tree.nodes.filter((n) => n.parent === null).map((n) => n.id) : tree.nodes[parentId]!.children;
    steps.push(siblings.indexOf(current.id) + 1);
    if (parentId === null) break;
    current = tree.nodes[parentId]!;
  }
  return `/hierarchy/${steps.reverse().map((position) => `*[${position}]`).join("/")}`;
}
