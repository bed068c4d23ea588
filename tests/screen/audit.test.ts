import assert from "node:assert/strict";
import { test } from "node:test";
import { parseDump, summarize } from "../../src/screen/mod.ts";
import type { ScreenContext } from "../../src/screen/types.ts";
import { button, dump, type N, SCREEN } from "./dump_builder.ts";

function summaryOf(children: N[], context: Partial<ScreenContext> = {}) {
  return summarize(parseDump(dump(children)), { ...SCREEN, ...context });
}

test("issues: zero area and off screen are reported with the element's selector", () => {
  const s = summaryOf([button("Flat", [0, 300, 500, 300]), button("Far", [2000, 100, 2300, 300])]);
  assert.deepEqual(s.issues, [
    { issue: "zero_area", selector: { text: "Flat" } },
    { issue: "off_screen", selector: { text: "Far" } },
  ]);
});

test("issues: smaller than 48 dp on both axes at the given density (126 px at 420 dpi)", () => {
  const children: N[] = [
    {
      cls: "android.widget.LinearLayout",
      bounds: [100, 500, 1000, 700],
      children: [{ cls: "android.widget.ImageButton", click: true, desc: "Tiny", bounds: [200, 550, 240, 590] }],
    },
    {
      cls: "android.widget.LinearLayout",
      bounds: [100, 800, 1000, 1000],
      children: [{ cls: "android.widget.ImageButton", click: true, desc: "Fine", bounds: [200, 820, 330, 950] }],
    },
    { cls: "android.widget.LinearLayout", bounds: [100, 1100, 1000, 1300], children: [button("Wide", [200, 1150, 900, 1200])] },
  ];
  assert.deepEqual(summaryOf(children).issues, [{
    issue: "touch_target_too_small",
    selector: { content_desc: "Tiny" },
    size_px: [40, 40],
    minimum_px: 126,
  }]);
  assert.deepEqual(summaryOf(children, { density: 160 }).issues, [{
    issue: "touch_target_too_small",
    selector: { content_desc: "Tiny" },
    size_px: [40, 40],
    minimum_px: 48,
  }]);
});

test("issues: the minimum follows the density; unknown density audits no sizes", () => {
  const children: N[] = [{
    cls: "android.widget.LinearLayout",
    bounds: [100, 500, 1000, 700],
    children: [{ cls: "android.widget.ImageButton", click: true, desc: "Icon", bounds: [200, 550, 300, 650] }],
  }];
  assert.deepEqual(summaryOf(children).issues, [{
    issue: "touch_target_too_small",
    selector: { content_desc: "Icon" },
    size_px: [100, 100],
    minimum_px: 126,
  }]);
  assert.equal(summaryOf(children, { density: 160 }).issues, undefined, "100 px ≥ 48 px at 160 dpi: no issues, so the field is left out");
  const { density: _unused, ...withoutDensity } = SCREEN;
  assert.equal(summarize(parseDump(dump(children)), withoutDensity).issues, undefined);
});

test("issues: a wide row or an icon cut by its scroll container or by one edge of its parent is not reported", () => {
  const s = summaryOf([
    {
      cls: "androidx.recyclerview.widget.RecyclerView",
      scroll: true,
      bounds: [0, 200, 1080, 1000],
      children: [button("Row", [0, 200, 1080, 230]), {
        cls: "android.widget.ImageButton",
        click: true,
        desc: "Cut icon",
        bounds: [500, 960, 560, 1000],
      }],
    },
    {
      cls: "android.widget.FrameLayout",
      bounds: [0, 1200, 1080, 1300],
      children: [{ cls: "android.widget.ImageButton", click: true, desc: "Sliver", bounds: [20, 1290, 140, 1300] }],
    },
  ]);
  assert.equal(s.issues, undefined);
});

test("issues: a zero-area node scrolled out of its scroll container is not reported", () => {
  const s = summaryOf([{
    cls: "android.webkit.WebView",
    scroll: true,
    bounds: [0, 100, 1080, 2000],
    children: [button("Copy message", [492, 100, 555, 100])],
  }]);
  assert.equal(s.issues, undefined);
});

test("issues: an unknown screen size (0) reports nothing off screen to the right or below", () => {
  const s = summaryOf([button("Far", [2000, 3000, 2300, 3300])], { width: 0, height: 0 });
  assert.equal(s.issues, undefined);
});
