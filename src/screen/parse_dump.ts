/**
 * XML → UiTree. Reads uiautomator dumps (`<hierarchy><node …>`) and Appium UiAutomator2 page sources
 * (class names as tags) into one node list in document order, with parsed bounds. Tolerates the
 * `UI hierchary dumped to: /dev/tty` trailer and warnings printed before the XML. Empty, non-XML,
 * truncated, oversized (> 50 MB) or absurdly deep (> 2000 levels) input, a DOCTYPE (no device writes one; its
 * entities would expand into attributes) and an element beside the root throw HarnessError UI_TREE_UNAVAILABLE
 * with the reason; nothing else is ever thrown. A node marked `password` and every node under it has its
 * text withheld (password_fields.ts).
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { HarnessError } from "../errors.ts";
import type { Bounds, UiNode, UiTree } from "./types.ts";

export const MAX_DUMP_BYTES = 50 * 1024 * 1024;
/** Deepest node nesting accepted (real screens stay far below; Compose and WebView trees reach ~100). */
export const MAX_DUMP_DEPTH = 2000;

type Attributes = Record<string, string>;
/** fast-xml-parser's preserveOrder shape: `{tag: children[], ":@"?: attributes}`. */
type OrderedElement = Record<string, unknown> & { ":@"?: Attributes };

const ROOT = "hierarchy";
const BOUNDS = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/;

export function parseDump(xml: string): UiTree {
  const body = checkedBody(xml);
  try {
    return toTree(newParser().parse(body) as OrderedElement[]);
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    throw unavailable(`the XML could not be read (${(error as Error)?.message ?? String(error)})`);
  }
}

function toTree(document: OrderedElement[]): UiTree {
  const elements = document.filter((element) => isElement(tagOf(element)));
  // The validator lets a self-closing element beside the root through; its nodes would be read by nobody and masked by nobody.
  if (elements.length > 1) throw unavailable(`there is more than one root element (<${elements.map(tagOf).join(">, <")}>)`);
  const root = elements.find((element) => tagOf(element) === ROOT);
  if (root === undefined) throw unavailable(`there is no <${ROOT}> root element`);
  const rootAttributes = root[":@"] ?? {};
  const nodes: UiNode[] = [];
  let sawNodeTag = false;
  // `hidden`: under a node marked password (a PIN view marks its container and draws each digit in a child).
  const walk = (elements: OrderedElement[], parent: UiNode | null, depth: number, hidden: boolean) => {
    for (const element of elements) {
      const tag = tagOf(element);
      if (!isElement(tag)) continue;
      if (tag === "node") sawNodeTag = true;
      const node = toNode(nodes.length, tag, element[":@"] ?? {}, parent, depth, hidden);
      nodes.push(node);
      parent?.children.push(node.id);
      walk(element[tag] as OrderedElement[], node, depth + 1, hidden || node.password);
    }
  };
  walk(root[ROOT] as OrderedElement[], null, 0, false);
  if (nodes.length === 0) throw unavailable(`the <${ROOT}> element is empty (the screen may be locked or still loading)`);
  const width = Number(rootAttributes["width"]);
  const height = Number(rootAttributes["height"]);
  return {
    format: sawNodeTag ? "uiautomator" : "appium",
    rotation: Number(rootAttributes["rotation"] ?? 0) || 0,
    nodes,
    declaredSize: width > 0 && height > 0 ? { width, height } : null,
  };
}

/** The XML without the dump trailer, after the checks that need no parsing. */
function checkedBody(xml: string): string {
  const body = dumpDocument(xml);
  const verdict = XMLValidator.validate(body);
  if (verdict !== true) throw unavailable(`the XML is malformed at line ${verdict.err.line}: ${verdict.err.msg}`);
  const markup = withoutCommentsAndCdata(body);
  if (/<!DOCTYPE/i.test(markup)) {
    throw unavailable(
      "the XML declares a DOCTYPE, which no uiautomator dump or Appium page source has (its entities would expand into texts)",
    );
  }
  const depth = nestingDepth(markup);
  if (depth > MAX_DUMP_DEPTH + 1) {
    throw new HarnessError(
      "UI_TREE_UNAVAILABLE",
      `Cannot read the screen hierarchy: its nodes are nested ${depth - 1} levels deep, more than the ${MAX_DUMP_DEPTH} accepted. ` +
        "This is the app's view tree, not a passing glitch: a new dump of the same screen will be refused too; navigate to another screen, or use ui_screenshot.",
      { reason: `nested deeper than ${MAX_DUMP_DEPTH} levels (${depth - 1})` },
    );
  }
  return body;
}

/**
 * The XML document of a dump, as the parser reads it: from its `<?xml` declaration (or `<hierarchy`) to `</hierarchy>`,
 * without the warnings some devices print before it nor uiautomator's trailer after it. Checks only what needs no parsing.
 */
export function dumpDocument(xml: string): string {
  if (typeof xml !== "string") throw unavailable("the dump is not text");
  if (xml.length > MAX_DUMP_BYTES || (xml.length * 3 > MAX_DUMP_BYTES && new TextEncoder().encode(xml).length > MAX_DUMP_BYTES)) {
    throw unavailable(`the dump is larger than ${MAX_DUMP_BYTES / 1024 / 1024} MB`);
  }
  let trimmed = xml.trim();
  if (trimmed === "") throw unavailable("the dump is empty");
  if (!trimmed.startsWith("<")) {
    // Some devices print warnings (e.g. "WARNING: linker: …") before the XML on `exec-out`.
    const start = [trimmed.indexOf("<?xml"), trimmed.indexOf(`<${ROOT}`)].filter((at) => at !== -1);
    if (start.length === 0) throw unavailable(`the dump is not XML (it starts with ${JSON.stringify(trimmed.slice(0, 40))})`);
    trimmed = trimmed.slice(Math.min(...start));
  }
  const end = trimmed.lastIndexOf(`</${ROOT}>`);
  if (end === -1) throw unavailable(`the dump is truncated or not a hierarchy (no closing </${ROOT}>)`);
  return trimmed.slice(0, end + ROOT.length + 3);
}

function withoutCommentsAndCdata(xml: string): string {
  return xml.replace(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g, "");
}

/** Deepest element nesting of well-formed XML without comments and CDATA (the root element is level 1); quotes may hold `>`. */
function nestingDepth(tags: string): number {
  const TAG = /<([/?!]?)(?:[^>"']|"[^"]*"|'[^']*')*?(\/?)>/g;
  let depth = 0;
  let deepest = 0;
  for (let match = TAG.exec(tags); match !== null; match = TAG.exec(tags)) {
    if (match[1] === "/") depth -= 1;
    else if (match[1] === "" && match[2] === "") deepest = Math.max(deepest, ++depth);
  }
  return deepest;
}

function newParser(): XMLParser {
  return new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: "",
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    htmlEntities: true,
    processEntities: true,
    // The library refuses 100 levels by default; real dumps reach that. The depth guard above says it first.
    maxNestedTags: MAX_DUMP_DEPTH + 2,
  });
}

function tagOf(element: OrderedElement): string | undefined {
  return Object.keys(element).find((key) => key !== ":@");
}

/** An element (the parser also lists text as `#text` and processing instructions as `?name`). */
function isElement(tag: string | undefined): tag is string {
  return tag !== undefined && !tag.startsWith("#") && !tag.startsWith("?");
}

function toNode(id: number, tag: string, a: Attributes, parent: UiNode | null, depth: number, underPassword: boolean): UiNode {
  const shown = underPassword ? "" : a["text"] ?? "";
  const password = a["password"] === "true";
  // An empty field dumps its hint as its text (API 26+; only Appium's page source says showing-hint); a password
  // field's own text is bullets, so its text equal to its hint is the hint.
  const showingHint = a["showing-hint"] === "true" || (password && shown !== "" && shown === (a["hint"] ?? ""));
  // A password field's text never leaves the parser (password_fields.ts): only its length, and a hint it shows.
  const text = password && !showingHint ? "" : shown;
  return {
    id,
    parent: parent?.id ?? null,
    children: [],
    depth,
    className: a["class"] ?? (tag === "node" ? "" : tag),
    packageName: a["package"] ?? "",
    text,
    resourceId: a["resource-id"] ?? "",
    contentDesc: a["content-desc"] ?? "",
    hint: a["hint"] || (showingHint ? text : ""),
    checkable: a["checkable"] === "true",
    checked: a["checked"] === "true",
    clickable: a["clickable"] === "true",
    longClickable: a["long-clickable"] === "true",
    enabled: a["enabled"] !== "false",
    focusable: a["focusable"] === "true",
    focused: a["focused"] === "true",
    scrollable: a["scrollable"] === "true",
    selected: a["selected"] === "true",
    password,
    ...(password && !showingHint && shown !== "" ? { textLength: [...shown].length } : {}),
    visible: a["visible-to-user"] !== "false" && a["displayed"] !== "false",
    bounds: parseBounds(a["bounds"]),
    ...(/^\d{1,6}$/.test(a["drawing-order"] ?? "") ? { drawingOrder: Number(a["drawing-order"]) } : {}),
  };
}

export function parseBounds(value: string | undefined): Bounds | null {
  const match = value === undefined ? null : BOUNDS.exec(value);
  if (match === null) return null;
  return { left: Number(match[1]), top: Number(match[2]), right: Number(match[3]), bottom: Number(match[4]) };
}

function unavailable(reason: string): HarnessError {
  return new HarnessError(
    "UI_TREE_UNAVAILABLE",
    `Cannot read the screen hierarchy: ${reason}. Take a new dump (the screen may have been changing) and try again.`,
    { reason },
  );
}
