/**
 * Names and values quoted in messages, cut to a bound: a client may send a 1 MB key, and an error that echoes
 * it (twice, since the envelope is mirrored as text) would be a 2 MB answer. Control characters are escaped
 * as in JSON; a cut shows the length it came from. Pure.
 */
export const QUOTE_MAX_CHARACTERS = 40;
export const QUOTE_MAX_ITEMS = 5;

export function quote(text: string, max = QUOTE_MAX_CHARACTERS): string {
  if (text.length <= max) return `'${escape(text)}'`;
  let cut = text.slice(0, max);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1); // never half a surrogate pair
  return `'${escape(cut)}…' (${text.length} characters)`;
}

/** `'a', 'b' and 3 more`: at most QUOTE_MAX_ITEMS quoted names. */
export function quoteList(names: readonly string[]): string {
  const shown = names.slice(0, QUOTE_MAX_ITEMS).map((name) => quote(name));
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(", ")} and ${more} more` : shown.join(", ");
}

function escape(text: string): string {
  return JSON.stringify(text).slice(1, -1).replaceAll('\\"', '"');
}
