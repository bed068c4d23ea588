/**
 * `ui_tap`: taps, long-presses or double-taps (`gesture`) the one element the selector names (waiting,
 * bounded, for it to appear), through the UI session: found by the locator on the session's page source,
 * clicked, `mobile: longClickGesture`d or `mobile: doubleClickGesture`d as that element (never a point). A target under the soft keyboard is tapped after hiding the keyboard through Appium and
 * checking it is gone (never BACK). Answers the settled new screen with evidence. Errors:
 * UI_ELEMENT_NOT_FOUND (with a screenshot of that moment), UI_ELEMENT_AMBIGUOUS, INVALID_SELECTOR,
 * APPIUM_UNAVAILABLE, EMULATOR_BUSY, SESSION_NOT_FOUND, OPERATION_TIMEOUT.
 */
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import { type ActScope, checked, defineActTool, findInSession, type FoundElement } from "../device/act.ts";
import { attachMomentEvidence } from "../device/screenshot.ts";
import { HarnessError } from "../errors.ts";
import { coveredBy, coveredByOpenDrawer, saidCover, type Selector } from "../screen/mod.ts";

export const uiTapTool = defineActTool("ui_tap", {
  asksKeyboard: true,
  async act(scope, args) {
    const { ctx } = scope;
    const selector = args.selector;
    let found = await findInSession(scope, selector, "ui_tap");
    if (await underKeyboard(found, scope)) {
      await hideKeyboard(scope);
      scope.before = await checked(ctx, () => scope.driver.source());
      found = await findInSession(scope, selector, "ui_tap");
    }
    await refuseCovered(found, scope, selector);
    const gesture = args.gesture ?? "tap";
    const { driver } = scope;
    const press = { tap: driver.click, long_press: driver.longPress, double_tap: driver.doubleTap }[gesture];
    await checked(ctx, () => press.call(driver, found.elementId));
    return { target: args.selector, element_label: found.element.label, gesture };
  },
});

/**
 * UI_ELEMENT_NOT_FOUND (with a screenshot of that moment) when another view is drawn over the element's centre
 * and would take the tap (a bottom sheet, a bar, a banner): tapping would act on that instead, and answer it as done.
 * Beside an open drawer the advice is to close it (no scroll clears a DrawerLayout's scrim; ui_scroll refuses there).
 */
async function refuseCovered(found: FoundElement, scope: ActScope, selector: Selector): Promise<void> {
  const cover = coveredBy(found.tree, found.element);
  if (cover === null) return;
  await attachMomentEvidence(scope.ports, scope.ctx, "ui_tap", scope.wait());
  throw new HarnessError(
    "UI_ELEMENT_NOT_FOUND",
    `${JSON.stringify(selector)} ('${found.element.label}') is covered where a tap lands (its centre) by ${saidCover(cover)}, ` +
      `which would take the tap instead; nothing was tapped. ${
        coveredByOpenDrawer(found.tree, found.element.node)
          ? "Close the drawer (device_back), then retry."
          : "Scroll it into the clear (ui_scroll), or close what covers it, then retry."
      }`,
    { selector, covered_by: cover },
  );
}

/** Whether the element lies under the open soft keyboard (the summary's covered_by_keyboard rule). */
async function underKeyboard(found: FoundElement, scope: ActScope): Promise<boolean> {
  if (!(await scope.keyboardShown())) return false;
  const { keyboard } = await scope.ports.observer.screenContext(scope.wait());
  const top = keyboard.open ? keyboard.top : undefined;
  return top !== undefined && found.element.bounds.top >= top;
}

/** Hides the keyboard through Appium and waits until it is gone; UI_ELEMENT_NOT_FOUND when it stays. */
async function hideKeyboard(scope: ActScope): Promise<void> {
  const { driver, ctx, ports } = scope;
  await checked(ctx, () => driver.hideKeyboard());
  const started = ports.clock.now();
  while (await checked(ctx, () => driver.isKeyboardShown())) {
    if (ports.clock.now() - started > ACT_DEFAULTS.settleMaxMs) {
      throw new HarnessError(
        "UI_ELEMENT_NOT_FOUND",
        "The element is under the soft keyboard, and the keyboard did not close when asked; close it with device_back if the app allows, then retry.",
      );
    }
    await ports.clock.sleep(ACT_DEFAULTS.pollIntervalMs, ctx.signal);
  }
}
