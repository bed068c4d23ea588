/**
 * The rules behind the reachability law (SPEC §5), each on the smallest screen that shows it: nameless
 * targets are offered (by role, within, index) and named by the label beside or above them; several
 * checkables in one container are separate toggles; long-clickable elements are targets; the state an
 * agent needs (checked, selected, focused) is said; fields at their defaults are left out.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { locate, parseDump, summarize } from "../../src/screen/mod.ts";
import { button, dump, input, label, type N, SCREEN } from "./dump_builder.ts";

function summaryOf(children: N[]) {
  return summarize(parseDump(dump(children)), SCREEN);
}

test("a nameless focused input beside its label: offered by role, named 'To', focused", () => {
  const s = summaryOf([
    {
      cls: "android.widget.LinearLayout",
      bounds: [0, 400, 1080, 550],
      children: [
        { cls: "android.widget.TextView", text: "To", click: true, id: "com.google.android.gm:id/to_prefix", bounds: [0, 418, 85, 550] },
        {
          cls: "android.view.ViewGroup",
          click: true,
          id: "com.google.android.gm:id/chips",
          bounds: [118, 418, 948, 550],
          children: [input([118, 418, 948, 550], { focused: true })],
        },
      ],
    },
    input([44, 570, 1036, 708], { id: "com.google.android.gm:id/subject", hint: "Subject" }),
  ]);
  assert.deepEqual(s.actions, [
    { selector: { resource_id: "to_prefix" }, label: "To", bounds: [0, 418, 85, 132] },
    {
      selector: { role: "input", within: { resource_id: "chips" } },
      label: "To",
      role: "input",
      focused: true,
      bounds: [118, 418, 830, 132],
    },
    { selector: { resource_id: "subject" }, label: "Subject", role: "input", bounds: [44, 570, 992, 138] },
  ], "the chip group, a nameless wrapper of the input, is the one target not offered");
});

test("the only input, with no key at all, is offered as {role: input}, named by the title above it", () => {
  const s = summaryOf([
    label("Fractal Catalog", [45, 200, 600, 280]),
    input([45, 320, 1035, 446]),
    button("Explore", [0, 2100, 540, 2300]),
  ]);
  assert.deepEqual(s.actions[0], { selector: { role: "input" }, label: "Fractal Catalog", role: "input", bounds: [45, 320, 990, 126] });
});

test("radios inside one clickable container are separate toggles; the one that is on says checked", () => {
  const tree = parseDump(dump([
    {
      cls: "android.widget.LinearLayout",
      click: true,
      id: "com.android.permissioncontroller:id/grant_dialog",
      bounds: [28, 432, 1052, 1968],
      children: [
        label("Allow access to this device's location?", [133, 653, 947, 906]),
        {
          cls: "android.widget.RadioGroup",
          bounds: [70, 969, 1010, 1382],
          children: [
            { cls: "android.widget.RadioButton", text: "Precise", check: true, checked: true, click: true, bounds: [157, 969, 498, 1382] },
            { cls: "android.widget.RadioButton", text: "Approximate", check: true, click: true, bounds: [582, 969, 923, 1382] },
          ],
        },
        button("Don't allow", [133, 1752, 947, 1857]),
      ],
    },
  ]));
  const s = summarize(tree, SCREEN);
  assert.deepEqual(s.actions.map((a) => [a.selector, a.role, a.checked]), [
    [{ resource_id: "grant_dialog" }, undefined, undefined],
    [{ text: "Precise" }, "toggle", true],
    [{ text: "Approximate" }, "toggle", undefined],
    [{ text: "Don't allow" }, undefined, undefined],
  ]);
  assert.deepEqual(
    [0, 1].map((index) => locate(tree, { role: "toggle", index }).node.text),
    ["Precise", "Approximate"],
    "each radio is a target of its own",
  );
});

test("a switch row says checked: true when on and nothing when off, so a tap's effect shows without a screenshot", () => {
  const row = (on: boolean): N => ({
    cls: "android.widget.LinearLayout",
    click: true,
    bounds: [0, 400, 1080, 560],
    children: [label("Airplane mode", [40, 420, 800, 500]), {
      cls: "android.widget.Switch",
      check: true,
      checked: on,
      bounds: [900, 440, 1000, 540],
    }],
  });
  assert.deepEqual(summaryOf([row(true)]).actions, [{
    selector: { text: "Airplane mode" },
    role: "toggle",
    checked: true,
    bounds: [0, 400, 1080, 160],
  }]);
  assert.deepEqual(summaryOf([row(false)]).actions, [{ selector: { text: "Airplane mode" }, role: "toggle", bounds: [0, 400, 1080, 160] }]);
});

test("a selected tab says selected: true; the others leave it out", () => {
  const s = summaryOf([
    { cls: "android.view.View", click: true, desc: "Explorer\nTab 1 of 2", selected: true, bounds: [0, 2200, 540, 2400] },
    { cls: "android.view.View", click: true, desc: "Terminal\nTab 2 of 2", bounds: [540, 2200, 1080, 2400] },
  ]);
  assert.deepEqual(s.actions.map((a) => a.selected), [true, undefined]);
  const marquee = summaryOf([{
    cls: "android.widget.TextView",
    text: "13 (TP1A.220624.014)",
    click: true,
    selected: true,
    bounds: [16, 381, 160, 422],
  }]);
  assert.equal(marquee.actions[0]!.selected, undefined, "a text view scrolling as a marquee reports selected: not a tab");
});

test("nameless icon buttons are offered by role and index, named by the title beside them, never by another button's name", () => {
  const s = summaryOf([
    {
      cls: "android.view.View",
      bounds: [0, 0, 1080, 233],
      children: [
        { cls: "android.widget.Button", click: true, bounds: [0, 75, 158, 233] },
        label("Termux IDE", [203, 127, 434, 180]),
        { cls: "android.widget.Button", click: true, bounds: [675, 86, 810, 221] },
        { cls: "android.widget.Button", click: true, desc: "Save", bounds: [810, 86, 945, 221] },
      ],
    },
  ]);
  assert.deepEqual(s.actions.map((a) => [a.selector, a.label]), [
    [{ role: "button", index: 0 }, "Termux IDE"],
    [{ role: "button", index: 1 }, "Termux IDE"],
    [{ content_desc: "Save" }, undefined],
  ]);
});

test("identical cards: each card's buttons are reachable by their index among the same name", () => {
  const card = (top: number): N => ({
    cls: "android.widget.LinearLayout",
    id: "com.example.app:id/reminder_card",
    bounds: [0, top, 1080, top + 300],
    children: [
      label("Stretch", [0, top, 500, top + 100]),
      button("Mark Done", [0, top + 150, 500, top + 280]),
      button("Snooze", [540, top + 150, 1080, top + 280]),
    ],
  });
  const tree = parseDump(dump([card(100), card(500), card(900)]));
  const s = summarize(tree, SCREEN);
  assert.deepEqual(
    s.actions.map((a) => a.selector),
    [0, 1, 2].flatMap((index) => [{ text: "Mark Done", index }, { text: "Snooze", index }]),
  );
  assert.equal(locate(tree, { text: "Snooze", index: 2 }).bounds.top, 1050);
});

test("a long-clickable element (a chat message) is a target that says it takes a long press; a plain text is not", () => {
  const s = summaryOf([
    {
      cls: "android.view.ViewGroup",
      longClick: true,
      bounds: [0, 200, 1080, 400],
      children: [label("See you at 8", [400, 220, 1000, 300])],
    },
    label("Today", [400, 100, 700, 180]),
  ]);
  assert.deepEqual(s.actions, [{ selector: { text: "See you at 8" }, long_press: true, bounds: [0, 200, 1080, 200] }], "it says so");
  assert.deepEqual(s.texts, ["Today"]);
});

test("a nameless segment of a segmented control is not named after its neighbour's word", () => {
  const segment = (left: number, word: string | null, on = false): N => ({
    cls: "android.view.View",
    click: true,
    check: true,
    checked: on,
    bounds: [left, 500, left + 160, 600],
    children: word === null ? [] : [label(word, [left + 40, 520, left + 120, 580])],
  });
  const s = summaryOf([label("Wipers", [0, 400, 150, 460]), segment(0, "OFF", true), segment(170, null), segment(340, "AUTO")]);
  assert.deepEqual(s.actions.map((a) => [a.selector, a.label, a.checked]), [
    [{ text: "OFF" }, undefined, true],
    [{ role: "toggle", index: 1 }, undefined, undefined],
    [{ text: "AUTO" }, undefined, undefined],
  ]);
});

test("fields at their defaults are left out: no keyboard when closed, no issues when none, no can_scroll when nothing scrolls", () => {
  const s = summaryOf([button("Save", [40, 300, 400, 420])]);
  assert.equal(
    JSON.stringify(s),
    `{"foreground_package":"com.example.app","texts":[],"actions":[{"selector":{"text":"Save"},"bounds":[40,300,360,120]}]}`,
  );
});
