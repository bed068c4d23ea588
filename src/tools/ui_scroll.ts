/**
 * `ui_scroll`: scrolls the screen's main scrollable container (the largest visible one) up or down
 * through the UI session (`mobile: scrollGesture`); takes no selector. A screen with nothing scrollable
 * is answered with `scrolled: false` and `changed: false`. Errors: INVALID_SCROLL_DIRECTION
 * (validation), UI_ELEMENT_NOT_FOUND (the screen changed under it), APPIUM_UNAVAILABLE, EMULATOR_BUSY, SESSION_NOT_FOUND, OPERATION_TIMEOUT.
 */
import { checked, defineActTool } from "../device/act.ts";
import { xpathOf } from "../device/element_path.ts";
import { parseDump, type UiNode } from "../screen/mod.ts";

export const uiScrollTool = defineActTool("ui_scroll", {
  async act({ driver, before, ctx }, args) {
    const tree = parseDump(before);
    const container = largest(tree.nodes.filter((n) => n.scrollable && n.visible && n.bounds !== null));
    if (container === undefined) return { direction: args.direction, scrolled: false };
    const [id] = await checked(ctx, () => driver.findElements(xpathOf(tree, container)));
    if (id === undefined) return { direction: args.direction, scrolled: false };
    const further = await checked(ctx, () => driver.scroll(id, args.direction));
    return { direction: args.direction, scrolled: true, can_scroll_further: further };
  },
});

function largest(nodes: UiNode[]): UiNode | undefined {
  const area = (n: UiNode) => (n.bounds!.right - n.bounds!.left) * (n.bounds!.bottom - n.bounds!.top);
  return nodes.reduce<UiNode | undefined>((best, n) => (best === undefined || area(n) > area(best) ? n : best), undefined);
}
