/**
 * The element wait of ui_tap and ui_type_text within the call's time limit: on a screen that never goes quiet
 * (every page source waits UiAutomator2's whole waitForIdleTimeout, 3 s), a read is started only if one as long
 * as the longest so far still leaves room for the answer. A selector that never matches is answered
 * UI_ELEMENT_NOT_FOUND in the wait's own words ("The screen offers: …", with a screenshot), never
 * OPERATION_TIMEOUT for a read the wait chose to start. On the virtual clock: the times are exact.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BUILTIN_SCENARIOS, type NodeSpec, type Scenario } from "../../src/sim/mod.ts";
import { callEnvelope as call, withActServer } from "../support/act_calls.ts";
import { actWorld } from "../support/act_world.ts";

const SHOP_SCENARIO = BUILTIN_SCENARIOS["shop"]!;

const PKG = "com.example.shop";

/** One page in two frames 100 ms apart (the UI is never idle), with a row and a search field. */
function animatedPage(): Scenario {
  const page: NodeSpec = {
    class: "android.widget.FrameLayout",
    bounds: [0, 0, 1080, 2400],
    children: [
      { class: "android.widget.TextView", text: "Row", clickable: true, bounds: [0, 300, 1080, 580] },
      { class: "android.widget.EditText", id: `${PKG}:id/field`, hint: "Search", bounds: [0, 600, 1080, 760] },
    ],
  };
  const screen = (to: string) => ({ package: PKG, activity: `${PKG}.FeedActivity`, after: { ms: 100, to }, root: page });
  return {
    ...SHOP_SCENARIO,
    name: "animated-page",
    start: "a",
    screens: { ...SHOP_SCENARIO.screens, a: screen("b"), b: screen("a") },
    packages: SHOP_SCENARIO.packages.map((p) => p.name === PKG ? { name: PKG, screen: "a", label: "Shop" } : p),
    transitions: [],
  };
}

for (const limitMs of [6_000, 7_000, 8_000, 9_000, 10_000, 12_000]) {
  for (const [tool, args] of [["ui_tap", {}], ["ui_type_text", { text: "x" }]] as const) {
    test(`${tool}'s element wait on a screen that never goes quiet (${limitMs} ms limit) answers UI_ELEMENT_NOT_FOUND, never OPERATION_TIMEOUT (R39)`, async () => {
      const world = actWorld({ scenario: animatedPage(), actionTimeoutMs: limitMs });
      await withActServer(world, async (c) => {
        const started = world.clock.now();
        const missed = await call(c, tool, { selector: { text: "Nowhere" }, ...args });
        assert.equal(missed.error?.code, "UI_ELEMENT_NOT_FOUND", `${JSON.stringify(missed.error)} after ${world.clock.now() - started} ms`);
        assert.match(missed.error!.message, /The screen offers: /);
        assert.ok(world.clock.now() - started <= limitMs, `answered within the limit (${world.clock.now() - started} ms)`);
      });
    });
  }
}

/** The row and the field move between two frames 100 ms apart: a page source shows one frame, a find 3.1 s later the other. */
function movingPage(): Scenario {
  const page = (dy: number): NodeSpec => ({
    class: "android.widget.FrameLayout",
    bounds: [0, 0, 1080, 2400],
    children: [
      { class: "android.widget.TextView", text: "Row", clickable: true, bounds: [0, 300 + dy, 1080, 580 + dy] },
      { class: "android.widget.EditText", id: `${PKG}:id/field`, hint: "Search", bounds: [0, 600 + dy, 1080, 760 + dy] },
    ],
  });
  const screen = (to: string, dy: number) => ({ package: PKG, activity: `${PKG}.FeedActivity`, after: { ms: 100, to }, root: page(dy) });
  return { ...animatedPage(), name: "moving-page", screens: { ...SHOP_SCENARIO.screens, a: screen("b", 0), b: screen("a", 40) } };
}

for (const limitMs of [9_000, 10_000, 12_000, 15_000]) {
  for (
    const [tool, args] of [["ui_tap", { selector: { text: "Row" } }], ["ui_type_text", {
      selector: { input_hint: "Search" },
      text: "x",
    }]] as const
  ) {
    test(`${tool}'s element wait counts the find as well as the read: a find that waits for idle too (${limitMs} ms limit) is answered in the wait's own words (R39)`, async () => {
      const world = actWorld({ scenario: movingPage(), actionTimeoutMs: limitMs });
      // UiAutomator2's find from the root waits for idle (AXWindowHelpers.resetAccessibilityCache): 3 s here, plus 100 ms.
      world.behaviour.beforeCall = async (name) => {
        if (name.startsWith("findElements")) await world.clock.sleep(100);
      };
      await withActServer(world, async (c) => {
        const started = world.clock.now();
        const missed = await call(c, tool, args);
        assert.equal(missed.error?.code, "UI_ELEMENT_NOT_FOUND", `${JSON.stringify(missed.error)} after ${world.clock.now() - started} ms`);
        assert.match(missed.error!.message, /kept moving while it was looked up/);
        assert.ok(world.calls.filter((call) => call.startsWith("findElements")).length >= 1, world.calls.join("\n"));
        assert.ok(world.clock.now() - started <= limitMs, `answered within the limit (${world.clock.now() - started} ms)`);
      });
    });
  }
}
