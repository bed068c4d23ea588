/**
 * ui_scroll's `until` within the call's time limit (docs/contract.md: it swipes again only while the time
 * limit leaves room for the answer): on a list that never goes quiet (an animated page: every page source
 * waits UiAutomator2's whole waitForIdleTimeout, 3 s), a swipe that is started must still leave room for
 * itself and for the settle, the evidence and the summary after it. A call never ends OPERATION_TIMEOUT
 * because of the swipes it chose to make; it answers the element it found, or UI_ELEMENT_NOT_FOUND saying it
 * stopped at the time limit. On the virtual clock: the times are exact.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BUILTIN_SCENARIOS, type NodeSpec, type Scenario } from "../../src/sim/mod.ts";
import { callEnvelope as call, withActServer } from "../support/act_calls.ts";
import { actWorld } from "../support/act_world.ts";

const SHOP_SCENARIO = BUILTIN_SCENARIOS["shop"]!;

const PKG = "com.example.shop";

/** Pages p0…p{last} of an animated list (each page two frames 100 ms apart, so the UI is never idle); `Target` on the last. */
function animatedList(last: number): Scenario {
  const page = (k: number): NodeSpec => ({
    class: "android.widget.FrameLayout",
    bounds: [0, 0, 1080, 2400],
    children: [{
      class: "androidx.recyclerview.widget.RecyclerView",
      id: `${PKG}:id/feed`,
      scrollable: true,
      bounds: [0, 300, 1080, 2200],
      children: [0, 1, 2, 3, 4].map((i) => ({
        class: "android.widget.TextView",
        text: k === last && i === 4 ? "Target" : `Row ${k}-${i}`,
        clickable: true,
        bounds: [0, 300 + i * 300, 1080, 580 + i * 300] as NodeSpec["bounds"],
      })),
    }],
  });
  const screens: Scenario["screens"] = {};
  const transitions: Scenario["transitions"] = [];
  for (let k = 0; k <= last; k++) {
    screens[`p${k}`] = { package: PKG, activity: `${PKG}.FeedActivity`, after: { ms: 100, to: `p${k}b` }, root: page(k) };
    screens[`p${k}b`] = { package: PKG, activity: `${PKG}.FeedActivity`, after: { ms: 100, to: `p${k}` }, root: page(k) };
    if (k < last) transitions.push({ from: [`p${k}`, `p${k}b`], on: "scroll_down", to: `p${k + 1}` });
  }
  return {
    ...SHOP_SCENARIO,
    name: "animated-feed",
    start: "p0",
    screens: { ...SHOP_SCENARIO.screens, ...screens },
    packages: SHOP_SCENARIO.packages.map((p) => p.name === PKG ? { name: PKG, screen: "p0", label: "Shop" } : p),
    transitions,
  };
}

for (const last of [3, 4, 5, 8]) {
  test(`ui_scroll until on a list that never goes quiet (target after ${last} swipes, 20 s limit) answers typed, never OPERATION_TIMEOUT (R39)`, async () => {
    const world = actWorld({ scenario: animatedList(last), actionTimeoutMs: 20_000 });
    await withActServer(world, async (c) => {
      const started = world.clock.now();
      const scrolled = await call(c, "ui_scroll", { direction: "down", until: { text: "Target" } });
      assert.notEqual(
        scrolled.error?.code,
        "OPERATION_TIMEOUT",
        `${JSON.stringify(scrolled.error)} after ${world.clock.now() - started} ms`,
      );
      if (scrolled.ok) {
        assert.deepEqual(scrolled.data["found"], { text: "Target" });
        assert.equal(scrolled.data["swipes"], last);
      } else {
        assert.equal(scrolled.error?.code, "UI_ELEMENT_NOT_FOUND");
        assert.match(scrolled.error!.message, /before the end, at the call's time limit/);
        assert.ok(scrolled.evidence !== null, "a screenshot of where it stopped");
      }
      assert.ok(world.clock.now() - started <= 20_000, `answered within the limit (${world.clock.now() - started} ms)`);
    });
  });
}
