/**
 * One read of the simulated screen in the form the UiAutomator2 server serves: the uiautomator dump
 * (`<node class=…>`) rewritten with class names as tags (GET /source). Every element keeps the dump
 * node's own attributes (what SimDevice actions take), its child-index path and its bounds, so that
 * finds, taps and stale-element checks all work on the same snapshot. Throws `unknown error` when
 * the device's dump is not XML.
 */
import { type Document, DOMParser, type Element } from "@xmldom/xmldom";
import type { NodeAttributes } from "../sim_device.ts";
import { w3cError } from "./w3c_error.ts";

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SnapshotNode {
  /** The element in the page-source document (xpath and element-scoped finds run on it). */
  element: Element;
  /** The dump node's attributes, exactly as the SimDevice rendered them. */
  attrs: NodeAttributes;
  /** Child indexes from the root, e.g. "0/2/1": the node's place in this screen. */
  path: string;
  rect: Rect | null;
}

export interface ScreenSnapshot {
  document: Document;
  /** All nodes in document order. */
  nodes: SnapshotNode[];
  nodeOf(element: Element): SnapshotNode | undefined;
  /** The page source, as GET /source returns it. */
  source: string;
}

const BOOLEAN_ATTRS = [
  "checkable",
  "checked",
  "clickable",
  "enabled",
  "focusable",
  "focused",
  "long-clickable",
  "password",
  "scrollable",
  "selected",
];
const TAG_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export function parseBounds(bounds: string | undefined): Rect | null {
  const m = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(bounds ?? "");
  if (m === null) return null;
  const [left, top, right, bottom] = m.slice(1).map(Number) as [number, number, number, number];
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
    .replace(/\n/g, "&#10;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;");
}

function attributesOf(node: Element): NodeAttributes {
  const out: Record<string, string> = {};
  for (let i = 0; i < node.attributes.length; i++) {
    const a = node.attributes.item(i);
    if (a !== null) out[a.name] = a.value;
  }
  return out;
}

function pageSourceTag(attrs: NodeAttributes): string {
  const cls = attrs["class"] ?? "";
  return TAG_NAME.test(cls) ? cls : "android.view.View";
}

function pageSourceAttributes(attrs: NodeAttributes): string {
  const pairs: [string, string][] = [
    ["index", attrs["index"] ?? "0"],
    ["package", attrs["package"] ?? ""],
    ["class", attrs["class"] ?? ""],
    ["text", attrs["text"] ?? ""],
  ];
  if (attrs["resource-id"]) pairs.push(["resource-id", attrs["resource-id"]]);
  if (attrs["content-desc"]) pairs.push(["content-desc", attrs["content-desc"]]);
  for (const name of BOOLEAN_ATTRS) pairs.push([name, attrs[name] ?? "false"]);
  pairs.push(["bounds", attrs["bounds"] ?? "[0,0][0,0]"]);
  pairs.push(["displayed", attrs["visible-to-user"] ?? "true"]);
  if (attrs["hint"]) pairs.push(["hint", attrs["hint"]]);
  // UiAutomator2 8.x writes each view's drawing-order (API 24+) after hint, as the real captures show: the
  // harness's occlusion rule (covered_by, ui_tap's refusal) reads it from the page source as from a dump.
  if (attrs["drawing-order"]) pairs.push(["drawing-order", attrs["drawing-order"]]);
  return pairs.map(([k, v]) => `${k}="${escapeAttr(v)}"`).join(" ");
}

function parseXml(xml: string, what: string): Document {
  try {
    return new DOMParser({
      onError: (level, msg) => {
        if (level !== "warning") throw new Error(msg);
      },
    })
      .parseFromString(xml, "text/xml");
  } catch (error) {
    throw w3cError("unknown error", `Could not parse the ${what}: ${(error as Error).message}. The simulated screen is not valid XML.`);
  }
}

function childNodes(parent: Element): Element[] {
  const out: Element[] = [];
  for (let c = parent.firstChild; c !== null; c = c.nextSibling) {
    if (c.nodeType === 1 && (c as Element).tagName === "node") out.push(c as Element);
  }
  return out;
}

export function readSnapshot(dumpXml: string, size: { width: number; height: number }): ScreenSnapshot {
  const dump = parseXml(dumpXml, "uiautomator dump");
  const root = dump.documentElement;
  if (root === null) throw w3cError("unknown error", "The uiautomator dump has no root element.");
  const dumpNodes: { attrs: NodeAttributes; path: string }[] = [];
  const render = (parent: Element, prefix: string): string =>
    childNodes(parent).map((child, i) => {
      const attrs = attributesOf(child);
      const path = prefix === "" ? String(i) : `${prefix}/${i}`;
      dumpNodes.push({ attrs, path });
      const tag = pageSourceTag(attrs);
      const inner = render(child, path);
      return inner === "" ? `<${tag} ${pageSourceAttributes(attrs)} />` : `<${tag} ${pageSourceAttributes(attrs)}>${inner}</${tag}>`;
    }).join("");
  const rotation = root.getAttribute("rotation") ?? "0";
  const body = render(root, "");
  const source = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\r\n<hierarchy index="0" class="hierarchy" ` +
    `rotation="${escapeAttr(rotation)}" width="${size.width}" height="${size.height}">${body}</hierarchy>`;
  const document = parseXml(source, "page source");
  const elements: Element[] = [];
  const collect = (e: Element): void => {
    for (let c = e.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === 1) {
        elements.push(c as Element);
        collect(c as Element);
      }
    }
  };
  if (document.documentElement !== null) collect(document.documentElement);
  const nodes = dumpNodes.map((n, i) => ({
    element: elements[i] as Element,
    attrs: n.attrs,
    path: n.path,
    rect: parseBounds(n.attrs["bounds"]),
  }));
  const byElement = new Map<Element, SnapshotNode>(nodes.map((n) => [n.element, n]));
  return { document, nodes, nodeOf: (e) => byElement.get(e), source };
}
