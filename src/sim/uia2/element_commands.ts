/**
 * Session commands about elements: find one / all (client `{using, value}` and the Appium driver's
 * device-side `{strategy, selector, context}`; also scoped to an element), click, clear, value,
 * text, attribute, name, rect, displayed/enabled/selected, the focused (active) element and typing into it. Click and typing go to the SimDevice
 * (tap / setText) with the dump node's attributes.
 */
import type { SessionCommand, SessionRoute } from "./command.ts";
import { stringArg } from "./command.ts";
import { elementIdOf } from "./element_store.ts";
import { waitForIdle } from "./idle.ts";
import { findNodes } from "./locate.ts";
import type { SnapshotNode } from "./screen_snapshot.ts";
import { w3cError } from "./w3c_error.ts";

function locator(cmd: SessionCommand): { strategy: string; selector: string; context: string | null } {
  const b = cmd.body;
  const strategy = typeof b["using"] === "string" ? b["using"] : stringArg(b, "strategy");
  const selector = typeof b["value"] === "string" ? b["value"] : stringArg(b, "selector");
  const context = cmd.params["elementId"] ?? elementIdOf(b["context"]);
  return { strategy, selector, context };
}

/** A find without a context element resets the accessibility cache first, which waits for idle
 * (ElementLocationHelpers.findElement(s)(By) → AXWindowHelpers.resetAccessibilityCache → Device.waitForIdle); one
 * under an element does not. */
async function findFromRoot(cmd: SessionCommand, multiple: boolean): Promise<unknown> {
  if (locator(cmd).context === null) await waitForIdle(cmd);
  return find(cmd, multiple);
}

function find(cmd: SessionCommand, multiple: boolean): unknown {
  const { strategy, selector, context } = locator(cmd);
  const contextNode = context === null ? null : cmd.session.elements.resolve(context, cmd.screen.read());
  const found = findNodes(cmd.screen, strategy, selector, contextNode);
  if (multiple || cmd.body["multiple"] === true) return found.map((n) => cmd.session.elements.reference(n));
  const first = found[0];
  if (first === undefined) {
    throw w3cError("no such element", "An element could not be located on the page using the given search parameters.");
  }
  return cmd.session.elements.reference(first);
}

function element(cmd: SessionCommand): SnapshotNode {
  return cmd.session.elements.resolve(cmd.params["elementId"] ?? "", cmd.screen.read());
}

const ATTRIBUTE_ALIASES: Record<string, string> = {
  contentDescription: "content-desc",
  "content-desc": "content-desc",
  resourceId: "resource-id",
  className: "class",
  longClickable: "long-clickable",
  visible: "displayed",
};

function attribute(node: SnapshotNode, name: string): string | null {
  if (name === "name") return node.attrs["content-desc"] || node.attrs["text"] || null;
  if (name === "displayed") return node.element.getAttribute("displayed");
  const key = ATTRIBUTE_ALIASES[name] ?? name;
  const fromPageSource = node.element.getAttribute(key);
  return fromPageSource ?? node.attrs[key] ?? null;
}

function typeInto(cmd: SessionCommand, replace: boolean): null {
  const node = element(cmd);
  const raw = cmd.body["text"] ?? (Array.isArray(cmd.body["value"]) ? (cmd.body["value"] as unknown[]).join("") : undefined);
  if (typeof raw !== "string") throw w3cError("invalid argument", "'text' must be a string.");
  const current = node.attrs["text"] ?? "";
  const showingHint = current !== "" && current === (node.attrs["hint"] ?? "");
  cmd.device.setText(node.attrs, replace || showingHint ? raw : current + raw);
  return null;
}

function focused(cmd: SessionCommand): SnapshotNode {
  const node = cmd.screen.read().nodes.find((n) => n.attrs["focused"] === "true");
  if (node === undefined) throw w3cError("no such element", "No element has the focus on this screen; click an input field first.");
  return node;
}

function typeIntoFocused(cmd: SessionCommand): null {
  const node = focused(cmd);
  const raw = cmd.body["text"] ?? (Array.isArray(cmd.body["value"]) ? (cmd.body["value"] as unknown[]).join("") : undefined);
  if (typeof raw !== "string") throw w3cError("invalid argument", "'text' or 'value' must hold the keys to type.");
  cmd.device.setText(node.attrs, (node.attrs["text"] ?? "") + raw);
  return null;
}

export const ELEMENT_ROUTES: SessionRoute[] = [
  {
    scope: "session",
    method: "GET",
    path: "/element/active",
    name: "get active element",
    handle: (c) => c.session.elements.reference(focused(c)),
  },
  { scope: "session", method: "POST", path: "/keys", name: "send keys to focused element", handle: typeIntoFocused },
  { scope: "session", method: "POST", path: "/element", name: "find element", handle: (c) => findFromRoot(c, false) },
  { scope: "session", method: "POST", path: "/elements", name: "find elements", handle: (c) => findFromRoot(c, true) },
  { scope: "session", method: "POST", path: "/element/:elementId/element", name: "find child element", handle: (c) => find(c, false) },
  { scope: "session", method: "POST", path: "/element/:elementId/elements", name: "find child elements", handle: (c) => find(c, true) },
  {
    scope: "session",
    method: "POST",
    path: "/element/:elementId/click",
    name: "click",
    handle: async (c) => (c.device.tap(element(c).attrs), await waitForIdle(c), null), // Click.java waits for idle after the click
  },
  {
    scope: "session",
    method: "POST",
    path: "/element/:elementId/clear",
    name: "clear",
    handle: (c) => (c.device.setText(element(c).attrs, ""), null),
  },
  {
    scope: "session",
    method: "POST",
    path: "/element/:elementId/value",
    name: "send keys",
    handle: (c) => typeInto(c, c.body["replace"] === true),
  },
  { scope: "session", method: "GET", path: "/element/:elementId/text", name: "get text", handle: (c) => element(c).attrs["text"] ?? "" },
  {
    scope: "session",
    method: "GET",
    path: "/element/:elementId/name",
    name: "get tag name",
    handle: (c) => element(c).attrs["class"] ?? "",
  },
  {
    scope: "session",
    method: "GET",
    path: "/element/:elementId/attribute/:name",
    name: "get attribute",
    handle: (c) => attribute(element(c), c.params["name"] ?? ""),
  },
  {
    scope: "session",
    method: "GET",
    path: "/element/:elementId/rect",
    name: "get rect",
    handle: (c) => element(c).rect ?? { x: 0, y: 0, width: 0, height: 0 },
  },
  {
    scope: "session",
    method: "GET",
    path: "/element/:elementId/displayed",
    name: "is displayed",
    handle: (c) => attribute(element(c), "displayed") !== "false",
  },
  {
    scope: "session",
    method: "GET",
    path: "/element/:elementId/enabled",
    name: "is enabled",
    handle: (c) => element(c).attrs["enabled"] === "true",
  },
  {
    scope: "session",
    method: "GET",
    path: "/element/:elementId/selected",
    name: "is selected",
    handle: (c) => element(c).attrs["selected"] === "true",
  },
];
