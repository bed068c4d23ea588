import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { HarnessError } from "../../src/errors.ts";
import { findElement, locate, parseDump, summarize } from "../../src/screen/mod.ts";
import type { Selector } from "../../src/screen/types.ts";
import { button, dump, input, label, type N, SCREEN } from "./dump_builder.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";

/** Gmail's compose form: a "To" label beside a nameless recipient field, a Subject field, and a body. */
const form = parseDump(dump([
  {
    cls: "android.widget.LinearLayout",
    bounds: [0, 400, 1080, 550],
    children: [
      label("To", [0, 418, 85, 550]),
      {
        cls: "android.view.ViewGroup",
        click: true,
        id: "com.google.android.gm:id/chips",
        bounds: [118, 418, 948, 550],
        children: [input([118, 418, 948, 550], { focused: true })],
      },
    ],
  },
  input([44, 570, 1036, 708], { hint: "Subject" }),
  button("Send", [900, 100, 1060, 200]),
]));

const card = (name: string, top: number): N => ({
  cls: "android.widget.LinearLayout",
  desc: name,
  bounds: [0, top, 1080, top + 300],
  children: [label(name, [0, top, 500, top + 100]), button("Save", [0, top + 150, 300, top + 280])],
});

const tree = parseDump(dump([
  button("Calendar", [0, 100, 1080, 300], { id: "com.example.app:id/calendar" }),
  button("Calendar settings", [0, 300, 1080, 500]),
  input([0, 500, 1080, 650], { hint: "Search…", id: "com.example.app:id/search" }),
  { cls: "android.view.View", click: true, desc: "Historial\nTab 2 of 3", bounds: [0, 2200, 360, 2400] },
  {
    cls: "android.widget.LinearLayout",
    click: true,
    bounds: [0, 700, 1080, 900],
    children: [label("Android Auto", [40, 740, 800, 800]), label("Connected", [40, 810, 800, 860])],
  },
  card("Personal profile", 1000),
  card("Work profile", 1400),
  button("Hidden", [0, 1800, 300, 1900], { visible: false }),
]));

function expectError(selector: Selector, code: string, on = tree): HarnessError {
  let caught: unknown;
  try {
    locate(on, selector);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof HarnessError, `expected ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code);
  return caught;
}

test("an exact match wins over partial ones", () => {
  const found = locate(tree, { text_contains: "Calendar" });
  assert.equal(found.node.text, "Calendar");
  assert.equal(found.partial, false);
  assert.equal(locate(tree, { text: "Calendar" }).node.text, "Calendar");
});

test("text_contains matches part of a text when nothing matches exactly, case-insensitively", () => {
  const found = locate(tree, { text_contains: "calendar SETT" });
  assert.equal(found.node.text, "Calendar settings");
  assert.equal(found.partial, true);
});

test("a text inside a clickable row names the row; the row's bounds and label come back", () => {
  const found = locate(tree, { text: "Connected" });
  assert.equal(found.node.className, "android.widget.LinearLayout");
  assert.equal(found.label, "Android Auto");
  assert.equal(found.role, "button");
  assert.deepEqual(found.bounds, { left: 0, top: 700, width: 1080, height: 200 });
});

test("resource_id matches the full id, or the part after ':id/' when nothing matches exactly", () => {
  assert.equal(locate(tree, { resource_id: "com.example.app:id/search" }).role, "input");
  assert.equal(locate(tree, { resource_id: "search" }).role, "input");
});

test("input_hint names an input by its hint", () => {
  assert.equal(locate(tree, { input_hint: "Search…" }).node.resourceId, "com.example.app:id/search");
});

test("a Flutter content-desc matches in full, or by one of its lines", () => {
  assert.equal(locate(tree, { content_desc: "Historial\nTab 2 of 3" }).label, "Historial");
  assert.equal(locate(tree, { content_desc: "Historial" }).label, "Historial");
});

test("within keeps only matches inside the named ancestor", () => {
  const found = locate(tree, { text: "Save", within: { content_desc: "Work profile" } });
  assert.deepEqual(found.bounds, { left: 0, top: 1550, width: 300, height: 130 });
});

test("hidden elements never match", () => {
  assert.equal(findElement(tree, { text: "Hidden" }).status, "not_found");
});

test("nothing matches: UI_ELEMENT_NOT_FOUND lists what the screen offers, each by the summary's selector", () => {
  const error = expectError({ input_hint: "Email" }, "UI_ELEMENT_NOT_FOUND");
  assert.match(error.message, /^No visible element matched \{"input_hint":"Email"\}\./);
  assert.match(
    error.message,
    /The screen offers: 'Calendar' \(button\) \{"resource_id":"calendar"\}, 'Calendar settings' \(button\) \{"text":"Calendar settings"\}, 'Search…' \(input\) \{"resource_id":"search"\}, 'Historial' \(button\) \{"content_desc":"Historial\\nTab 2 of 3"\}, 'Android Auto' \(button\) \{"text":"Android Auto"\}, 'Save' \(button\) \{"text":"Save","within":\{"content_desc":"Personal profile"\}\}/,
  );
  const offered = error.details?.["offered"] as { label: string; role: string; selector: unknown }[];
  assert.deepEqual(offered[2], { label: "Search…", role: "input", selector: { resource_id: "search" } });
  assert.deepEqual(
    offered[0],
    { label: "Calendar", role: "button", selector: { resource_id: "calendar" } },
    "its id, as the summary offers",
  );
  assert.deepEqual(offered.map((o) => o.selector), summarize(tree, SCREEN).actions.map((a) => a.selector), "one rendering: the summary's");
});

test("UI_ELEMENT_NOT_FOUND gives every offered element its selector, also one its label does not name as a text", () => {
  // A product row named by its title but labelled by its photo, a Flutter field typed into, a tab by content-desc.
  const screen = parseDump(dump([
    {
      cls: "android.widget.LinearLayout",
      click: true,
      bounds: [0, 300, 1080, 600],
      children: [
        { cls: "android.widget.ImageView", desc: "Canvas sneakers photo", bounds: [40, 330, 260, 560] },
        label("Canvas sneakers", [300, 360, 1000, 440]),
      ],
    },
    input([0, 700, 1080, 850], { text: "Cine", hint: "Buscar movimientos" }),
    button("Save", [0, 900, 300, 1000]),
  ]));
  const error = expectError({ text: "Buscar movimientos" }, "UI_ELEMENT_NOT_FOUND", screen);
  assert.equal(
    error.message,
    'No visible element matched {"text":"Buscar movimientos"}. {"input_hint":"Buscar movimientos"} names one. The screen offers: ' +
      `'Canvas sneakers photo' (button) {"text":"Canvas sneakers"}, 'Buscar movimientos' (input) {"input_hint":"Buscar movimientos"}, ` +
      `'Save' (button) {"text":"Save"}.`,
  );
  assert.deepEqual(error.details?.["offered"], [
    { label: "Canvas sneakers photo", role: "button", selector: { text: "Canvas sneakers" } },
    { label: "Buscar movimientos", role: "input", selector: { input_hint: "Buscar movimientos" } },
    { label: "Save", role: "button", selector: { text: "Save" } },
  ]);
});

test("the waited time appears in the message when the poller passes it", () => {
  assert.throws(() => locate(tree, { text: "Nope" }, { waitedMs: 5000 }), /matched \{"text":"Nope"\} within 5000 ms/);
});

test("several distinct matches: UI_ELEMENT_AMBIGUOUS with numbered candidates, each with the full selector that names it alone", () => {
  const error = expectError({ text: "Save" }, "UI_ELEMENT_AMBIGUOUS");
  assert.match(
    error.message,
    /matched 2 distinct elements: 1\) 'Save' \(button\) at 0,1150 → \{"text":"Save","within":\{"content_desc":"Personal profile"\}\}; 2\) 'Save' \(button\) at 0,1550 → \{"text":"Save","within":\{"content_desc":"Work profile"\}\}\. Repeat the call with the selector of the one you mean\./,
  );
  const candidates = error.details?.["candidates"] as { selector: Selector; within?: unknown }[];
  assert.deepEqual(candidates.map((c) => c.selector), [
    { text: "Save", within: { content_desc: "Personal profile" } },
    { text: "Save", within: { content_desc: "Work profile" } },
  ]);
  assert.deepEqual(candidates.map((c) => c.within), [{ content_desc: "Personal profile" }, { content_desc: "Work profile" }]);
});

test("400 identical rows: UI_ELEMENT_AMBIGUOUS lists 25 and says how many more and the next selector; the index goes on naming each", () => {
  const rows = parseDump(dump(Array.from({ length: 400 }, (_, i) => button("Delete", [0, i * 6, 1080, i * 6 + 5]))));
  let error: HarnessError | undefined;
  try {
    locate(rows, { text: "Delete" });
  } catch (e) {
    error = e as HarnessError;
  }
  assert.equal(error?.code, "UI_ELEMENT_AMBIGUOUS");
  assert.match(error!.message, /matched 400 distinct elements: 1\) 'Delete' \(button\) at 0,0 → \{"text":"Delete","index":0\}; /);
  assert.match(error!.message, /; and 375 more, in screen order \(\{"text":"Delete","index":25\} is the next\)\. Repeat the call/);
  assert.ok(error!.message.length < 3000, `${error!.message.length} characters`);
  assert.equal((error!.details?.["candidates"] as unknown[]).length, 25);
  assert.equal(error!.details?.["matched"], 400);
  assert.ok(JSON.stringify(error!.details).length < 6000, `${JSON.stringify(error!.details).length} characters of details`);
  assert.equal(locate(rows, { text: "Delete", index: 399 }).bounds.top, 399 * 6, "past the listed ones the index still names one");
});

test("findElement returns data a poller can act on, without throwing", () => {
  assert.equal(findElement(tree, { text: "Calendar" }).status, "found");
  assert.equal(findElement(tree, { text: "Save" }).status, "ambiguous");
  const none = findElement(tree, { text: "Later" });
  assert.equal(none.status, "not_found");
});

test("two matches inside one element count once", () => {
  const t = parseDump(
    dump([{
      cls: "android.widget.LinearLayout",
      click: true,
      bounds: [0, 0, 1080, 200],
      children: [label("Wi-Fi", [0, 0, 500, 100]), label("Wi-Fi", [0, 100, 500, 200])],
    }]),
  );
  assert.equal(locate(t, { text: "Wi-Fi" }).bounds.height, 200);
});

test("within naming a text inside a clickable row admits what lies inside that row", () => {
  const t = parseDump(dump([
    {
      cls: "android.widget.FrameLayout",
      click: true,
      bounds: [0, 0, 1080, 300],
      children: [label("Alarm", [0, 0, 500, 100]), button("Expand", [900, 0, 1080, 150])],
    },
    {
      cls: "android.widget.FrameLayout",
      click: true,
      bounds: [0, 300, 1080, 600],
      children: [label("Update", [0, 300, 500, 400]), button("Expand", [900, 300, 1080, 450])],
    },
  ]));
  assert.equal(locate(t, { text: "Expand", within: { text: "Update" } }).bounds.top, 300);
  assert.equal(findElement(t, { text: "Expand" }).status, "ambiguous");
});

test("ambiguous with no within to separate them: the candidates carry their index; an empty screen offers nothing", () => {
  const twins = parseDump(dump([button("OK", [0, 0, 500, 200]), button("OK", [0, 300, 500, 500])]));
  assert.throws(
    () => locate(twins, { text: "OK" }),
    /matched 2 distinct elements: 1\) 'OK' \(button\) at 0,0 → \{"text":"OK","index":0\}; 2\) 'OK' \(button\) at 0,300 → \{"text":"OK","index":1\}\./,
  );
  assert.equal(locate(twins, { text: "OK", index: 1 }).bounds.top, 300);
  const empty = parseDump(dump([label("Loading", [0, 0, 500, 100])]));
  assert.throws(() => locate(empty, { text: "OK" }), /No visible element matched \{"text":"OK"\}\. The screen offers no named actions\./);
});

test("a plain text can be located; it has no role", () => {
  const t = parseDump(dump([label("Welcome back", [0, 0, 500, 100])]));
  const found = locate(t, { text_contains: "welcome" });
  assert.equal(found.role, null);
  assert.equal(found.label, "Welcome back");
});

test("role is a key like the others: it names the only element of that role", () => {
  const single = parseDump(dump([button("Send", [0, 0, 300, 150]), input([0, 200, 1080, 350], { hint: "Message" })]));
  assert.equal(locate(single, { role: "input" }).node.hint, "Message");
  assert.equal(locate(single, { role: "button" }).label, "Send");
  assert.equal(findElement(single, { role: "toggle" }).status, "not_found");
});

test("an agent's {role: input} on a screen with two inputs: UI_ELEMENT_AMBIGUOUS whose candidates carry the selector naming each alone", () => {
  const error = expectError({ role: "input" }, "UI_ELEMENT_AMBIGUOUS", form);
  const candidates = error.details?.["candidates"] as { selector: Selector; label: string }[];
  assert.deepEqual(candidates.map((c) => [c.selector, c.label]), [
    [{ role: "input", within: { resource_id: "com.google.android.gm:id/chips" } }, "To"],
    [{ role: "input", index: 1 }, "Subject"],
  ]);
  assert.match(
    error.message,
    /1\) 'To' \(input\) at 118,418 → \{"role":"input","within":\{"resource_id":"com\.google\.android\.gm:id\/chips"\}\}; 2\) 'Subject' \(input\) at 44,570 → \{"role":"input","index":1\}/,
  );
  for (const candidate of candidates) {
    const found = findElement(form, candidate.selector);
    assert.equal(
      found.status === "found" && found.element.label,
      candidate.label,
      `${JSON.stringify(candidate.selector)} names its candidate alone`,
    );
  }
});

test("an agent's within that still names several: the candidates keep it and add their index", () => {
  const cards = parseDump(dump([
    {
      cls: "android.widget.LinearLayout",
      id: "com.example.app:id/card",
      bounds: [0, 0, 1080, 400],
      children: [button("Snooze", [0, 0, 300, 100]), button("Snooze", [0, 200, 300, 300])],
    },
  ]));
  const error = expectError({ text: "Snooze", within: { resource_id: "card" } }, "UI_ELEMENT_AMBIGUOUS", cards);
  const candidates = error.details?.["candidates"] as { selector: Selector }[];
  assert.deepEqual(candidates.map((c) => c.selector), [
    { text: "Snooze", within: { resource_id: "card" }, index: 0 },
    { text: "Snooze", within: { resource_id: "card" }, index: 1 },
  ]);
  assert.equal(locate(cards, candidates[1]!.selector).bounds.top, 200);
});

test("index picks one element, in reading order, among those the rest of the selector names", () => {
  assert.equal(locate(form, { role: "input", index: 0 }).label, "To", "a nameless input is named by the label beside it");
  assert.equal(locate(form, { role: "input", index: 1 }).node.hint, "Subject");
  assert.equal(locate(tree, { text: "Save", index: 1 }).bounds.top, 1550);
  assert.equal(locate(tree, { text: "Save", within: { content_desc: "Work profile" }, index: 0 }).bounds.top, 1550);
  assert.equal(locate(tree, { role: "input", index: 0 }).node.hint, "Search…");
});

test("an index past the last match: UI_ELEMENT_NOT_FOUND saying how many the rest names", () => {
  const error = expectError({ text: "Save", index: 2 }, "UI_ELEMENT_NOT_FOUND");
  assert.equal(
    error.message,
    `{"text":"Save"} names 2 elements, so index 2 is past the last (0 to 1). Take the selector from a fresh ui_get_tree.`,
  );
  assert.equal(error.details?.["matched"], 2);
  assert.equal(expectError({ text: "Nope", index: 0 }, "UI_ELEMENT_NOT_FOUND").message.startsWith("No visible element matched"), true);
});

test("role counts only what the summary lists: a nameless wrapper of buttons and plain texts are not buttons", () => {
  const t = parseDump(dump([
    {
      cls: "android.view.ViewGroup",
      click: true,
      bounds: [0, 0, 1080, 200],
      children: [
        { cls: "android.widget.ImageButton", click: true, desc: "Back", bounds: [0, 0, 150, 200] },
        { cls: "android.widget.ImageButton", click: true, desc: "Menu", bounds: [930, 0, 1080, 200] },
      ],
    },
    label("Inbox", [0, 300, 500, 400]),
  ]));
  assert.deepEqual([0, 1].map((index) => locate(t, { role: "button", index }).label), ["Back", "Menu"]);
  assert.equal(findElement(t, { role: "button", index: 2 }).status, "not_found");
});

test("words as a model types them: straight quotes and three dots find Android's typographic ones (the partial tier)", {
  skip: corpusSkipReason(),
}, () => {
  // The real location permission dialog says "Don\u2019t allow" (U+2019); an agent writes "Don't allow".
  const dialog = parseDump(readFileSync(join(CORPUS_DIR, "permission-location-dialog-en.xml"), "utf8"));
  const deny = locate(dialog, { text: "Don't allow" });
  assert.equal(deny.node.resourceId, "com.android.permissioncontroller:id/permission_deny_button");
  assert.equal(deny.partial, true);
  assert.equal(locate(dialog, { text_contains: "don't" }).node.resourceId, deny.node.resourceId);
  const t = parseDump(dump([
    input([0, 0, 1080, 150], { hint: "Search\u2026", id: "com.example.app:id/search" }),
    button("\u201cQuoted\u201d title", [0, 200, 1080, 350]),
    button("Save", [0, 400, 1080, 550]),
  ]));
  assert.equal(locate(t, { input_hint: "Search..." }).node.resourceId, "com.example.app:id/search");
  assert.equal(locate(t, { text: '"Quoted" title' }).label, "\u201cQuoted\u201d title");
  assert.equal(locate(t, { text: "\u201cQuoted\u201d title" }).partial, false, "the exact tier still answers first");
  assert.equal(findElement(t, { text: "Save'" }).status, "not_found", "an apostrophe is not dropped, only folded");
});

test("a value found under another key: UI_ELEMENT_NOT_FOUND names the selector that finds it (a photo said by its content-desc)", () => {
  // The shop's product page: "Double-tap the photo to like it", the photo a plain ImageView known by its content-desc.
  const page = parseDump(dump([
    { cls: "android.widget.ImageView", id: "com.example.shop:id/product_image", desc: "Hiking boots photo", bounds: [0, 283, 1080, 1100] },
    label("Hiking boots", [63, 1140, 800, 1230]),
    button("Add to cart", [63, 1460, 1017, 1610], { id: "com.example.shop:id/add_to_cart" }),
  ]));
  const error = expectError({ text: "Hiking boots photo" }, "UI_ELEMENT_NOT_FOUND", page);
  assert.match(
    error.message,
    /^No visible element matched \{"text":"Hiking boots photo"\}\. \{"content_desc":"Hiking boots photo"\} names one\. /,
  );
  assert.deepEqual(error.details?.["found_as"], { content_desc: "Hiking boots photo" });
  assert.equal(locate(page, error.details?.["found_as"] as Selector).node.resourceId, "com.example.shop:id/product_image");
  // A value nothing holds, or one several elements hold under another key, gets no such hint.
  assert.equal(expectError({ text: "Nope" }, "UI_ELEMENT_NOT_FOUND", page).details?.["found_as"], undefined);
  const twice = parseDump(dump([button("", [0, 0, 100, 100], { desc: "Like" }), button("", [0, 200, 100, 300], { desc: "Like" })]));
  assert.equal(expectError({ text: "Like" }, "UI_ELEMENT_NOT_FOUND", twice).details?.["found_as"], undefined);
});

test("found_as never confirms a password field's text: its value under text is not matched, whatever key asked", () => {
  const login = parseDump(dump([input([0, 400, 1080, 550], { password: true, text: "hunter2", id: "com.example.app:id/pw" })]));
  for (const selector of [{ content_desc: "hunter2" }, { input_hint: "hunter2" }, { text: "hunter2" }] as Selector[]) {
    try {
      locate(login, selector);
      assert.fail(`${JSON.stringify(selector)} found the password field by its text`);
    } catch (error) {
      assert.ok(error instanceof HarnessError && error.code === "UI_ELEMENT_NOT_FOUND", String(error));
      assert.equal(error.details?.["found_as"], undefined, JSON.stringify(error.details));
      assert.doesNotMatch(error.message, /names one/);
    }
  }
});
