import assert from "node:assert/strict";
import { test } from "node:test";
import { keyboardInDump, parseDump, summarize } from "../../src/screen/mod.ts";
import type { ActionEntry, ScreenContext } from "../../src/screen/types.ts";
import { button, dump, input, label, type N, PKG, SCREEN, windowsDump } from "./dump_builder.ts";

function summaryOf(children: N[], context: Partial<ScreenContext> = {}) {
  return summarize(parseDump(dump(children)), { ...SCREEN, ...context });
}

function action(actions: ActionEntry[], value: string): ActionEntry {
  const found = actions.find((a) => Object.values(a.selector).includes(value));
  assert.ok(found, `no action with selector value ${JSON.stringify(value)} in ${JSON.stringify(actions)}`);
  return found;
}

test("roles: button, input (text fields), toggle (checkable)", () => {
  const s = summaryOf([
    button("Save", [0, 100, 500, 250]),
    input([0, 300, 1080, 450], { hint: "Search", id: "com.example.app:id/query" }),
    { cls: "android.widget.Switch", text: "Wi-Fi", click: true, check: true, bounds: [0, 500, 1080, 650] },
  ]);
  assert.deepEqual(s.actions.map((a) => a.role), [undefined, "input", "toggle"], "button is the default: role is left out");
});

test("a clickable container and the label inside it are one target, named by the label", () => {
  const s = summaryOf([
    { cls: "android.widget.LinearLayout", click: true, bounds: [0, 500, 1080, 700], children: [label("Calendar", [40, 540, 600, 600])] },
  ]);
  assert.equal(s.actions.length, 1);
  assert.deepEqual(s.actions[0]!.selector, { text: "Calendar" });
  assert.deepEqual(s.actions[0]!.bounds, [0, 500, 1080, 200], "the container is the target");
  assert.deepEqual(s.texts, [], "the label is said once, by the action");
});

test("a nested clickable icon with its container's name is the same target", () => {
  const s = summaryOf([
    {
      cls: "android.widget.FrameLayout",
      desc: "Share",
      click: true,
      bounds: [0, 0, 200, 200],
      children: [{ cls: "android.widget.ImageView", desc: "Share", click: true, bounds: [50, 50, 150, 150] }],
    },
  ]);
  assert.equal(s.actions.length, 1);
  assert.equal(s.actions[0]!.bounds[2], 200);
});

test("a React Native pressable without a label of its own is named from its descendants' text", () => {
  const s = summaryOf([
    {
      cls: "android.view.ViewGroup",
      click: true,
      bounds: [0, 800, 1080, 1000],
      children: [{
        cls: "android.view.ViewGroup",
        bounds: [0, 800, 1080, 1000],
        children: [
          label("\uE8B6", [0, 800, 100, 900]),
          label("Start workout", [120, 820, 800, 880]),
          label("30 min", [120, 900, 800, 960]),
        ],
      }],
    },
  ]);
  assert.equal(s.actions.length, 1);
  const pressable = s.actions[0]!;
  assert.deepEqual(pressable.selector, { text: "Start workout" }, "an icon-font glyph is not a name");
  assert.equal(pressable.label, undefined, "label equal to the selector value is not repeated");
  assert.deepEqual(s.texts, ["30 min"], "the other text stays readable");
});

test("a checkbox or switch row: the row is the target, a toggle, named by its text", () => {
  for (const clickableSwitch of [false, true]) {
    const s = summaryOf([
      {
        cls: "android.widget.LinearLayout",
        click: true,
        bounds: [0, 400, 1080, 560],
        children: [label("Show touches", [40, 420, 800, 500]), {
          cls: "android.widget.Switch",
          check: true,
          click: clickableSwitch,
          id: "android:id/switch_widget",
          bounds: [900, 440, 1000, 540],
        }],
      },
    ]);
    assert.equal(s.actions.length, 1, `clickable switch: ${clickableSwitch}`);
    assert.equal(s.actions[0]!.role, "toggle");
    assert.deepEqual(s.actions[0]!.selector, { text: "Show touches" });
    assert.equal(s.actions[0]!.bounds[2], 1080);
  }
});

test("a row with words keeps its one inner (non-checkable) button as a target of its own", () => {
  const s = summaryOf([
    {
      cls: "android.widget.LinearLayout",
      click: true,
      bounds: [0, 400, 1080, 560],
      children: [label("Print", [40, 420, 800, 500]), {
        cls: "android.widget.ImageButton",
        click: true,
        id: "com.example.app:id/options",
        bounds: [900, 440, 1000, 540],
      }],
    },
  ]);
  assert.deepEqual(s.actions.map((a) => a.selector), [{ text: "Print" }, { resource_id: "options" }]);
});

test("scrollable containers are not targets; can_scroll says scrolling is possible", () => {
  const list: N = {
    cls: "androidx.recyclerview.widget.RecyclerView",
    scroll: true,
    id: "com.example.app:id/list",
    bounds: [0, 200, 1080, 2200],
    children: [button("One", [0, 200, 1080, 400])],
  };
  const s = summaryOf([list]);
  assert.deepEqual(s.actions.map((a) => a.selector), [{ text: "One" }]);
  assert.equal(s.can_scroll, true);
  assert.equal("can_scroll" in summaryOf([button("One", [0, 200, 1080, 400])]), false, "false is the default: left out");
});

test("selector preference: resource_id, then text, then content_desc, then input_hint; short id when unique", () => {
  const s = summaryOf([
    button("Send", [0, 0, 300, 150], { id: "com.example.app:id/send", desc: "Send message" }),
    button("Next", [0, 200, 300, 350], { desc: "Go on" }),
    { cls: "android.widget.ImageButton", click: true, desc: "Back", bounds: [0, 400, 150, 550] },
    input([0, 600, 1080, 750], { hint: "Email" }),
  ]);
  assert.deepEqual(s.actions.map((a) => a.selector), [{ resource_id: "send" }, { text: "Next" }, { content_desc: "Back" }, {
    input_hint: "Email",
  }]);
  assert.equal(action(s.actions, "send").label, "Send");
});

test("an input is offered by its hint before its text: the text is what typing replaces, so that selector would stop naming it", () => {
  // A Flutter search field shows its hint as its text until one types (no resource id, no content-desc).
  const empty = summaryOf([input([0, 300, 1080, 450], { text: "Buscar movimientos", hint: "Buscar movimientos" })]);
  assert.deepEqual(empty.actions.map((a) => a.selector), [{ input_hint: "Buscar movimientos" }]);
  const typed = summaryOf([input([0, 300, 1080, 450], { text: "Cine", hint: "Buscar movimientos" })]);
  assert.deepEqual(typed.actions.map((a) => a.selector), [{ input_hint: "Buscar movimientos" }], "the same selector after typing");
  const noHint = summaryOf([input([0, 300, 1080, 450], { text: "Cine" })]);
  assert.deepEqual(noHint.actions.map((a) => a.selector), [{ text: "Cine" }], "without a hint, the text is still offered");
});

test("what an input holds stays in texts though another element says the same word (the field's selector is its hint)", () => {
  const s = summaryOf([
    input([0, 300, 1080, 450], { text: "Cine", hint: "Buscar movimientos" }),
    { cls: "android.view.View", click: true, desc: "Cine\n-18,00 €", bounds: [0, 500, 1080, 650] },
    { cls: "android.view.View", click: true, desc: "Taxi\n-15,30 €", bounds: [0, 700, 1080, 850] },
  ]);
  assert.deepEqual(s.actions[0]!.selector, { input_hint: "Buscar movimientos" });
  assert.deepEqual(s.texts, ["Cine"], "the typed word is said once, for the field; the rows' words stay with their selectors");
  const own = summaryOf([input([0, 300, 1080, 450], { text: "Cine" })]);
  assert.deepEqual(own.texts, [], "a field its own selector already names by its text is not repeated");
});

test("the full resource id is offered when the short one is not unique", () => {
  const s = summaryOf([
    button("A", [0, 0, 300, 150], { id: "com.example.app:id/go" }),
    button("A", [0, 200, 300, 350], { id: "com.other:id/go" }),
  ]);
  assert.deepEqual(s.actions.map((a) => a.selector), [{ resource_id: "com.example.app:id/go" }, { resource_id: "com.other:id/go" }]);
});

test("no unique key: a within naming a unique ancestor; none at all: the index among the twins", () => {
  const card = (name: string, top: number): N => ({
    cls: "android.widget.LinearLayout",
    desc: name,
    bounds: [0, top, 1080, top + 300],
    children: [label(name, [0, top, 500, top + 100]), button("Save", [0, top + 150, 300, top + 280])],
  });
  const s = summaryOf([
    card("Personal profile", 100),
    card("Work profile", 500),
    button("Clock", [0, 1000, 300, 1100]),
    button("Clock", [0, 1200, 300, 1300]),
  ]);
  const saves = s.actions.filter((a) => a.selector.text === "Save");
  assert.deepEqual(saves.map((a) => a.selector.within), [{ content_desc: "Personal profile" }, { content_desc: "Work profile" }]);
  const clocks = s.actions.filter((a) => a.selector.text === "Clock");
  assert.deepEqual(clocks.map((a) => a.selector), [{ text: "Clock", index: 0 }, { text: "Clock", index: 1 }]);
});

test("elements under the open keyboard are listed with covered_by_keyboard, never hidden; keyboard nodes are not targets", () => {
  const ime = "com.google.android.inputmethod.latin";
  const xml = windowsDump([
    {
      cls: "android.widget.FrameLayout",
      bounds: [0, 0, 1080, 2400],
      children: [
        input([0, 300, 1080, 450], { hint: "Message" }),
        {
          cls: "android.widget.LinearLayout",
          bounds: [0, 2200, 1080, 2400],
          children: [button("Home", [0, 2200, 540, 2400]), button("Profile", [540, 2200, 1080, 2400])],
        },
      ],
    },
    {
      cls: "android.widget.FrameLayout",
      pkg: ime,
      bounds: [0, 1500, 1080, 2400],
      children: [button("q", [0, 1500, 108, 1650], { pkg: ime })],
    },
  ]);
  const s = summarize(parseDump(xml), { ...SCREEN, keyboard: { open: true, top: 1500 } });
  assert.deepEqual(s.keyboard, { open: true, top: 1500 });
  assert.deepEqual(s.actions.map((a) => [Object.values(a.selector)[0], a.covered_by_keyboard ?? false]), [["Message", false], [
    "Home",
    true,
  ], ["Profile", true]]);
  assert.ok(!s.texts.includes("q"));
});

test("disabled targets say enabled: false; enabled ones leave it out", () => {
  const s = summaryOf([button("Pay", [0, 0, 500, 200], { enabled: false }), button("Cancel", [0, 300, 500, 500])]);
  assert.equal(action(s.actions, "Pay").enabled, false);
  assert.equal("enabled" in action(s.actions, "Cancel"), false);
});

test("a label is kept when it differs from the selector's first line, left out when it is that line", () => {
  const s = summaryOf([
    { cls: "android.view.View", click: true, desc: "Historial\nTab 2 of 3", bounds: [0, 2200, 360, 2400] },
    button("Go", [0, 0, 200, 200], { id: "com.example.app:id/go" }),
  ]);
  assert.equal(action(s.actions, "Historial\nTab 2 of 3").label, undefined);
  assert.equal(action(s.actions, "go").label, "Go");
});

test("texts: visible strings once each, in order, minus what actions already say", () => {
  const s = summaryOf([
    label("Settings", [0, 0, 500, 100]),
    label("Settings", [0, 100, 500, 200]),
    label("Battery", [0, 200, 500, 300]),
    {
      cls: "android.widget.LinearLayout",
      click: true,
      desc: "Wi-Fi, Connected",
      bounds: [0, 300, 1080, 500],
      children: [label("Wi-Fi", [0, 300, 500, 400]), label("Connected", [0, 400, 500, 500])],
    },
    { cls: "android.widget.ImageView", desc: "Logo", bounds: [0, 600, 100, 700] },
    label("   ", [0, 700, 100, 800]),
  ]);
  assert.deepEqual(s.texts, ["Settings", "Battery", "Logo"]);
});

test("foreground_package: from the context when given, else the package owning most nodes (not the status bar)", () => {
  const bar: N = {
    cls: "android.widget.FrameLayout",
    pkg: "com.android.systemui",
    bounds: [0, 0, 1080, 80],
    children: [
      label("12:30", [0, 0, 100, 80], { pkg: "com.android.systemui" }),
      label("100%", [900, 0, 1080, 80], { pkg: "com.android.systemui" }),
    ],
  };
  assert.equal(summaryOf([bar, label("Hello", [0, 100, 500, 200])]).foreground_package, PKG);
  assert.equal(summaryOf([bar], { foregroundPackage: "com.android.settings" }).foreground_package, "com.android.settings");
});

test("hidden and zero-area nodes are not actions", () => {
  const s = summaryOf([button("Ghost", [0, 0, 500, 200], { visible: false }), button("Flat", [0, 300, 500, 300])]);
  assert.deepEqual(s.actions, []);
});

test("a nameless clickable container of other targets is not offered; its targets are", () => {
  const s = summaryOf([
    {
      cls: "android.view.ViewGroup",
      id: "com.example.app:id/toolbar",
      click: true,
      bounds: [0, 0, 1080, 200],
      children: [{ cls: "android.widget.ImageButton", click: true, desc: "Back", bounds: [0, 0, 150, 200] }, {
        cls: "android.widget.ImageButton",
        click: true,
        desc: "Menu",
        bounds: [930, 0, 1080, 200],
      }],
    },
    { cls: "android.widget.ImageButton", id: "com.example.app:id/fab", click: true, bounds: [900, 2000, 1060, 2160] },
  ]);
  assert.deepEqual(s.actions.map((a) => a.selector), [{ content_desc: "Back" }, { content_desc: "Menu" }, { resource_id: "fab" }]);
});

test("a within may name an enclosing target by the text the summary names it with", () => {
  const row = (title: string, top: number): N => ({
    cls: "android.widget.FrameLayout",
    click: true,
    bounds: [0, top, 1080, top + 300],
    children: [label(title, [40, top + 20, 700, top + 100]), {
      cls: "android.widget.ImageButton",
      click: true,
      desc: "Expand",
      bounds: [900, top + 20, 1060, top + 180],
    }],
  });
  const s = summaryOf([row("Emergency SOS", 200), row("Software update", 600)]);
  assert.deepEqual(s.actions.map((a) => a.selector), [
    { text: "Emergency SOS" },
    { content_desc: "Expand", within: { text: "Emergency SOS" } },
    { text: "Software update" },
    { content_desc: "Expand", within: { text: "Software update" } },
  ]);
});

test("an index goes with the key naming the fewest elements", () => {
  const s = summaryOf([
    button("Clock", [0, 100, 500, 200], { id: "com.example.app:id/row" }),
    button("Clock", [0, 300, 500, 400], { id: "com.example.app:id/row" }),
    button("Alarm", [0, 500, 500, 600], { id: "com.example.app:id/row" }),
  ]);
  assert.deepEqual(s.actions.map((a) => a.selector), [{ text: "Clock", index: 0 }, { text: "Clock", index: 1 }, { text: "Alarm" }]);
});

test("the JSON says each thing once: bounds as [left, top, width, height], no role key for a button", () => {
  const s = summaryOf([button("Save", [40, 100, 540, 250]), input([0, 300, 1080, 450], { hint: "Search" })]);
  assert.equal(JSON.stringify(s.actions[0]), `{"selector":{"text":"Save"},"bounds":[40,100,500,150]}`);
  assert.equal(JSON.stringify(s.actions[1]), `{"selector":{"input_hint":"Search"},"role":"input","bounds":[0,300,1080,150]}`);
});

test("a within or an indexed key uses the short resource id when it names the same elements", () => {
  const icon = (top: number): N => ({
    cls: "android.widget.ImageButton",
    click: true,
    id: "com.example.app:id/play",
    bounds: [0, top, 200, top + 200],
  });
  const card = (top: number, id: string): N => ({
    cls: "android.widget.FrameLayout",
    id,
    bounds: [0, top, 1080, top + 300],
    children: [icon(top)],
  });
  const cards = summaryOf([card(100, "com.example.app:id/first"), card(500, "com.example.app:id/second")]);
  assert.deepEqual(cards.actions.map((a) => a.selector), [
    { resource_id: "play", within: { resource_id: "first" } },
    { resource_id: "play", within: { resource_id: "second" } },
  ]);
  const twins = summaryOf([icon(100), icon(500)]);
  assert.deepEqual(twins.actions.map((a) => a.selector), [{ resource_id: "play", index: 0 }, { resource_id: "play", index: 1 }]);
});

test("texts: one whose comma-separated parts are all said, or that a longer listed text contains, is left out", () => {
  const s = summaryOf([
    button("2,ABC", [0, 0, 300, 150], { id: "com.example.app:id/two" }),
    label("2", [0, 200, 100, 300]),
    label("ABC", [100, 200, 200, 300]),
    button("Wi-Fi", [0, 400, 500, 500]),
    button("On", [600, 400, 800, 500]),
    label("Wi-Fi, On", [0, 500, 500, 600]),
    label("Touch", [0, 700, 500, 800]),
    label("Touch, Header", [0, 800, 500, 900]),
    label("1,234 likes", [0, 900, 500, 1000]),
    label("1", [0, 1000, 500, 1100]),
  ]);
  assert.deepEqual(s.texts, ["Touch, Header", "1,234 likes", "1"]);
});

test("an app whose package looks like a keyboard's keeps its nodes; only a separate keyboard window is dropped", () => {
  const gboard = "com.google.android.inputmethod.latin";
  const trainer = "com.acme.keyboardtrainer";
  // Gboard's own settings screen: the foreground app is the keyboard's package, and nothing is dropped.
  const settings = summarize(
    parseDump(windowsDump([
      {
        cls: "android.widget.FrameLayout",
        pkg: gboard,
        bounds: [0, 0, 1080, 2400],
        children: [button("Languages", [0, 300, 1080, 450], { pkg: gboard }), label("Gboard", [0, 100, 600, 200], { pkg: gboard })],
      },
    ])),
    SCREEN,
  );
  assert.equal(settings.foreground_package, gboard);
  assert.deepEqual(
    keyboardInDump(
      parseDump(
        windowsDump([{ pkg: gboard, bounds: [0, 0, 1080, 2400], children: [label("Gboard", [0, 100, 600, 200], { pkg: gboard })] }]),
      ),
    ),
    { open: false },
    "not 'keyboard open from y=0'",
  );
  assert.deepEqual(settings.actions.map((a) => a.selector), [{ text: "Languages" }]);
  assert.deepEqual(settings.texts, ["Gboard"]);
  // A typing trainer with Gboard open below it: the trainer is the screen, Gboard's window the keyboard.
  const tree = parseDump(windowsDump([
    {
      cls: "android.widget.FrameLayout",
      pkg: trainer,
      bounds: [0, 0, 1080, 2400],
      children: [input([0, 300, 1080, 450], { pkg: trainer, hint: "Type here" }), button("Start", [0, 500, 1080, 650], { pkg: trainer })],
    },
    {
      cls: "android.widget.FrameLayout",
      pkg: gboard,
      bounds: [0, 1500, 1080, 2400],
      children: [button("q", [0, 1500, 108, 1650], { pkg: gboard })],
    },
  ]));
  assert.deepEqual(keyboardInDump(tree), { open: true, top: 1500 });
  const typing = summarize(tree, { ...SCREEN, keyboard: keyboardInDump(tree) });
  assert.equal(typing.foreground_package, trainer);
  assert.deepEqual(typing.actions.map((a) => Object.values(a.selector)[0]), ["Type here", "Start"]);
  // A keyboard-named node inside the app's own window is the app's (never dropped).
  const nested = summarize(parseDump(dump([button("Practice", [0, 300, 1080, 450], { pkg: trainer })])), SCREEN);
  assert.deepEqual(nested.actions.map((a) => a.selector), [{ text: "Practice" }]);
});
