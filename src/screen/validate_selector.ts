/**
 * unknown → Selector, through the zod schema of contracts/selector.ts (the single source). A refused
 * input throws HarnessError INVALID_SELECTOR whose message says what is wrong and what is accepted;
 * `details.problems` lists every problem found.
 */
import { ROLE_NAMES, SELECTOR_KEY_NAMES, SelectorSchema } from "../../contracts/selector.ts";
import { HarnessError } from "../errors.ts";
import type { Selector } from "./types.ts";

const ACCEPTED = `A selector is exactly one of ${SELECTOR_KEY_NAMES.join(", ")} (a non-blank string; newlines allowed; role is ` +
  `${ROLE_NAMES.join(", ")}), optionally with within: {one of those keys} naming an ancestor and index (a whole number ` +
  `from 0, reading order) when the rest names several, e.g. {"text":"Save","within":{"content_desc":"Profile"}} or {"role":"input","index":1}.`;

export function validateSelector(input: unknown): Selector {
  const result = SelectorSchema.safeParse(input);
  if (result.success) return stripUndefined(result.data) as Selector;
  const problems = result.error.issues.map(describeIssue);
  throw new HarnessError("INVALID_SELECTOR", `Invalid selector: ${problems.join("; ")}. ${ACCEPTED}`, {
    problems,
    accepted_keys: [...SELECTOR_KEY_NAMES],
  });
}

interface IssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  expected?: string;
}

function describeIssue(issue: IssueLike): string {
  const where = issue.path.length === 0 ? "" : `${issue.path.map(String).join(".")}: `;
  if (issue.code === "unrecognized_keys") {
    const keys = (issue.keys ?? []).map((key) => `"${key}"`).join(", ");
    const coordinates = (issue.keys ?? []).some((key) => /^(x|y|bounds|point|coordinates?|left|top)$/i.test(key));
    return `${where}unknown key ${keys}${coordinates ? " (coordinates are never accepted)" : ""}`;
  }
  if (issue.code === "invalid_type" && issue.path.length === 0) {
    return `expected an object, got ${issue.message.replace(/^.*received /, "")}`;
  }
  if (issue.code === "too_big") return `${where}longer than the maximum length`;
  return `${where}${issue.message}`;
}

function stripUndefined(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry === undefined) continue;
    out[key] = typeof entry === "object" && entry !== null ? stripUndefined(entry as Record<string, unknown>) : entry;
  }
  return out;
}
