/**
 * Element finding over one simulated screen, for the locator strategies of webdriverio and the
 * Appium driver: `id` (`pkg:id/x`, short `x`, or a bare Compose/WebView id), `accessibility id`,
 * `class name`, `xpath` (over the page source), `-android uiautomator` (UiSelector subset;
 * UiScrollable scrolls until the target shows). Matches come in document order, possibly none;
 * a malformed locator is `invalid selector`.
 */
import xpath from "xpath";
import type { SelectReturnType } from "xpath";
import type { Element } from "@xmldom/xmldom";
import type { ScreenSnapshot, SnapshotNode } from "./screen_snapshot.ts";
import { selectNodes, type UiScrollable } from "./ui_selector.ts";
import { parseUiAutomator } from "./ui_selector_parser.ts";
import { w3cError } from "./w3c_error.ts";

/** What a find needs from the session: the current screen, and a way to scroll it (for UiScrollable). */
export interface FindScreen {
  read(): ScreenSnapshot;
  scroll(direction: "up" | "down"): void;
}

export const STRATEGIES = ["id", "accessibility id", "class name", "xpath", "-android uiautomator"] as const;

function within(nodes: SnapshotNode[], context: SnapshotNode | null): SnapshotNode[] {
  if (context === null) return nodes;
  return nodes.filter((n) => n.path.startsWith(`${context.path}/`));
}

function byXpath(snapshot: ScreenSnapshot, expression: string, context: SnapshotNode | null): SnapshotNode[] {
  let result: SelectReturnType;
  try {
    const start = context?.element ?? snapshot.document;
    result = xpath.select(expression, start as unknown as Node);
  } catch (error) {
    throw w3cError(
      "invalid selector",
      `Unable to locate an element with the xpath expression ${expression} because of the following error: ${(error as Error).message}`,
    );
  }
  if (!xpath.isArrayOfNodes(result)) {
    throw w3cError(
      "invalid selector",
      `The xpath expression ${expression} does not select elements; it evaluates to ${JSON.stringify(result)}.`,
    );
  }
  return result.map((n) => snapshot.nodeOf(n as unknown as Element)).filter((n): n is SnapshotNode => n !== undefined);
}

function scrollIntoView(screen: FindScreen, locator: UiScrollable): SnapshotNode[] {
  const target = locator.target ?? locator.container;
  let snapshot = screen.read();
  for (const direction of ["down", "up"] as const) {
    for (let swipe = 0; swipe <= locator.maxSwipes; swipe++) {
      const found = selectNodes(target, snapshot.nodes);
      if (found.length > 0 || locator.target === null) return found;
      if (selectNodes(locator.container, snapshot.nodes).length === 0) return [];
      screen.scroll(direction);
      const next = screen.read();
      const moved = next.source !== snapshot.source;
      snapshot = next;
      if (!moved) break;
    }
  }
  return selectNodes(target, snapshot.nodes);
}

export function findNodes(screen: FindScreen, strategy: string, selector: string, context: SnapshotNode | null): SnapshotNode[] {
  if (strategy === "-android uiautomator") {
    const locator = parseUiAutomator(selector);
    if (locator.kind === "scrollable") return scrollIntoView(screen, locator);
    return selectNodes(locator, within(screen.read().nodes, context));
  }
  const snapshot = screen.read();
  const nodes = within(snapshot.nodes, context);
  switch (strategy) {
    case "id": {
      const full = selector.includes(":id/");
      return nodes.filter((n) => {
        const rid = n.attrs["resource-id"] ?? "";
        return rid === selector || (!full && rid.endsWith(`:id/${selector}`));
      });
    }
    case "accessibility id":
      return nodes.filter((n) => (n.attrs["content-desc"] ?? "") === selector);
    case "class name":
      return nodes.filter((n) => (n.attrs["class"] ?? "") === selector);
    case "xpath":
      return byXpath(snapshot, selector, context);
    default:
      throw w3cError(
        "invalid selector",
        `Locator Strategy '${strategy}' is not supported for this session. Use one of: ${STRATEGIES.join(", ")}.`,
      );
  }
}
