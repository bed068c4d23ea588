/**
 * ui_scroll on a list under an open DrawerLayout drawer (the shop's cart): the layout intercepts every touch on its
 * content while the drawer shows, so a swipe there scrolls nothing. The tool says what covers the list and swipes
 * nothing, where it answered `at_end: true` and "the end was reached" on a list two parts from its end.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { callEnvelope as call, withActServer } from "../support/act_calls.ts";
import { actWorld } from "../support/act_world.ts";

const cover = { label: "Your cart", selector: { resource_id: "cart_drawer" } };

for (const args of [{ direction: "down" }, { direction: "down", until: { text: "Daypack" } }]) {
  test(`ui_scroll ${JSON.stringify(args)} under the open cart drawer names the drawer and swipes nothing`, async () => {
    const world = actWorld({ scenario: "shop" });
    await withActServer(world, async (c) => {
      await call(c, "ui_tap", { selector: { content_desc: "Cart" } });
      assert.equal(world.device.screenId(), "cart");
      const sent = world.calls.length;
      const scrolled = await call(c, "ui_scroll", args);
      assert.equal(scrolled.ok, false, JSON.stringify(scrolled.data));
      const error = scrolled.error as { code: string; message: string; details: Record<string, unknown> };
      assert.equal(error.code, "UI_ELEMENT_NOT_FOUND");
      assert.match(error.message, /under 'Your cart' \{"resource_id":"cart_drawer"\}/);
      assert.doesNotMatch(error.message, /end was reached/);
      assert.deepEqual(error.details["covered_by"], cover);
      assert.deepEqual(world.calls.slice(sent).filter((n) => n.startsWith("scroll")), [], "no swipe was sent");
    });
  });
}

test("ui_tap beside the open cart drawer says to close the drawer, not to scroll it clear (ui_scroll refuses there)", async () => {
  const world = actWorld({ scenario: "shop" });
  await withActServer(world, async (c) => {
    await call(c, "ui_tap", { selector: { content_desc: "Cart" } });
    const tapped = await call(c, "ui_tap", { selector: { text: "Canvas sneakers" } });
    const error = tapped.error as { code: string; message: string; details: Record<string, unknown> };
    assert.equal(error.code, "UI_ELEMENT_NOT_FOUND");
    assert.deepEqual(error.details["covered_by"], cover);
    assert.match(error.message, /nothing was tapped\. Close the drawer \(device_back\), then retry\.$/);
    assert.doesNotMatch(error.message, /ui_scroll/);
    assert.equal(world.device.screenId(), "cart", "nothing was tapped: the drawer is still open");
  });
});
