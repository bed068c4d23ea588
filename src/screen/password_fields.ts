/**
 * Password fields (`password="true"`) never show their text: the parsed node keeps only its length, and
 * the raw XML answered to an agent (`include_raw`, `tree --raw`) has the text of that node, and of every node
 * under it, blanked. Which nodes are passwords is the parser's answer (entities decoded, any tag, any attribute
 * order or quoting); this module only finds where their texts are written: it scans the document the parser
 * read, meets the parsed nodes one for one in document order, and empties the value of each hidden node's
 * `text` attribute and its character data. Everything else is the document byte for byte. Pure.
 */
import { HarnessError } from "../errors.ts";
import { dumpDocument, parseDump } from "./parse_dump.ts";
import type { UiTree } from "./types.ts";

interface Span {
  start: number;
  end: number;
}

/**
 * The dump's XML document (without what a device prints before or after it) with the text of every password node
 * and of the nodes under it emptied; its hint, when it shows one, is the `hint` attribute. `tree` is the parse of
 * `xml` when the caller has it. Throws UI_TREE_UNAVAILABLE as parseDump does, and when the scan cannot place every node.
 */
export function maskPasswordText(xml: string, tree: UiTree = parseDump(xml)): string {
  const document = dumpDocument(xml);
  const hidden: boolean[] = [];
  for (const node of tree.nodes) hidden.push(node.password || (node.parent !== null && hidden[node.parent] === true));
  if (!hidden.includes(true)) return document;
  const spans = hiddenTextSpans(document, hidden);
  if (spans === null) {
    throw new HarnessError(
      "UI_TREE_UNAVAILABLE",
      "Cannot answer the raw XML: a password field's text could not be located in it to be blanked. " +
        "Read the screen without the raw XML (the summary never shows a password), or take a new dump.",
      { reason: "the raw XML's nodes did not match the parsed ones" },
    );
  }
  let out = "";
  let at = 0;
  for (const span of spans) {
    out += document.slice(at, span.start);
    at = span.end;
  }
  return out + document.slice(at);
}

/**
 * Where the texts of hidden nodes are written: the value of each one's `text` attribute and its character data (CDATA
 * included). Null when the elements under the root are not the parsed nodes one for one (the parse refuses a DOCTYPE
 * and a second root; the document is well-formed).
 */
function hiddenTextSpans(document: string, hidden: readonly boolean[]): Span[] | null {
  const spans: Span[] = [];
  const open: number[] = []; // node ids of the open elements; -1 for the root
  let next = 0;
  let at = 0;
  const inHidden = () => hidden[open[open.length - 1] ?? -1] === true;
  const past = (end: string, from: number) => {
    const found = document.indexOf(end, from);
    return found === -1 ? document.length : found + end.length;
  };
  while (at < document.length) {
    if (document[at] !== "<") {
      const next = document.indexOf("<", at);
      const end = next === -1 ? document.length : next;
      if (inHidden() && document.slice(at, end).trim() !== "") spans.push({ start: at, end });
      at = end;
    } else if (document.startsWith("<!--", at)) {
      at = past("-->", at + 4);
    } else if (document.startsWith("<![CDATA[", at)) {
      const end = past("]]>", at + 9);
      if (inHidden()) spans.push({ start: at, end });
      at = end;
    } else if (document.startsWith("<?", at)) {
      at = past("?>", at + 2);
    } else if (document.startsWith("<!", at)) {
      return null;
    } else if (document.startsWith("</", at)) {
      open.pop();
      at = past(">", at + 2);
    } else {
      const tag = startTag(document, at);
      if (tag === null) return null;
      const id = open.length === 0 ? -1 : next++;
      if (hidden[id] === true && tag.text !== null) spans.push(tag.text);
      if (!tag.selfClosing) open.push(id);
      at = tag.end;
    }
  }
  return next === hidden.length ? spans : null;
}

const SPACE = /\s/;

/** The start tag at `at`: where it ends, whether it closes itself, and its `text` attribute's value (between the quotes). */
function startTag(document: string, at: number): { end: number; selfClosing: boolean; text: Span | null } | null {
  const isSpace = (i: number) => SPACE.test(document[i] ?? "");
  let i = at + 1;
  while (i < document.length && !isSpace(i) && document[i] !== "/" && document[i] !== ">") i++;
  if (i === at + 1) return null;
  let text: Span | null = null;
  for (;;) {
    while (isSpace(i)) i++;
    if (document.startsWith("/>", i)) return { end: i + 2, selfClosing: true, text };
    if (document[i] === ">") return { end: i + 1, selfClosing: false, text };
    const nameStart = i;
    while (i < document.length && !isSpace(i) && !"=/>".includes(document[i]!)) i++;
    const name = document.slice(nameStart, i);
    while (isSpace(i)) i++;
    if (name === "" || document[i] !== "=") return null;
    i++;
    while (isSpace(i)) i++;
    const quote = document[i];
    const close = quote === '"' || quote === "'" ? document.indexOf(quote, i + 1) : -1;
    if (close === -1) return null;
    if (name === "text") text = { start: i + 1, end: close };
    i = close + 1;
  }
}
