import assert from "node:assert/strict";
import { test } from "node:test";
import { HarnessError } from "../../src/errors.ts";
import { MAX_DUMP_BYTES, MAX_DUMP_DEPTH, parseDump } from "../../src/screen/mod.ts";
import { button, dump, label } from "./dump_builder.ts";

function refused(xml: string, reason: RegExp): void {
  assert.throws(() => parseDump(xml), (error: unknown) => {
    assert.ok(error instanceof HarnessError, `expected a HarnessError, got ${String(error)}`);
    assert.equal(error.code, "UI_TREE_UNAVAILABLE");
    assert.match(error.message, reason);
    assert.doesNotMatch(error.message, /\n\s+at /, "no stack trace in the message");
    return true;
  });
}

test("a uiautomator dump becomes nodes in document order with parsed bounds and attributes", () => {
  const tree = parseDump(
    dump([label("Title", [0, 100, 1080, 200]), button("Save", [40, 300, 400, 420], { id: "com.example.app:id/save" })]),
  );
  assert.equal(tree.format, "uiautomator");
  assert.equal(tree.nodes.length, 3);
  const [root, title, save] = tree.nodes;
  assert.deepEqual(root!.children, [1, 2]);
  assert.equal(title!.parent, 0);
  assert.equal(title!.text, "Title");
  assert.equal(save!.resourceId, "com.example.app:id/save");
  assert.equal(save!.clickable, true);
  assert.equal(save!.depth, 1);
  assert.deepEqual(save!.bounds, { left: 40, top: 300, right: 400, bottom: 420 });
});

test("the /dev/tty trailer after </hierarchy> is tolerated", () => {
  const tree = parseDump(dump([label("Hello", [0, 0, 100, 100])], { trailer: true }));
  assert.equal(tree.nodes[1]!.text, "Hello");
});

test("warning lines a device prints before the XML are skipped", () => {
  const tree = parseDump("WARNING: linker: libdvm.so has text relocations.\n" + dump([label("Hello", [0, 0, 100, 100])]));
  assert.equal(tree.nodes[1]!.text, "Hello");
});

test("entities decode: a newline in a Flutter content-desc, ampersands and quotes", () => {
  const tree = parseDump(
    dump([button("", [0, 0, 100, 100], { desc: "Historial\nTab 2 of 3" }), label(`Fish & "Chips"`, [0, 100, 100, 200])]),
  );
  assert.equal(tree.nodes[1]!.contentDesc, "Historial\nTab 2 of 3");
  assert.equal(tree.nodes[2]!.text, `Fish & "Chips"`);
});

test("an Appium page source (class-name tags) gives the same node type, its declared size and displayed=false", () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<hierarchy index="0" class="hierarchy" rotation="1" width="2400" height="1080">
  <android.widget.FrameLayout index="0" package="com.example.app" class="android.widget.FrameLayout" text="" clickable="false" enabled="true" bounds="[0,0][2400,1080]" displayed="true">
    <android.widget.Button index="0" package="com.example.app" class="android.widget.Button" text="OK" resource-id="com.example.app:id/ok" clickable="true" enabled="true" bounds="[10,20][210,140]" displayed="true" />
    <android.widget.TextView index="1" package="com.example.app" text="Hidden" clickable="false" enabled="true" bounds="[10,200][210,240]" displayed="false" />
  </android.widget.FrameLayout>
</hierarchy>`;
  const tree = parseDump(xml);
  assert.equal(tree.format, "appium");
  assert.equal(tree.rotation, 1);
  assert.deepEqual(tree.declaredSize, { width: 2400, height: 1080 });
  assert.equal(tree.nodes.length, 3);
  assert.equal(tree.nodes[1]!.className, "android.widget.Button");
  assert.equal(tree.nodes[1]!.text, "OK");
  assert.equal(tree.nodes[2]!.className, "android.widget.TextView", "class taken from the tag when the attribute is missing");
  assert.equal(tree.nodes[2]!.visible, false);
});

test("visible-to-user=false is kept as a hidden node; an input showing its hint gets that hint", () => {
  const xml = dump([label("Gone", [0, 0, 10, 10], { visible: false })]).replace(
    "</node></hierarchy>",
    `<node text="Search" class="android.widget.EditText" package="p" showing-hint="true" bounds="[0,0][10,10]" /></node></hierarchy>`,
  );
  const tree = parseDump(xml);
  assert.equal(tree.nodes[1]!.visible, false);
  assert.equal(tree.nodes[2]!.hint, "Search");
});

test("empty, blank, non-XML, truncated, malformed and rootless input is UI_TREE_UNAVAILABLE with a reason", () => {
  refused("", /empty/);
  refused("   \n", /empty/);
  refused("ERROR: null root node returned by UiTestAutomationBridge.", /not XML/);
  refused(dump([label("A", [0, 0, 1, 1])]).slice(0, 200), /truncated/);
  refused(`<hierarchy><node text="a"><node text="b"></hierarchy>`, /malformed/);
  refused(`<?xml version="1.0"?><other></other>`, /truncated or not a hierarchy/);
  refused(`<hierarchy rotation="0"></hierarchy>`, /empty/);
});

test("input over 50 MB is refused before parsing", () => {
  const huge = "<hierarchy>" + " ".repeat(MAX_DUMP_BYTES) + "</hierarchy>";
  refused(huge, /larger than 50 MB/);
});

test("a pathologically deep dump is refused or parsed, never a crash", () => {
  const depth = 20000;
  const xml = `<hierarchy>${'<node bounds="[0,0][1,1]">'.repeat(depth)}${"</node>".repeat(depth)}</hierarchy>`;
  try {
    const tree = parseDump(xml);
    assert.equal(tree.nodes.length, depth);
  } catch (error) {
    assert.ok(error instanceof HarnessError);
    assert.equal(error.code, "UI_TREE_UNAVAILABLE");
  }
});

test("a non-string input is refused, not crashed on", () => {
  refused(undefined as unknown as string, /not text/);
});

function nested(depth: number): string {
  const open = '<node text="x" class="android.view.View" package="p" content-desc="a > b" bounds="[0,0][100,100]">';
  return `<?xml version='1.0' ?><hierarchy rotation="0">${open.repeat(depth)}${"</node>".repeat(depth)}</hierarchy>`;
}

test("dumps nested 100 to 2000 levels deep are read whole (Compose and WebView trees reach 100)", () => {
  for (const depth of [100, 150, MAX_DUMP_DEPTH]) {
    const tree = parseDump(nested(depth));
    assert.equal(tree.nodes.length, depth);
    assert.equal(tree.nodes[depth - 1]!.depth, depth - 1);
  }
});

test("a dump nested deeper than 2000 levels is refused with its own reason, not 'try again'", () => {
  for (const depth of [MAX_DUMP_DEPTH + 1, 20000]) {
    assert.throws(() => parseDump(nested(depth)), (error: unknown) => {
      assert.ok(error instanceof HarnessError);
      assert.equal(error.code, "UI_TREE_UNAVAILABLE");
      assert.match(String(error.details?.["reason"]), new RegExp(`nested deeper than ${MAX_DUMP_DEPTH} levels \\(${depth}\\)`));
      assert.match(error.message, /a new dump of the same screen will be refused too/);
      assert.doesNotMatch(error.message, /try again/);
      return true;
    });
  }
});
