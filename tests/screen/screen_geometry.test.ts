import assert from "node:assert/strict";
import { test } from "node:test";
import { keyboardInDump, parseDump, screenSizeOf, summaryFromXml } from "../../src/screen/mod.ts";
import { button, dump, label, windowsDump } from "./dump_builder.ts";

test("screen size: the larger of Appium's declared app window and the window roots; a child off screen does not widen it", () => {
  const xml =
    `<hierarchy rotation="0" width="1080" height="2254"><android.widget.FrameLayout class="android.widget.FrameLayout" bounds="[0,0][1080,2400]"><android.widget.Button class="android.widget.Button" text="Far" clickable="true" bounds="[1500,100][1700,300]" /></android.widget.FrameLayout></hierarchy>`;
  const tree = parseDump(xml);
  assert.deepEqual(screenSizeOf(tree), { width: 1080, height: 2400 });
  const { summary } = summaryFromXml({ xml, context: {} });
  assert.deepEqual(summary.issues, [{ issue: "off_screen", selector: { text: "Far" } }]);
});

test("keyboard from the dump: open with the keyboard window's top, closed without keyboard nodes", () => {
  const ime = "com.google.android.inputmethod.latin";
  const withKeyboard = parseDump(windowsDump([
    { cls: "android.widget.FrameLayout", bounds: [0, 0, 1080, 2400], children: [label("Hi", [0, 0, 100, 100])] },
    {
      cls: "android.widget.FrameLayout",
      pkg: ime,
      bounds: [0, 1517, 1080, 2400],
      children: [button("q", [0, 1600, 100, 1700], { pkg: ime })],
    },
  ]));
  assert.deepEqual(keyboardInDump(withKeyboard), { open: true, top: 1517 });
  assert.deepEqual(keyboardInDump(parseDump(dump([label("Hi", [0, 0, 100, 100])]))), { open: false });
});

test("summaryFromXml: what the caller knows wins over what the dump says", () => {
  const xml = dump([button("Home", [0, 2200, 540, 2400])]);
  const { summary } = summaryFromXml({ xml, context: { keyboard: { open: true, top: 1500 }, foregroundPackage: "com.android.settings" } });
  assert.equal(summary.foreground_package, "com.android.settings");
  assert.equal(summary.actions[0]!.covered_by_keyboard, true);
});
