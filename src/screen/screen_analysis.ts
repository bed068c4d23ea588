/**
 * Groups the nodes of one tree into the elements a user sees and acts on ("entities"). Every on-screen
 * node belongs to the nearest actionable node around it; nested actionable nodes that are one target
 * (a row's only switch, an icon with its container's name, a wordless container's only button) are merged
 * into the outer one; several checkables in one container stay separate targets. A node with no
 * actionable ancestor is its own plain entity. Every target but a nameless wrapper of other targets is
 * listed (SPEC §5 reachability law). Computed once per tree (cached); the summary and the locator share
 * it, which is what makes the round-trip law hold.
 */
import { nearbyLabel } from "./nearby_label.ts";
import { isActionableNode, isInputNode, isOnScreenNode, isReadable, labelFrom, ownName } from "./node_kinds.ts";
import type { Role, UiNode, UiTree } from "./types.ts";
import { screenWindows } from "./windows.ts";
import { memoizedBy } from "./memo.ts";

const TEXT_CLASS = /TextView$/;

export interface Entity {
  /** The node that stands for the element (a target's outermost actionable node, or a plain node). */
  root: number;
  /** True when the element can be acted on. */
  target: boolean;
  /** A target the summary offers: every target but a nameless wrapper of other targets. */
  listed: boolean;
  /** On-screen nodes belonging to it, root first, in document order. */
  members: number[];
  /**
   * Readable name: the root's own name, else the first readable name among its members; for a listed
   * target with none, the nearest readable label beside or above it in its container (nearby_label.ts).
   */
  label: string;
  role: Role;
  /** Number of other targets inside it (a nameless container of targets is not itself offered). */
  wrapsTargets: number;
}

export interface ScreenAnalysis {
  tree: UiTree;
  /** For each node id: true when it is visible, has area and is not the keyboard. */
  onScreen: boolean[];
  /** For each node id: the root id of its entity, or -1 when the node is not on screen. */
  entityOf: number[];
  /** Entities by root id. */
  entities: Map<number, Entity>;
  /** Targets in document order. */
  targets: Entity[];
  /** Listed targets in document order (what the summary offers). */
  listed: Entity[];
}

export const analyzeScreen: (tree: UiTree) => ScreenAnalysis = memoizedBy(buildAnalysis);

function buildAnalysis(tree: UiTree): ScreenAnalysis {
  const { nodes } = tree;
  const { keyboard } = screenWindows(tree);
  const onScreen = nodes.map((node) => isOnScreenNode(node) && !keyboard[node.id]);
  const actionable = nodes.map((node, id) => onScreen[id]! && isActionableNode(node));
  // Nearest actionable ancestor of every node (document order guarantees parents come first).
  const enclosing = new Array<number>(nodes.length).fill(-1);
  for (const node of nodes) {
    if (node.parent === null) continue;
    enclosing[node.id] = actionable[node.parent] ? node.parent : enclosing[node.parent]!;
  }
  const directTargets = new Map<number, number[]>();
  for (const node of nodes) {
    const outer = enclosing[node.id]!;
    if (!actionable[node.id] || outer === -1) continue;
    const list = directTargets.get(outer) ?? [];
    list.push(node.id);
    directTargets.set(outer, list);
  }
  // mergedInto[t] = the actionable node t is one target with, or t itself.
  const mergedInto = nodes.map((node) => node.id);
  for (const [outer, inner] of directTargets) {
    const soleCheckable = inner.filter((id) => nodes[id]!.checkable).length === 1;
    for (const id of inner) {
      const wordless = inner.length === 1 && !hasLooseWords(nodes, outer, actionable, onScreen);
      if (isOneTarget(nodes[outer]!, nodes[id]!, { wordless, soleCheckable })) mergedInto[id] = outer;
    }
  }
  const rootOf = (id: number): number => {
    let at = id;
    while (mergedInto[at] !== at) at = mergedInto[at]!;
    return at;
  };
  const entityOf = nodes.map((node) => {
    if (!onScreen[node.id]) return -1;
    const holder = actionable[node.id] ? node.id : enclosing[node.id]!;
    return holder === -1 ? node.id : rootOf(holder);
  });
  const entities = new Map<number, Entity>();
  for (const node of nodes) {
    const root = entityOf[node.id]!;
    if (root === -1) continue;
    let entity = entities.get(root);
    if (entity === undefined) {
      entity = { root, target: actionable[root]!, listed: false, members: [], label: "", role: "button", wrapsTargets: 0 };
      entities.set(root, entity);
    }
    entity.members.push(node.id);
  }
  for (const entity of entities.values()) {
    entity.label = labelOf(entity, nodes);
    entity.role = roleOf(entity, nodes);
  }
  const targets = [...entities.values()].filter((entity) => entity.target).sort((a, b) => a.root - b.root);
  for (const target of targets) {
    for (let at = nodes[target.root]!.parent; at !== null; at = nodes[at]!.parent) {
      const outer = entities.get(at);
      if (outer?.target) outer.wrapsTargets += 1;
    }
  }
  for (const target of targets) target.listed = target.label !== "" || target.wrapsTargets === 0;
  const listed = targets.filter((target) => target.listed);
  // A plain node, or a text view that is a target by itself (Gmail's clickable "To"), may name a nameless neighbour.
  const lendsLabel = (id: number) => {
    const entity = entities.get(entityOf[id]!);
    return entity !== undefined &&
      (!entity.target || (entity.root === id && entity.members.length === 1 && TEXT_CLASS.test(nodes[id]!.className)));
  };
  for (const target of listed) {
    if (target.label === "") target.label = nearbyLabel(tree, onScreen, target.root, lendsLabel);
  }
  return { tree, onScreen, entityOf, entities, targets, listed };
}

/**
 * Whether an actionable node inside another actionable node is the same target as its container.
 * `wordless`: the container has no name, no words outside its inner targets, and this is its only inner
 * target (a nameless wrapper around one button). `soleCheckable`: the container holds exactly one checkable.
 */
function isOneTarget(outer: UiNode, inner: UiNode, how: { wordless: boolean; soleCheckable: boolean }): boolean {
  if (isInputNode(inner)) return false;
  if (inner.checkable) return how.soleCheckable; // a row's only switch: the row toggles it too; radios stay apart
  const outerName = ownName(outer);
  if (outerName !== "") return outerName === ownName(inner);
  return how.wordless;
}

/** Whether on-screen nodes under `outer`, outside its inner actionable nodes, carry a readable name. */
function hasLooseWords(nodes: UiNode[], outer: number, actionable: boolean[], onScreen: boolean[]): boolean {
  const stack = [...nodes[outer]!.children];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (actionable[id]) continue;
    if (onScreen[id] && ownName(nodes[id]!) !== "") return true;
    stack.push(...nodes[id]!.children);
  }
  return false;
}

function labelOf(entity: Entity, nodes: UiNode[]): string {
  for (const id of entity.members) {
    const name = labelFrom(ownName(nodes[id]!));
    if (name !== "") return name;
  }
  return "";
}

function roleOf(entity: Entity, nodes: UiNode[]): Role {
  const root = nodes[entity.root]!;
  if (isInputNode(root)) return "input";
  if (entity.target && entity.members.some((id) => nodes[id]!.checkable)) return "toggle";
  return "button";
}

/** Every readable string a node shows (text, then content-desc when different). */
export function shownStrings(node: UiNode): string[] {
  const out: string[] = [];
  for (const value of [node.text, node.contentDesc]) {
    if (value.trim() !== "" && isReadable(value) && !out.includes(value)) out.push(value);
  }
  return out;
}
