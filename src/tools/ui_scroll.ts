/**
 * `ui_scroll`: scrolls one scroll area one page toward `direction` (up, down, left, right) through the UI
 * session (`mobile: scrollGesture` on the area's element): the area `container` names (the area itself
 * or any element inside it, resolved by scrollContainerOf), else the largest one along the direction's
 * axis (the largest of all when none scrolls that way). With `until`, swipes
 * again (at most UNTIL_MAX_SWIPES, within the deadline) until that selector names exactly one element on
 * screen that no other view is drawn over (coveredBy, as ui_tap refuses), and answers the selector the summary
 * offers for it (`found`), or UI_ELEMENT_NOT_FOUND saying how far it went and whether the end was reached, or what
 * still covers it, or that it was under a cover at the start and went past (with a screenshot of that moment); a
 * scroll area under an open drawer (drawerCover) is refused before any swipe, the drawer named. `at_end: true` says the
 * area can go no further that way (it may still scroll back: the screen's `can_scroll` stays true); beside it,
 * `scrolled` says whether the swipe moved the content at all (one more page source read, at the end only: false
 * when it is the one before the swipe). A screen with nothing scrollable is `scrolled: false`. Errors: INVALID_SCROLL_DIRECTION, INVALID_SELECTOR
 * (validation), UI_ELEMENT_NOT_FOUND, UI_ELEMENT_AMBIGUOUS, APPIUM_UNAVAILABLE, EMULATOR_BUSY,
 * SESSION_NOT_FOUND, OPERATION_TIMEOUT.
 */
import { UNTIL_MAX_SWIPES } from "../../contracts/tools.ts";
import { type ActScope, checked, defineActTool } from "../device/act.ts";
import { xpathOf } from "../device/element_path.ts";
import { readTimer } from "../device/read_timer.ts";
import { attachMomentEvidence } from "../device/screenshot.ts";
import { HarnessError } from "../errors.ts";
import {
  coveredBy,
  drawerCover,
  findElement,
  locate,
  parseDump,
  saidCover,
  scrollContainerOf,
  type ScrollDirection,
  type Selector,
  summarizeWithNodes,
  type UiNode,
  type UiTree,
} from "../screen/mod.ts";

/**
 * What a further swipe must leave of the deadline besides itself (the longest swipe-and-read so far: on a UI that
 * never goes quiet each read takes UiAutomator2's whole idle timeout): the settle, the evidence and the summary after it.
 */
const AFTER_SWIPE_MS = 4000;

export const uiScrollTool = defineActTool("ui_scroll", {
  async act(scope, args) {
    const { driver, ctx } = scope;
    const { direction, until } = args;
    let tree = parseDump(scope.before);
    let coveredAtStart: Cover | null = null;
    if (until !== undefined) {
      const shown = await offeredIfShown(scope, tree, until);
      if (shown !== null) return { direction, scrolled: false, swipes: 0, found: shown };
      coveredAtStart = coverOf(tree, until);
    }
    let area = scrollContainerOf(tree, args.container, direction);
    if (area === null) {
      if (until !== undefined) await notFound(scope, tree, until, "nothing on this screen scrolls");
      return { direction, scrolled: false };
    }
    const drawer = drawerCover(tree, area);
    if (drawer !== null) {
      await attachMomentEvidence(scope.ports, scope.ctx, "ui_scroll", scope.wait());
      throw new HarnessError(
        "UI_ELEMENT_NOT_FOUND",
        `The scroll area is under ${saidCover(drawer)}, an open drawer that takes every touch on it; nothing was swiped. ` +
          `Close the drawer (device_back), or name a container inside it, then retry.`,
        { ...(until === undefined ? {} : { selector: until }), covered_by: drawer },
      );
    }
    let source = scope.before;
    const swipeTimer = readTimer(scope.ports.clock);
    for (let swipes = 1;; swipes++) {
      const swiped = swipeTimer.begin();
      if (swipes > 1) area = sameArea(tree, area!) ?? scrollContainerOfOrNull(tree, args.container, direction);
      const xpath = area === null ? null : xpathOf(tree, area);
      const [id] = xpath === null ? [] : await checked(ctx, () => driver.findElements(xpath));
      if (id === undefined) {
        if (until === undefined && swipes === 1) return { direction, scrolled: false };
        throw new HarnessError(
          "UI_ELEMENT_NOT_FOUND",
          `The scroll area left the screen after ${swipes - 1} swipe(s) ${direction}; read the screen again (ui_get_tree) and retry.`,
          { swipes: swipes - 1, ...(until === undefined ? {} : { selector: until }) },
        );
      }
      const further = await checked(ctx, () => driver.scroll(id, direction));
      const atEnd = further ? {} : { at_end: true as const };
      // At the end, the swipe may have moved nothing: one read says whether it did (`scrolled` is what the content did).
      if (until === undefined) return { direction, scrolled: further || (await checked(ctx, () => driver.source())) !== source, ...atEnd };
      const next = await checked(ctx, () => driver.source());
      tree = parseDump(next);
      const shown = await offeredIfShown(scope, tree, until);
      if (shown !== null) return { direction, scrolled: true, swipes, ...atEnd, found: shown };
      swiped();
      const moved = next !== source;
      source = next;
      const why = !further || !moved
        ? `the end was reached after ${swipes} swipe(s) ${direction}`
        : swipes >= UNTIL_MAX_SWIPES
        ? `it stopped after ${swipes} swipes ${direction} (the most one call makes) before the end`
        : !swipeTimer.fits(ctx.remainingMs(), AFTER_SWIPE_MS)
        ? `it stopped after ${swipes} swipe(s) ${direction}, before the end, at the call's time limit`
        : null;
      if (why !== null) await notFound(scope, tree, until, why, { coveredAtStart, direction });
    }
  },
});

/**
 * The area scrolled before, on the screen after a swipe: the one scrollable node of its class, resource id
 * and content-desc (a list keeps them while its rows change, though its place may move), else null.
 */
function sameArea(tree: UiTree, before: UiNode): UiNode | null {
  const same = tree.nodes.filter((n) =>
    n.scrollable && n.visible && n.className === before.className && n.resourceId === before.resourceId &&
    n.contentDesc === before.contentDesc
  );
  return same.length === 1 ? same[0]! : null;
}

function scrollContainerOfOrNull(tree: UiTree, container: Selector | undefined, direction: ScrollDirection): UiNode | null {
  try {
    return scrollContainerOf(tree, container, direction);
  } catch {
    return null; // what the container named scrolled away with the content: the area left the screen
  }
}

/** The selector the summary offers for the one on-screen element `until` names (`until` itself for a plain text), or null. */
async function offeredIfShown(scope: ActScope, tree: UiTree, until: Selector): Promise<Selector | null> {
  const result = findElement(tree, until);
  if (result.status === "ambiguous") locate(tree, until); // throws UI_ELEMENT_AMBIGUOUS with the candidates
  if (result.status !== "found") return null;
  if (coveredBy(tree, result.element) !== null) return null; // under a sheet or a bar: not in the clear for a tap yet
  const { screen, keyboard, foregroundPackage } = await scope.ports.observer.screenContext(scope.wait());
  const context = { width: screen.width, height: screen.height, density: screen.density, keyboard, foregroundPackage };
  const { summary, actionNodes } = summarizeWithNodes(tree, context);
  const at = actionNodes.indexOf(result.element.node.id);
  return at === -1 ? until : summary.actions[at]!.selector;
}

type Cover = NonNullable<ReturnType<typeof coveredBy>>;

/** What is drawn over the one element `selector` names on this tree, or null (none, several, or in the clear). */
function coverOf(tree: UiTree, selector: Selector): Cover | null {
  const shown = findElement(tree, selector);
  return shown.status === "found" ? coveredBy(tree, shown.element) : null;
}

const BACK: Record<ScrollDirection, ScrollDirection> = { up: "down", down: "up", left: "right", right: "left" };

/**
 * UI_ELEMENT_NOT_FOUND for `until`, saying how far the scroll went, with a screenshot of that moment; an element
 * that was on screen under a cover before the first swipe and is gone now is said to have gone past.
 */
async function notFound(
  scope: ActScope,
  tree: UiTree,
  until: Selector,
  why: string,
  start: { coveredAtStart: Cover | null; direction?: ScrollDirection } = { coveredAtStart: null },
): Promise<never> {
  await attachMomentEvidence(scope.ports, scope.ctx, "ui_scroll", scope.wait());
  const shown = findElement(tree, until);
  const cover = shown.status === "found" ? coveredBy(tree, shown.element) : null;
  const { coveredAtStart, direction } = start;
  if (shown.status === "not_found" && coveredAtStart !== null && direction !== undefined) {
    throw new HarnessError(
      "UI_ELEMENT_NOT_FOUND",
      `${JSON.stringify(until)} was on screen under ${saidCover(coveredAtStart)} before the first swipe and went past it: ${why}. ` +
        `Close what covers it, then scroll back ${BACK[direction]}.`,
      { selector: until, covered_by: coveredAtStart },
    );
  }
  if (cover !== null) {
    throw new HarnessError(
      "UI_ELEMENT_NOT_FOUND",
      `${JSON.stringify(until)} is on screen but ${
        saidCover(cover)
      } is drawn over it where a tap lands, and scrolling did not clear it: ${why}. ` +
        "Close what covers it, or scroll the other way.",
      { selector: until, covered_by: cover },
    );
  }
  try {
    locate(tree, until);
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    const offers = ` ${error.message.replace(`No visible element matched ${JSON.stringify(until)}. `, "")}`;
    throw new HarnessError(
      "UI_ELEMENT_NOT_FOUND",
      `${JSON.stringify(until)} did not come on screen: ${why}.${offers} Try the other direction, or name another container.`,
      { selector: until },
    );
  }
  throw new TypeError(`${JSON.stringify(until)} was not shown but the locator found it`);
}
