import assert from "node:assert/strict";
import { test } from "node:test";
import { renderSummaryText } from "../../src/screen/mod.ts";
import type { ScreenSummary } from "../../src/screen/types.ts";

test("the text form: header, texts, one line per action carrying its selector and flags, then issues", () => {
  const summary: ScreenSummary = {
    foreground_package: "com.android.settings",
    texts: ["All apps", "Line one\nline two"],
    actions: [
      { selector: { text: "Calendar" }, bounds: [0, 525, 1080, 199] },
      { selector: { resource_id: "search" }, label: "Search", role: "input", bounds: [0, 100, 900, 120] },
      { selector: { text: "Clock", index: 1 }, enabled: false, bounds: [0, 800, 1080, 199] },
      { selector: { role: "toggle", index: 0 }, label: "Wi-Fi", role: "toggle", checked: true, bounds: [0, 1000, 1080, 199] },
      { selector: { role: "input" }, label: "To", role: "input", focused: true, bounds: [0, 1200, 1080, 100] },
      { selector: { content_desc: "Chats" }, selected: true, bounds: [0, 1300, 360, 100] },
      { selector: { content_desc: "Historial\nTab 2 of 3" }, covered_by_keyboard: true, bounds: [0, 2200, 360, 200] },
      { selector: { text: "Save", within: { content_desc: "Personal profile" } }, bounds: [10, 20, 30, 40] },
      { selector: { text: "Low row" }, covered_by: "Size", bounds: [0, 1800, 1080, 200] },
      { selector: { text: "Rain jacket" }, label: "Rain jacket photo", long_press: true, bounds: [0, 2000, 1080, 280] },
    ],
    can_scroll: true,
    keyboard: { open: true, top: 1517 },
    issues: [{ issue: "touch_target_too_small", selector: { text: "Save" }, size_px: [40, 40], minimum_px: 126 }],
  };
  assert.equal(
    renderSummaryText(summary),
    [
      "screen com.android.settings · scrollable · keyboard open from y=1517",
      `texts: "All apps" · "Line one\\nline two"`,
      "actions (10):",
      `  button {"text":"Calendar"} @0,525 1080x199`,
      `  input  {"resource_id":"search"} "Search" @0,100 900x120`,
      `  button {"text":"Clock","index":1} [disabled] @0,800 1080x199`,
      `  toggle {"role":"toggle","index":0} "Wi-Fi" [checked] @0,1000 1080x199`,
      `  input  {"role":"input"} "To" [focused] @0,1200 1080x100`,
      `  button {"content_desc":"Chats"} [selected] @0,1300 360x100`,
      `  button {"content_desc":"Historial\\nTab 2 of 3"} [under-keyboard] @0,2200 360x200`,
      `  button {"text":"Save","within":{"content_desc":"Personal profile"}} @10,20 30x40`,
      `  button {"text":"Low row"} [under "Size"] @0,1800 1080x200`,
      `  button {"text":"Rain jacket"} "Rain jacket photo" [long-press] @0,2000 1080x280`,
      "issues (1):",
      `  touch_target_too_small {"text":"Save"} 40x40px < 126px`,
      "",
    ].join("\n"),
  );
});

test("an empty screen still says what it is; absent can_scroll, keyboard and issues read as their defaults", () => {
  const text = renderSummaryText({ foreground_package: "", texts: [], actions: [] });
  assert.equal(text, "screen (unknown package) · not scrollable · keyboard closed\nactions (0):\n");
});

test("listed scroll areas get one line each: axis, the selector for ui_scroll.container, the label when there is one", () => {
  const text = renderSummaryText({
    foreground_package: "com.example.shop",
    texts: [],
    actions: [{ selector: { text: "Size S" }, bounds: [0, 1300, 1080, 200] }],
    can_scroll: true,
    scroll_areas: [
      { selector: { resource_id: "page" } },
      { selector: { resource_id: "chips" }, axis: "horizontal", label: "Filters" },
    ],
  });
  assert.equal(
    text,
    [
      "screen com.example.shop · scrollable · keyboard closed",
      "actions (1):",
      `  button {"text":"Size S"} @0,1300 1080x200`,
      "scroll areas (2):",
      `  vertical   {"resource_id":"page"}`,
      `  horizontal {"resource_id":"chips"} "Filters"`,
      "",
    ].join("\n"),
  );
});

test("without bounds (a tool's text block): the same lines without rectangles; a password field says so and its length", () => {
  const text = renderSummaryText({
    foreground_package: "com.example.shop",
    texts: [],
    actions: [
      {
        selector: { resource_id: "password" },
        role: "input",
        label: "Password",
        password: true,
        text_length: 8,
        bounds: [0, 900, 1080, 140],
      },
      { selector: { text: "Sign in" }, bounds: [0, 1100, 1080, 140] },
    ],
  }, { bounds: false });
  assert.equal(
    text,
    [
      "screen com.example.shop · not scrollable · keyboard closed",
      "actions (2):",
      `  input  {"resource_id":"password"} "Password" [password 8 chars]`,
      `  button {"text":"Sign in"}`,
      "",
    ].join("\n"),
  );
});
