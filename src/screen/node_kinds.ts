/**
 * Small, pure questions about one node: does its package look like a soft keyboard's, is it a text
 * input, can it be seen and touched, what readable name does it carry. The summary and the locator
 * both ask these, so they agree on what exists on the screen.
 */
import type { Bounds, UiNode } from "./types.ts";

/** Packages of soft keyboards (Gboard, Samsung Honeyboard, SwiftKey, Sogou, Baidu, iFlytek …). */
const IME_PACKAGE = /inputmethod|honeyboard|swiftkey|keyboard|\.input$|\.ime$/i;
const INPUT_CLASS = /EditText|AutoCompleteTextView|SearchAutoComplete|TextField|TextInput/;
/** Characters of the Unicode private-use areas: icon-font glyphs, not words. */
const PRIVATE_USE_ONLY = /^[\s\uE000-\uF8FF\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]*$/u;

/** A package name like a soft keyboard's. Whether a node IS the keyboard depends on its window: see windows.ts. */
export function isImePackage(packageName: string): boolean {
  return IME_PACKAGE.test(packageName);
}

export function isInputNode(node: UiNode): boolean {
  return INPUT_CLASS.test(node.className);
}

export function area(bounds: Bounds | null): number {
  if (bounds === null) return 0;
  return Math.max(0, bounds.right - bounds.left) * Math.max(0, bounds.bottom - bounds.top);
}

/** Visible to the user: not hidden by the dump and has area (the keyboard's window is left out by the analysis). */
export function isOnScreenNode(node: UiNode): boolean {
  return node.visible && area(node.bounds) > 0;
}

/**
 * Something a user acts on (SPEC §5): clickable, long-clickable, checkable or a text input. A scrollable
 * container is not, unless it is clickable too (Gmail's From picker, a `Spinner` marked scrollable): a tap opens it.
 */
export function isActionableNode(node: UiNode): boolean {
  return (!node.scrollable || node.clickable) && (node.clickable || node.longClickable || node.checkable || isInputNode(node));
}

/** A string a person can read: not blank, not only icon-font glyphs. */
export function isReadable(value: string): boolean {
  return !PRIVATE_USE_ONLY.test(value);
}

/** First non-blank line, trimmed (Flutter merges a widget's texts into one content-desc with newlines). */
export function firstLine(value: string): string {
  for (let start = 0; start <= value.length;) {
    const end = value.indexOf("\n", start);
    const trimmed = value.slice(start, end === -1 ? value.length : end).trim();
    if (trimmed !== "" || end === -1) return trimmed;
    start = end + 1;
  }
  return "";
}

/** The node's own name, for labels: hint first for inputs, otherwise text then content-desc. */
export function ownName(node: UiNode): string {
  const order = isInputNode(node) ? [node.hint, node.contentDesc, node.text] : [node.text, node.contentDesc, node.hint];
  return order.find((value) => value.trim() !== "" && isReadable(value)) ?? "";
}

/** A name without the separators and icon glyphs React Native and Compose leave around merged names
 * (", Rise and grind, " → "Rise and grind"). */
export function tidyName(name: string): string {
  return name.replace(/^[\s,;:·•|\uE000-\uF8FF]+|[\s,;:·•|\uE000-\uF8FF]+$/g, "");
}

/** Longer names are cut (at a word when one ends near the cut) and end with "…": a label names, it does not quote a post. */
export const LABEL_MAX_CHARACTERS = 80;
const SPACE_RUN = /\s\s|[^\S ]/;

/**
 * The name a label shows for a readable string: its first line, tidied, runs of white space made one
 * space, at most LABEL_MAX_CHARACTERS characters. Used for every label, so a selector's own value can
 * be compared with it.
 */
export function labelFrom(value: string): string {
  if (value === "") return "";
  const tidy = tidyName(firstLine(value));
  const name = SPACE_RUN.test(tidy) ? tidy.replace(/\s+/g, " ") : tidy;
  if (name.length <= LABEL_MAX_CHARACTERS) return name; // fewer code units, so fewer characters
  const characters = [...name];
  if (characters.length <= LABEL_MAX_CHARACTERS) return name;
  const cut = characters.slice(0, LABEL_MAX_CHARACTERS - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${tidyName(space >= cut.length - 20 ? cut.slice(0, space) : cut)}…`;
}
