/**
 * The arguments as the audit line keeps them: a bounded copy, so every operation gets one line of at most a
 * few kilobytes whatever it was sent (a refused 9.9 MB argument once wrote a 10.4 MB line, and a 200,000-deep
 * argument none at all: JSON.stringify overflowed the stack). Strings longer than 200 characters keep their
 * start and say their length (`xxx…[9900000 characters]`); keys are cut at 64; at most 20 entries per
 * object or array; below depth 6, or past 4,000 characters in all, values become "…". Own keys only, written
 * down as they came (`__proto__` included, without touching any prototype). Pure, and never recursive past 6.
 */
const MAX_STRING = 200;
const MAX_KEY = 64;
const MAX_ENTRIES = 20;
const MAX_DEPTH = 6;
const BUDGET = 4000;

export function boundedArguments(args: Record<string, unknown>): Record<string, unknown> {
  const budget = { left: BUDGET };
  return boundedObject(args, 1, budget);
}

function bounded(value: unknown, depth: number, budget: { left: number }): unknown {
  if (typeof value === "string") {
    const kept = value.length <= MAX_STRING ? value : `${value.slice(0, MAX_STRING)}…[${value.length} characters]`;
    budget.left -= kept.length;
    return kept;
  }
  if (value === null || typeof value === "number" || typeof value === "boolean") {
    budget.left -= 8;
    return value;
  }
  if (typeof value !== "object") return `[${typeof value}]`;
  if (depth >= MAX_DEPTH || budget.left <= 0) return "…";
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value.slice(0, MAX_ENTRIES)) {
      if (budget.left <= 0) break;
      out.push(bounded(item, depth + 1, budget));
    }
    if (out.length < value.length) out.push(`…[${value.length} items]`);
    return out;
  }
  return boundedObject(value as Record<string, unknown>, depth + 1, budget);
}

function boundedObject(value: Record<string, unknown>, depth: number, budget: { left: number }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  let kept = 0;
  for (const key of keys) {
    if (kept === MAX_ENTRIES || budget.left <= 0) break;
    const name = key.length <= MAX_KEY ? key : `${key.slice(0, MAX_KEY)}…[${key.length} characters]`;
    budget.left -= name.length;
    define(out, name, bounded(value[key], depth, budget));
    kept++;
  }
  if (kept < keys.length) define(out, "…", `${keys.length - kept} more keys`);
  return out;
}

/** Sets an own property even for `__proto__` (plain assignment would replace the prototype instead). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
