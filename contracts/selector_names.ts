/**
 * The selector's key names, roles, value limits and types (SPEC §6) without zod: the screen model and
 * `tree --file` read them without loading a schema library; contracts/selector.ts builds the zod schema from
 * them and re-exports them.
 */
/** Keys whose value is a string read from the dump (resource id, words, hint). */
export const TEXT_KEY_NAMES = ["resource_id", "text", "content_desc", "text_contains", "input_hint"] as const;
/** What an element is for: `toggle` is checkable, `input` takes text, everything else a `button`. */
export const ROLE_NAMES = ["button", "input", "toggle"] as const;
/** Every key a selector (and a `within`) may name an element by: the one list the rest derives from. */
export const SELECTOR_KEY_NAMES = [...TEXT_KEY_NAMES, "role"] as const;
export const SELECTOR_MAX_LENGTH = 1000;

export type TextKey = (typeof TEXT_KEY_NAMES)[number];
export type Role = (typeof ROLE_NAMES)[number];
export type SelectorKey = (typeof SELECTOR_KEY_NAMES)[number];
/** One key naming an element (or, inside `within`, an ancestor). */
export type SelectorKeyValue = { [K in TextKey]?: string } & { role?: Role };
/** Exactly one key, optionally a `within` (one key) and an `index` (validateSelector enforces it). */
export type Selector = SelectorKeyValue & { within?: SelectorKeyValue; index?: number };

// deno-lint-ignore no-control-regex
export const FORBIDDEN_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;

/** True when a string may be a selector value (used by the summary so it only offers valid selectors). */
export function isAcceptableSelectorValue(value: string): boolean {
  return value.trim() !== "" && value.length <= SELECTOR_MAX_LENGTH && !FORBIDDEN_CONTROL.test(value);
}
