/**
 * Validates a tool's raw arguments against its strict declared schema. Refusals are HarnessErrors with
 * the code the tool's declaration gives that argument (INVALID_SELECTOR, INVALID_TEXT, INVALID_PACKAGE,
 * INVALID_SCROLL_DIRECTION) or INVALID_ARGUMENT, and a message naming the argument and what is accepted.
 * Names from the client (unknown keys, paths) are quoted cut to a bound (quote.ts). `__proto__` is an unknown
 * key like any other (the strict schemas see it when the raw JSON object reaches them: tool_calls.ts).
 */
import type * as z from "zod";
import type { ErrorCode } from "../../contracts/error_codes.ts";
import { SELECTOR_KEY_NAMES } from "../../contracts/selector_names.ts";
import { type ToolInput, type ToolName, TOOLS } from "../../contracts/tools.ts";
import { HarnessError } from "../errors.ts";
import { quote, quoteList } from "./quote.ts";

/** What an unknown key inside a selector (x and y, bounds) is answered with: the keys a selector takes. */
const SELECTOR_KEYS_TEXT = `a selector takes one of ${SELECTOR_KEY_NAMES.join(", ")}, with an optional within and index ` +
  "(coordinates are refused), as ui_get_tree offers it";

export function parseToolInput<N extends ToolName>(name: N, raw: unknown): ToolInput<N> {
  const { input: schema, argumentErrors = {} } = TOOLS[name];
  const result = schema.safeParse(raw ?? {});
  if (result.success) return result.data as ToolInput<N>;
  const codeFor = (issue: z.core.$ZodIssue): ErrorCode => {
    const first = issue.path[0];
    return (typeof first === "string" && (argumentErrors as Readonly<Record<string, ErrorCode>>)[first]) || "INVALID_ARGUMENT";
  };
  const issue = result.error.issues[0]!;
  const accepted = Object.keys(schema.shape);
  const acceptedText = accepted.length === 0 ? "it takes no arguments" : `it accepts ${accepted.join(", ")}`;
  if (issue.code === "unrecognized_keys") {
    const keys = quoteList(issue.keys);
    const where = issue.path.length === 0 ? name : quote(issue.path.join("."));
    const code = issue.path.length === 0 ? "INVALID_ARGUMENT" : codeFor(issue);
    const noun = issue.keys.length === 1 ? "argument" : "arguments";
    const fix = issue.path.length === 0
      ? acceptedText
      : code === "INVALID_SELECTOR"
      ? SELECTOR_KEYS_TEXT
      : `remove ${issue.keys.length === 1 ? "it" : "them"}`;
    return fail(code, `Unknown ${noun} ${keys} for ${where}; ${fix}.`, issue);
  }
  const argument = issue.path.length === 0 ? "arguments" : quote(issue.path.map(String).join("."));
  if (codeFor(issue) === "INVALID_SELECTOR" && issue.code === "invalid_type" && issue.expected === "object") {
    const given = valueAt(raw, issue.path);
    const example = JSON.stringify({ text: typeof given === "string" && given.trim() !== "" ? given.slice(0, 80) : "Save" });
    const got = given === null ? "null" : Array.isArray(given) ? "an array" : `a ${typeof given}`;
    return fail(
      "INVALID_SELECTOR",
      `${argument} is an object naming one key, not ${got}: send ${example}; ${SELECTOR_KEYS_TEXT}.`,
      issue,
    );
  }
  return fail(
    codeFor(issue),
    `Invalid ${argument} for ${name}: ${issue.message}. Send the value the tool's input schema describes (${acceptedText}).`,
    issue,
  );
}

/** The raw value at a zod issue's path (undefined where the path leaves the objects). */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let at = raw;
  for (const key of path) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

function fail(code: ErrorCode, message: string, issue: z.core.$ZodIssue): never {
  const path = issue.path.slice(0, 8).map((part) => String(part).slice(0, 64));
  throw new HarnessError(code, message, { path, issue: issue.code });
}
