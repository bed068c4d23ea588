/**
 * Password fields (`password="true"`) never show their text: the parsed node keeps only its length, and
 * the raw XML answered to an agent (`include_raw`, `tree --raw`) has that node's `text` attribute blanked.
 * Pure; an XML without password nodes comes back unchanged (the same string).
 */

/** One start tag, quotes may hold `>`. */
const START_TAG = /<[A-Za-z][^\s/>]*(?:[^>"']|"[^"]*"|'[^']*')*>/g;
const PASSWORD_ATTRIBUTE = /\spassword\s*=\s*(["'])true\1/;
const TEXT_ATTRIBUTE = /(\stext\s*=\s*)(?:"[^"]*"|'[^']*')/;

/** The XML with the `text` of every password node emptied (its hint, when it shows one, is the `hint` attribute). */
export function maskPasswordText(xml: string): string {
  if (!xml.includes("password")) return xml;
  return xml.replace(START_TAG, (tag) => PASSWORD_ATTRIBUTE.test(tag) ? tag.replace(TEXT_ATTRIBUTE, '$1""') : tag);
}
