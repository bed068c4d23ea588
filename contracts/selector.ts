/**
 * The selector contract (SPEC §6) as a zod schema, the single source for validation: exactly one of
 * resource_id, text, content_desc, text_contains, input_hint, optionally with `within` naming an
 * ancestor by exactly one key. Values are non-blank, at most SELECTOR_MAX_LENGTH characters, may hold
 * newlines (Flutter merges texts into one content-desc), and no other control characters. Unknown keys
 * are refused. Coordinates are not representable.
 */
import * as z from "zod";

export const SELECTOR_KEY_NAMES = ["resource_id", "text", "content_desc", "text_contains", "input_hint"] as const;
export const SELECTOR_MAX_LENGTH = 1000;

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

const keyFields = {
  resource_id: SelectorValueSchema.optional(),
  text: SelectorValueSchema.optional(),
  content_desc: SelectorValueSchema.optional(),
  text_contains: SelectorValueSchema.optional(),
  input_hint: SelectorValueSchema.optional(),
};

function exactlyOneKey(value: Record<string, unknown>): boolean {
  return SELECTOR_KEY_NAMES.filter((key) => value[key] !== undefined).length === 1;
}

const ONE_KEY = `exactly one of ${SELECTOR_KEY_NAMES.join(", ")}`;

export const WithinSchema = z
  .strictObject(keyFields)
  .refine(exactlyOneKey, { message: `'within' must have ${ONE_KEY}` });

export const SelectorSchema = z
  .strictObject({ ...keyFields, within: WithinSchema.optional() })
  .refine(exactlyOneKey, { message: `a selector must have ${ONE_KEY} (plus an optional 'within')` })
  .describe(
    "Names one element semantically, as the screen summary offers it: exactly one of resource_id, text, " +
      "content_desc, text_contains, input_hint, optionally with within: {one key} naming an ancestor. Never coordinates.",
  );

export type SelectorInput = z.infer<typeof SelectorSchema>;
