/**
 * What of a call's arguments goes into the audit log: everything as sent, except typed text, which is
 * replaced by its length (`{redacted_length: N}`) so passwords never reach the disk. Non-object
 * arguments are recorded as `{invalid: <type>}`.
 */
const REDACTED_KEYS = new Set(["text"]);

export function redactArguments(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) return { invalid: Array.isArray(raw) ? "array" : typeof raw };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    out[key] = REDACTED_KEYS.has(key) ? { redacted_length: typeof value === "string" ? [...value].length : 0 } : value;
  }
  return out;
}
