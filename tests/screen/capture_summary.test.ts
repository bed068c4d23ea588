/**
 * One capture, one summary: `ui_get_tree` (readScreen) and `tree` on a live device summarise a device
 * capture through the same function, so they agree, also when the device names no focused app
 * (foreground "" is unknown: the dump's main package is used) or no size (0: the dump's extent).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { renderTree } from "../../src/cli/tree.ts";
import type { DeviceObserver, TreeCapture } from "../../src/ports/device.ts";
import { captureContext } from "../../src/screen/mod.ts";
import { readScreen } from "../../src/device/screen_reading.ts";
import { button, dump, label, PKG } from "./dump_builder.ts";

/** An observer that only captures (readScreen asks nothing else). */
function observerOf(capture: TreeCapture): DeviceObserver {
  return { captureTree: () => Promise.resolve(capture) } as Partial<DeviceObserver> as DeviceObserver;
}

const xml = dump([label("Inbox", [0, 100, 600, 200]), button("Compose", [700, 2250, 1060, 2400], { id: `${PKG}:id/compose` })]);

test('ui_get_tree and tree --device give the same summary; a foreground of "" means unknown, not an empty package', async () => {
  const capture: TreeCapture = { xml, screen: { width: 0, height: 0, density: 0 }, keyboard: { open: false }, foregroundPackage: "" };
  const { summary } = await readScreen(observerOf(capture), { timeoutMs: 1000 });
  assert.equal(summary.foreground_package, PKG, "the dump's package, as tree says");
  assert.deepEqual(summary, JSON.parse(renderTree({ xml, context: captureContext(capture) }, "json")));
});

test("what the device says wins: its package, size, density and keyboard reach both paths", async () => {
  const capture: TreeCapture = {
    xml,
    screen: { width: 1080, height: 2200, density: 420 },
    keyboard: { open: true, top: 1500 },
    foregroundPackage: "com.android.settings",
  };
  const { summary } = await readScreen(observerOf(capture), { timeoutMs: 1000 });
  assert.equal(summary.foreground_package, "com.android.settings");
  assert.deepEqual(summary.keyboard, { open: true, top: 1500 });
  assert.equal(summary.actions[0]!.covered_by_keyboard, true);
  assert.deepEqual(
    summary.issues,
    [{ issue: "off_screen", selector: { resource_id: "compose" } }],
    "height 2200 from the device: the button below it is off screen",
  );
  assert.deepEqual(summary, JSON.parse(renderTree({ xml, context: captureContext(capture) }, "json")));
});
