/**
 * The sim's own screen model: a mutable tree of nodes carrying the dump attributes verbatim, built
 * from a hand-made NodeSpec. Independent of the harness's src/screen code on purpose, so a bug there
 * cannot hide itself behind the same bug here.
 */
import type { NodeSpec } from "./types.ts";

export interface SimNode {
  /** Attributes in dump order (`index`, `text`, `resource-id`, `class`, …, `bounds`). */
  attrs: Record<string, string>;
  children: SimNode[];
  parent: SimNode | null;
  /** An empty input drawn with its hint: `text` carries the hint, as API 26+ dumps show it. */
  showsHint?: boolean;
  /** A password input's real text; its `text` attribute shows one bullet per character, as Android dumps it. */
  secret?: string;
}

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const flag = (value: boolean | undefined, fallback = false) => String(value ?? fallback);

/** NodeSpec → SimNode with the attribute set and order of an API 33–35 `uiautomator dump`. */
export function nodeFromSpec(spec: NodeSpec, packageName: string, index = 0, parent: SimNode | null = null): SimNode {
  const [l, t, r, b] = spec.bounds;
  const node: SimNode = {
    attrs: {
      index: String(index),
      text: spec.text ?? "",
      "resource-id": spec.id ?? "",
      class: spec.class ?? "android.view.View",
      package: spec.package ?? packageName,
      "content-desc": spec.desc ?? "",
      checkable: flag(spec.checkable),
      checked: flag(spec.checked),
      clickable: flag(spec.clickable),
      enabled: flag(spec.enabled, true),
      focusable: flag(spec.focusable ?? (spec.clickable || isInputClass(spec.class ?? ""))),
      focused: flag(spec.focused),
      scrollable: flag(spec.scrollable),
      "long-clickable": flag(spec.longClickable),
      password: flag(spec.password),
      selected: flag(spec.selected),
      bounds: `[${l},${t}][${r},${b}]`,
      "drawing-order": String(index + 1),
      hint: spec.hint ?? "",
    },
    children: [],
    parent,
  };
  node.children = (spec.children ?? []).map((child, i) => nodeFromSpec(child, packageName, i, node));
  if (isInput(node)) setInputText(node, node.attrs["text"] ?? "");
  return node;
}

/** What the user typed into an input ("" while its hint shows). */
export function inputText(node: SimNode): string {
  return node.showsHint === true ? "" : node.secret ?? node.attrs["text"] ?? "";
}

/**
 * Sets an input's text; an empty one shows its hint as its text (Gmail `text="Subject"`), with `hint` kept.
 * A password field shows one bullet per character, as Android's dumps do.
 */
export function setInputText(node: SimNode, text: string): void {
  const hint = node.attrs["hint"] ?? "";
  node.showsHint = text === "" && hint !== "";
  const password = node.attrs["password"] === "true";
  if (password) node.secret = text;
  node.attrs["text"] = node.showsHint ? hint : password ? PASSWORD_BULLET.repeat([...text].length) : text;
}

/** What Android shows for each character of a password field. */
export const PASSWORD_BULLET = "\u2022";

/** Marks inputs of a loaded dump whose text is their hint (an empty field), so typing replaces it. */
export function markShownHints(roots: readonly SimNode[]): void {
  for (const n of allNodes(roots)) {
    if (isInput(n) && n.attrs["hint"] && n.attrs["text"] === n.attrs["hint"]) n.showsHint = true;
  }
}

export function isInputClass(className: string): boolean {
  return /EditText|AutoCompleteTextView/.test(className);
}

export function isInput(node: SimNode): boolean {
  return isInputClass(node.attrs["class"] ?? "");
}

export function boundsOf(node: SimNode): Rect | null {
  const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(node.attrs["bounds"] ?? "");
  if (m === null) return null;
  return { left: Number(m[1]), top: Number(m[2]), right: Number(m[3]), bottom: Number(m[4]) };
}

/** Every node in document order. */
export function allNodes(roots: readonly SimNode[]): SimNode[] {
  const out: SimNode[] = [];
  const visit = (n: SimNode) => {
    out.push(n);
    n.children.forEach(visit);
  };
  roots.forEach(visit);
  return out;
}

export function ancestors(node: SimNode): SimNode[] {
  const out: SimNode[] = [];
  for (let p = node.parent; p !== null; p = p.parent) out.push(p);
  return out;
}

export function isAncestor(candidate: SimNode, node: SimNode): boolean {
  return ancestors(node).includes(candidate);
}

/** The centre of a node's bounds (where an element click presses), or null without usable bounds. */
export function centreOf(node: SimNode): { x: number; y: number } | null {
  const r = boundsOf(node);
  if (r === null || r.right <= r.left || r.bottom <= r.top) return null;
  return { x: Math.floor((r.left + r.right) / 2), y: Math.floor((r.top + r.bottom) / 2) };
}
