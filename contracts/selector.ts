/**
 * The selector contract (SPEC §6) as a zod schema built on selector_names.ts (the key names, roles and
 * value limits, without zod), the single source for validation and for the key names everywhere else
 * (types, locator, summary, published schema, messages): exactly one key of SELECTOR_KEY_NAMES, optionally with `within` naming an ancestor by exactly one key, and `index` (0-based,
 * reading order among the elements the rest names) as the last resort. Text values are non-blank, at most
 * SELECTOR_MAX_LENGTH characters, may hold newlines, no other control characters. Unknown keys are
 * refused. Coordinates are not representable.
 */
import * as z from "zod";
import { FORBIDDEN_CONTROL, ROLE_NAMES, SELECTOR_KEY_NAMES, SELECTOR_MAX_LENGTH, TEXT_KEY_NAMES, type TextKey } from "./selector_names.ts";

export {
  isAcceptableSelectorValue,
  type Role,
  ROLE_NAMES,
  type Selector,
  SELECTOR_KEY_NAMES,
  SELECTOR_MAX_LENGTH,
  type SelectorKey,
  type SelectorKeyValue,
  TEXT_KEY_NAMES,
  type TextKey,
} from "./selector_names.ts";

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
