/**
 * Reads and writes uiautomator dumps for the sim: `<hierarchy rotation="0"><node …/></hierarchy>` on
 * one line, attributes escaped the way the device's XmlSerializer does (newline as `&#10;`).
 * Parsing uses @xmldom/xmldom; a dump that does not parse is a scenario error.
 */
import { DOMParser, type Element } from "@xmldom/xmldom";
import type { SimNode } from "./sim_node.ts";

export const XML_DECLARATION = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>";

export function escapeAttr(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("\n", "&#10;")
    .replaceAll("\r", "&#13;")
    .replaceAll("\t", "&#9;");
}

function writeNode(node: SimNode): string {
  const attrs = Object.entries(node.attrs).map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join("");
  if (node.children.length === 0) return `<node${attrs} />`;
  return `<node${attrs}>${node.children.map(writeNode).join("")}</node>`;
}

export function writeDump(roots: readonly SimNode[], rotation = 0): string {
  return `${XML_DECLARATION}<hierarchy rotation="${rotation}">${roots.map(writeNode).join("")}</hierarchy>`;
}

export interface ReadDump {
  roots: SimNode[];
  rotation: number;
  /** The size Appium's page source declares on `<hierarchy width= height=>` (the app window), when it does. */
  declared?: { width: number; height: number };
}

/** Parses a dump (uiautomator `<node>` or Appium class-name tags) into SimNodes; throws Error with the reason. */
export function readDump(xml: string): ReadDump {
  const problems: string[] = [];
  let root: Element | null = null;
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        if (level !== "warning") problems.push(message);
      },
    }).parseFromString(xml, "text/xml");
    root = doc.documentElement;
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (problems.length > 0 || root === null) throw new Error(`the XML does not parse (${problems[0] ?? "no root element"})`);
  if (root.nodeName !== "hierarchy") throw new Error(`the root element is <${root.nodeName}>, expected <hierarchy>`);
  const toNode = (el: Element, parent: SimNode | null): SimNode => {
    const attrs: Record<string, string> = {};
    for (let i = 0; i < el.attributes.length; i++) {
      const a = el.attributes.item(i);
      if (a !== null) attrs[a.name] = a.value;
    }
    if (attrs["class"] === undefined && el.nodeName !== "node") attrs["class"] = el.nodeName;
    const node: SimNode = { attrs, children: [], parent };
    node.children = elementChildren(el).map((c) => toNode(c, node));
    return node;
  };
  const roots = elementChildren(root).map((c) => toNode(c, null));
  const rotation = Number(root.getAttribute("rotation") ?? 0) || 0;
  const width = Number(root.getAttribute("width")), height = Number(root.getAttribute("height"));
  return width > 0 && height > 0 ? { roots, rotation, declared: { width, height } } : { roots, rotation };
}

function elementChildren(el: Element): Element[] {
  const out: Element[] = [];
  for (let c = el.firstChild; c !== null; c = c.nextSibling) if (c.nodeType === 1) out.push(c as Element);
  return out;
}
