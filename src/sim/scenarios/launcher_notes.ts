/**
 * Built-in scenario "launcher": Android 15 (API 35) Pixel Launcher home screen → the "Notes" app
 * (a list, a note, a new-note editor whose Save puts the note at the top of the list). Icons launch their packages; apps without their own screens get
 * a generated placeholder. Modelled on launcher-pixel-app-drawer.xml.
 */
import type { NodeSpec, Scenario } from "../scenario/types.ts";
import { SETTINGS_APP, withSettingsApps } from "./settings.ts";
import { appWindow, PIXEL_API35, recycler, settingsRow, toolbar, WIDTH } from "./layout.ts";

const LAUNCHER = "com.google.android.apps.nexuslauncher";
const NOTES = "com.example.notes";

function icon(label: string, column: number, row: number): NodeSpec {
  const left = 30 + column * 255;
  const top = 1560 + row * 300;
  return {
    class: "android.widget.TextView",
    text: label,
    desc: label,
    clickable: true,
    longClickable: true,
    bounds: [left, top, left + 255, top + 290],
  };
}

const home = appWindow([
  {
    class: "android.view.View",
    id: `${LAUNCHER}:id/workspace`,
    scrollable: true,
    bounds: [0, 136, WIDTH, 2100],
    children: [
      { class: "android.widget.TextView", id: `${LAUNCHER}:id/clock`, text: "Sun, Nov 29", bounds: [63, 260, 700, 340] },
      icon("Notes", 0, 0),
      icon("Clock", 1, 0),
      icon("Calendar", 2, 0),
      icon("Settings", 3, 0),
    ],
  },
  {
    class: "android.widget.TextView",
    id: `${LAUNCHER}:id/hotseat_phone`,
    text: "Phone",
    desc: "Phone",
    clickable: true,
    bounds: [30, 2130, 285, 2330],
  },
  { class: "android.widget.TextView", text: "Chrome", desc: "Chrome", clickable: true, bounds: [795, 2130, 1050, 2330] },
]);

const fab: NodeSpec = {
  class: "android.widget.ImageButton",
  id: `${NOTES}:id/fab_new`,
  desc: "New note",
  clickable: true,
  bounds: [834, 2100, 1017, 2283],
};

const list = appWindow([
  toolbar(NOTES, "Notes", false),
  recycler(`${NOTES}:id/notes`, 283, 2337, [
    settingsRow("Groceries", "Milk, eggs, coffee", 300, 200),
    settingsRow("Ideas", "A sim that draws its own screenshots", 500, 200),
    settingsRow("Trip to Lisbon", "Pack light", 700, 200),
  ]),
  fab,
]);

const note = appWindow([
  toolbar(NOTES, "Groceries", true),
  { class: "android.widget.EditText", id: `${NOTES}:id/body`, text: "Milk, eggs, coffee", bounds: [42, 320, 1038, 1400] },
  { class: "android.widget.Button", id: `${NOTES}:id/delete`, text: "Delete", clickable: true, bounds: [42, 1450, 520, 1600] },
]);

const editor = appWindow([
  toolbar(NOTES, "New note", true),
  { class: "android.widget.EditText", id: `${NOTES}:id/title`, hint: "Title", bounds: [42, 320, 1038, 460] },
  { class: "android.widget.EditText", id: `${NOTES}:id/body`, hint: "Note", bounds: [42, 480, 1038, 1100] },
  { class: "android.widget.Button", id: `${NOTES}:id/save`, text: "Save", clickable: true, bounds: [42, 1150, 520, 1300] },
]);

export const LAUNCHER_SCENARIO: Scenario = {
  name: "launcher",
  description:
    "Android 15 (API 35) Pixel Launcher home → the Notes app (list, note, new-note editor with the keyboard); other icons launch placeholder apps.",
  android: PIXEL_API35,
  home: "home",
  start: "home",
  screens: {
    ...SETTINGS_APP.screens,
    home: { package: LAUNCHER, activity: "com.google.android.apps.nexuslauncher.NexusLauncherActivity", root: home },
    notes_list: { package: NOTES, activity: "com.example.notes.MainActivity", root: list },
    note: { package: NOTES, activity: "com.example.notes.NoteActivity", root: note, keyboard: { top: 1517 } },
    editor: { package: NOTES, activity: "com.example.notes.EditActivity", root: editor, keyboard: { top: 1517 } },
  },
  packages: withSettingsApps([
    { name: LAUNCHER, system: true, screen: "home", label: "Pixel Launcher" },
    { name: NOTES, screen: "notes_list", label: "Notes" },
    SETTINGS_APP.package,
    { name: "com.google.android.deskclock", system: true, activity: "com.android.deskclock.DeskClock", label: "Clock" },
    { name: "com.google.android.calendar", system: true, activity: "com.android.calendar.AllInOneActivity", label: "Calendar" },
    { name: "com.google.android.dialer", system: true, activity: ".extensions.GoogleDialtactsActivity", label: "Phone" },
    { name: "com.android.chrome", system: true, activity: "com.google.android.apps.chrome.Main", label: "Chrome" },
    { name: "com.google.android.inputmethod.latin", system: true },
  ]),
  transitions: [
    { from: "home", on: "tap", selector: { content_desc: "Notes" }, to: "@launch:com.example.notes" },
    { from: "home", on: "tap", selector: { content_desc: "Clock" }, to: "@launch:com.google.android.deskclock" },
    { from: "home", on: "tap", selector: { content_desc: "Calendar" }, to: "@launch:com.google.android.calendar" },
    { from: "home", on: "tap", selector: { content_desc: "Settings" }, to: "@launch:com.android.settings" },
    { from: "home", on: "tap", selector: { content_desc: "Phone" }, to: "@launch:com.google.android.dialer" },
    { from: "home", on: "tap", selector: { content_desc: "Chrome" }, to: "@launch:com.android.chrome" },
    { from: "notes_list", on: "tap", selector: { text: "Groceries" }, to: "note" },
    { from: "notes_list", on: "tap", selector: { content_desc: "New note" }, to: "editor" },
    {
      from: "editor",
      on: "tap",
      selector: { text: "Save" },
      to: "@back",
      // The saved note heads the list: its title and the start of its text, as a notes app shows them.
      saves: { list: `${NOTES}:id/notes`, texts: { "android:id/title": `${NOTES}:id/title`, "android:id/summary": `${NOTES}:id/body` } },
    },
    { from: "note", on: "tap", selector: { text: "Delete" }, to: "@back" },
    { on: "tap", selector: { content_desc: "Navigate up" }, to: "@back" },
    ...SETTINGS_APP.transitions,
  ],
};
