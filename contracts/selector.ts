/**
 * The selector contract (SPEC §6) as a zod schema, the single source for validation and for the key
 * names everywhere else (types, locator, summary, published schema, messages): exactly one key of
 * SELECTOR_KEY_NAMES, optionally with `within` naming an ancestor by exactly one key, and `index` (0-based,
 * reading order among the elements the rest names) as the last resort. Text values are non-blank, at most
 * SELECTOR_MAX_LENGTH characters, may hold newlines, no other control characters. Unknown keys are
 * refused. Coordinates are not representable.
 */
import * as z from "zod";

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
const FORBIDDEN_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;

/** True when a string may be a selector value (used by the summary so it only offers valid selectors). */
export function isAcceptableSelectorValue(value: string): boolean {
  return value.trim() !== "" && value.length <= SELECTOR_MAX_LENGTH && !FORBIDDEN_CONTROL.test(value);
}

export const SelectorValueSchema = z
  .string()
  .max(SELECTOR_MAX_LENGTH)
  .refine((value) => value.trim() !== "", { message: "must not be empty or blank" })
  .refine((value) => !FORBIDDEN_CONTROL.test(value), { message: "must not contain control characters other than newline" });

export const RoleSchema = z.enum(ROLE_NAMES);

const keyFields = {
  ...(Object.fromEntries(TEXT_KEY_NAMES.map((key) => [key, SelectorValueSchema.optional()])) as Record<
    TextKey,
    z.ZodOptional<typeof SelectorValueSchema>
  >),
  role: RoleSchema.optional(),
};

function exactlyOneKey(value: Record<string, unknown>): boolean {
  return SELECTOR_KEY_NAMES.filter((key) => value[key] !== undefined).length === 1;
}

const ONE_KEY = `exactly one of ${SELECTOR_KEY_NAMES.join(", ")}`;

export const WithinSchema = z
  .strictObject(keyFields)
  .refine(exactlyOneKey, { message: `'within' must have ${ONE_KEY}` });

export const SelectorSchema = z
  .strictObject({ ...keyFields, within: WithinSchema.optional(), index: z.int().min(0).optional() })
  .refine(exactlyOneKey, { message: `a selector must have ${ONE_KEY} (plus optional 'within' and 'index')` })
  .describe(
    `Names one element semantically, as the screen summary offers it: ${ONE_KEY} (role: ${ROLE_NAMES.join("|")}), ` +
      "optionally within: {one key} naming an ancestor, and index (0-based, reading order among what the rest names) " +
      "as the last resort. Never coordinates.",
  );
