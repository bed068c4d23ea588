/**
 * The reachability law of SPEC §5, checked from the tree and the summary alone (shared by the corpus
 * test and `npm run bench`): every on-screen actionable node (clickable, long-clickable, checkable or a
 * text input; enabled; not scrollable unless clickable too; not in the keyboard's window) is reached by the nearest offered
 * action at or above it, whose selector the locator resolves to exactly that action's node. Inputs are
 * reached by themselves; no action stands for two separate checkables; a node merged into a row carries
 * no name of its own other than the row's. A nameless wrapper of offered targets is the one exception.
 */
import { findElement } from "../../src/screen/mod.ts";
import { firstLine, isInputNode, isOnScreenNode, ownName, tidyName } from "../../src/screen/node_kinds.ts";
import type { ActionEntry, ScreenSummary, UiNode, UiTree } from "../../src/screen/types.ts";
import { screenWindows } from "../../src/screen/windows.ts";

export interface Reachability {
  /** On-screen, enabled actionable nodes. */
  actionable: number;
  /** Of those, reached by an offered action (or the exception). */
  reachable: number;
  /** What breaks the law, one line each (empty when it holds). */
  faults: string[];
}

export function reachabilityOf(tree: UiTree, summary: ScreenSummary): Reachability {
  const { nodes } = tree;
  const { keyboard } = screenWindows(tree);
  const faults: string[] = [];
  const offered = new Map<number, ActionEntry>();
  for (const action of summary.actions) {
    const found = findElement(tree, action.selector);
    if (found.status !== "found") faults.push(`offered ${JSON.stringify(action.selector)} is ${found.status}`);
    else if (offered.has(found.element.node.id)) faults.push(`node ${found.element.node.id} offered twice`);
    else offered.set(found.element.node.id, action);
  }
  const onScreen = (node: UiNode) => isOnScreenNode(node) && !keyboard[node.id];
  const isActionable = (node: UiNode) =>
    onScreen(node) && node.enabled && (!node.scrollable || node.clickable) &&
    (node.clickable || node.longClickable || node.checkable || isInputNode(node));
  const reacher = (id: number): number => {
    for (let at: number | null = id; at !== null; at = nodes[at]!.parent) if (offered.has(at)) return at;
    return -1;
  };
  const checkablesOf = new Map<number, number[]>();
  let actionable = 0;
  let reachable = 0;
  for (const node of nodes) {
    if (!isActionable(node)) continue;
    actionable += 1;
    const by = reacher(node.id);
    const fault = by === -1
      ? (isNamelessWrapper(tree, node.id, offered, onScreen) ? null : "no offered action reaches it")
      : mergeFault(node, by, offered.get(by)!);
    if (fault !== null) {
      faults.push(`node ${node.id} (${node.className} ${JSON.stringify(ownName(node))}): ${fault}`);
      continue;
    }
    reachable += 1;
    if (by !== -1 && node.checkable) checkablesOf.set(by, [...(checkablesOf.get(by) ?? []), node.id]);
  }
  for (const [by, ids] of checkablesOf) {
    const separate = ids.filter((id) => !ids.some((other) => other !== id && isAncestor(tree, other, id)));
    if (separate.length > 1) {
      faults.push(
        `${JSON.stringify(offered.get(by)!.selector)} stands for ${separate.length} separate checkables (${separate.join(", ")})`,
      );
    }
  }
  return { actionable, reachable, faults };
}

/** Why node, reached through the action offered for node `by` (itself or a row around it), is not truly reached; null when it is. */
function mergeFault(node: UiNode, by: number, action: ActionEntry): string | null {
  if (by === node.id) return null;
  if (isInputNode(node)) return `an input only reached through the row ${by}`;
  if (node.checkable) return null; // a row's switch; two of them are caught by the caller
  const name = tidyName(firstLine(ownName(node)));
  const rowNames = [action.label, ...Object.values(action.selector).filter((value) => typeof value === "string")]
    .filter((value): value is string => value !== undefined)
    .map((value) => tidyName(firstLine(value)));
  return name === "" || rowNames.includes(name) ? null : `named "${name}" of its own but only reached through the row ${by}`;
}

/** Not reached, holds offered targets, and has no readable words outside them: its only job is to hold them. */
function isNamelessWrapper(tree: UiTree, id: number, offered: Map<number, ActionEntry>, onScreen: (node: UiNode) => boolean): boolean {
  let holds = false;
  const stack = [...tree.nodes[id]!.children];
  if (ownName(tree.nodes[id]!) !== "") return false;
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (offered.has(at)) {
      holds = true;
      continue;
    }
    if (onScreen(tree.nodes[at]!) && ownName(tree.nodes[at]!) !== "") return false;
    stack.push(...tree.nodes[at]!.children);
  }
  return holds;
}

function isAncestor(tree: UiTree, ancestor: number, id: number): boolean {
  for (let at = tree.nodes[id]!.parent; at !== null; at = tree.nodes[at]!.parent) if (at === ancestor) return true;
  return false;
}
