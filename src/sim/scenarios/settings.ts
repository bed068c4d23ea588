/**
 * Built-in scenario "settings" (the default): Android 15 (API 35) Settings on a Google emulator.
 * Home list in two scroll parts → Apps → All apps → an App info page for every listed app (Open
 * launches it); Network & internet with an Airplane mode toggle; Display; About. Modelled on the
 * Settings captures in fixtures/real.
 */
import type { NodeSpec, PackageSpec, Scenario } from "../scenario/types.ts";
import { appWindow, PIXEL_API35, recycler, stackRows, toolbar, WIDTH } from "./layout.ts";

const PKG = "com.android.settings";

const searchBar: NodeSpec = {
  class: "android.widget.FrameLayout",
  id: "com.android.settings:id/search_bar",
  bounds: [42, 300, 1038, 447],
  children: [{
    class: "android.widget.TextView",
    id: "com.android.settings:id/search_action_bar_title",
    text: "Search Settings",
    clickable: true,
    bounds: [42, 300, 1038, 447],
  }],
};

function settingsPage(title: string, back: boolean, list: NodeSpec[], extra: NodeSpec[] = []): NodeSpec {
  return appWindow([
    toolbar(PKG, title, back),
    ...extra,
    recycler("com.android.settings:id/recycler_view", back ? 283 : 470, 2337, list),
  ]);
}

const homeTop = stackRows([
  ["Network & internet", "Mobile, Wi-Fi, hotspot"],
  ["Connected devices", "Bluetooth, pairing"],
  ["Apps", "Assistant, recent apps, default apps"],
  ["Notifications", "Notification history, conversations"],
  ["Battery", "100%"],
  ["Storage", "34% used - 5.29 GB free"],
  ["Sound & vibration", "Volume, haptics, Do Not Disturb"],
  ["Display", "Dark theme, font size, brightness"],
], 490);

const homeBottom = stackRows([
  ["Wallpaper & style", "Colors, themed icons, app grid"],
  ["Accessibility", "Display, interaction, audio"],
  ["Security & privacy", "App security, device lock, permissions"],
  ["Location", "On - 3 apps have access to location"],
  ["Safety & emergency", "Emergency SOS, medical info, alerts"],
  ["Passwords & accounts", "Saved passwords, autofill, synced accounts"],
  ["System", "Languages, gestures, time, backup"],
  ["About emulated device", "sdk_gphone64_x86_64"],
], 490);

/** The apps Settings lists (All apps, in order; three are also "recently opened"), each with its package. */
const LISTED_APPS: { label: string; size: string; recent?: string; permissions: string; pkg: PackageSpec }[] = [
  {
    label: "Calculator",
    size: "36.00 kB",
    permissions: "No permissions requested",
    pkg: { name: "com.google.android.calculator", system: true, activity: "com.android.calculator2.Calculator", label: "Calculator" },
  },
  {
    label: "Calendar",
    size: "12.30 MB",
    recent: "0 min. ago",
    permissions: "Calendar and Contacts",
    pkg: { name: "com.google.android.calendar", system: true, activity: "com.android.calendar.AllInOneActivity", label: "Calendar" },
  },
  {
    label: "Camera",
    size: "4.10 MB",
    permissions: "Camera, Microphone and Location",
    pkg: { name: "com.android.camera2", system: true, activity: "com.android.camera.CameraLauncher", label: "Camera" },
  },
  {
    label: "Chrome",
    size: "215 MB",
    recent: "1 hr. ago",
    permissions: "No permissions allowed",
    pkg: { name: "com.android.chrome", system: true, activity: "com.google.android.apps.chrome.Main", label: "Chrome" },
  },
  {
    label: "Clock",
    size: "9.20 MB",
    recent: "2 min. ago",
    permissions: "Notifications",
    pkg: { name: "com.google.android.deskclock", system: true, activity: "com.android.deskclock.DeskClock", label: "Clock" },
  },
  {
    label: "Contacts",
    size: "11.50 MB",
    permissions: "Contacts and Phone",
    pkg: {
      name: "com.google.android.contacts",
      system: true,
      activity: "com.android.contacts.activities.PeopleActivity",
      label: "Contacts",
    },
  },
  {
    label: "Files",
    size: "6.70 MB",
    permissions: "Files and media",
    pkg: { name: "com.google.android.documentsui", system: true, activity: "com.android.documentsui.LauncherActivity", label: "Files" },
  },
  {
    label: "Maps",
    size: "88.10 MB",
    permissions: "Location",
    pkg: { name: "com.google.android.apps.maps", system: true, activity: "com.google.android.maps.MapsActivity", label: "Maps" },
  },
];

const appInfoId = (label: string) => `app_info_${label.toLowerCase().replaceAll(" ", "_")}`;

const recentApps: NodeSpec[] = [
  { class: "android.widget.TextView", text: "Recently opened apps", bounds: [63, 330, 1017, 400] },
  ...stackRows(["Calendar", "Clock", "Chrome"].map((label) => [label, LISTED_APPS.find((a) => a.label === label)!.recent]), 420, 200),
  ...stackRows(
    [["All apps", "See all 34 apps"], ["Default apps", "Assistant, browser & phone"], [
      "Special app access",
      "2 apps can use unrestricted data",
    ]],
    1040,
    200,
  ),
];

const allApps = stackRows(LISTED_APPS.map((a) => [a.label, a.size]), 430, 200);

/** The App info page of one listed app: its icon and name, Open / Uninstall / Force stop, notifications, permissions, storage. */
function appInfo(app: (typeof LISTED_APPS)[number]): NodeSpec[] {
  return [
    { class: "android.widget.ImageView", id: "com.android.settings:id/entity_header_icon", desc: app.label, bounds: [456, 330, 624, 498] },
    { class: "android.widget.TextView", id: "com.android.settings:id/entity_header_title", text: app.label, bounds: [63, 560, 1017, 640] },
    {
      class: "android.widget.TextView",
      id: "com.android.settings:id/entity_header_summary",
      text: "Installed",
      bounds: [63, 650, 1017, 700],
    },
    { class: "android.widget.Button", id: "com.android.settings:id/button1", text: "Open", clickable: true, bounds: [42, 760, 366, 920] },
    {
      class: "android.widget.Button",
      id: "com.android.settings:id/button2",
      text: "Uninstall",
      clickable: true,
      bounds: [378, 760, 702, 920],
    },
    {
      class: "android.widget.Button",
      id: "com.android.settings:id/button3",
      text: "Force stop",
      clickable: true,
      bounds: [714, 760, 1038, 920],
    },
    ...stackRows(
      [["Notifications", "~0 notifications per week"], ["Permissions", app.permissions], [
        "Storage & cache",
        `${app.size} used in internal storage`,
      ]],
      960,
      200,
    ),
  ];
}

const network: NodeSpec[] = [
  ...stackRows([["Internet", "AndroidWifi"], ["SIMs", "T-Mobile"]], 300, 200),
  {
    class: "android.widget.LinearLayout",
    clickable: true,
    bounds: [0, 700, WIDTH, 900],
    children: [
      { class: "android.widget.TextView", id: "android:id/title", text: "Airplane mode", bounds: [189, 760, 860, 830] },
      {
        class: "android.widget.Switch",
        id: "android:id/switch_widget",
        checkable: true,
        checked: false,
        clickable: true,
        bounds: [880, 750, 1017, 850],
      },
    ],
  },
  ...stackRows([["Hotspot & tethering", "Off"], ["Data Saver", "Off"], ["VPN", "None"], ["Private DNS", "Automatic"]], 900, 200),
];

/** Network & internet → Internet: the Wi-Fi row with its switch (on), and the networks in range. */
const internet: NodeSpec[] = [
  {
    class: "android.widget.LinearLayout",
    clickable: true,
    bounds: [0, 300, WIDTH, 500],
    children: [
      { class: "android.widget.TextView", id: "android:id/title", text: "Wi-Fi", bounds: [189, 360, 860, 430] },
      {
        class: "android.widget.Switch",
        id: "android:id/switch_widget",
        checkable: true,
        checked: true,
        clickable: true,
        bounds: [880, 350, 1017, 450],
      },
    ],
  },
  ...stackRows([["AndroidWifi", "Connected"], ["Cafe-Guest", "Saved"], ["Add network", undefined]], 500, 200),
];

const display = stackRows(
  [
    ["Brightness level", "48%"],
    ["Adaptive brightness", "On"],
    ["Dark theme", "Will never turn on automatically"],
    ["Font size and text", "Default"],
    ["Screen timeout", "After 1 minute of inactivity"],
  ],
  300,
  200,
);

const about = stackRows(
  [
    ["Device name", "sdk_gphone64_x86_64"],
    ["Phone number", "+1 555-521-5554"],
    ["Model", "sdk_gphone64_x86_64"],
    ["IP address", "10.0.2.16"],
    ["Build number", "AE3A.240806.036"],
  ],
  300,
  200,
);

const SUB_SCREENS = ["apps", "all_apps", ...LISTED_APPS.map((a) => appInfoId(a.label)), "network", "internet", "display", "about"];

/**
 * The Settings app (screens, transitions, package, and the apps it lists), shared by every built-in
 * scenario so that "open Settings" shows the real list wherever the device is. Screen ids:
 * settings_home, settings_home_2, apps, all_apps, app_info_<label> (app_info_calendar, …), network,
 * internet, display, about. A scenario installs `listedApps` (withSettingsApps) so every App info's Open works.
 */
export const SETTINGS_APP: Pick<Scenario, "screens" | "transitions"> & { package: PackageSpec; listedApps: PackageSpec[] } = {
  package: { name: PKG, system: true, screen: "settings_home", label: "Settings" },
  listedApps: LISTED_APPS.map((a) => a.pkg),
  screens: {
    settings_home: { package: PKG, activity: "com.android.settings.Settings", root: settingsPage("Settings", false, homeTop, [searchBar]) },
    settings_home_2: {
      package: PKG,
      activity: "com.android.settings.Settings",
      root: settingsPage("Settings", false, homeBottom, [searchBar]),
    },
    apps: { package: PKG, activity: "com.android.settings.SubSettings", root: settingsPage("Apps", true, recentApps) },
    all_apps: { package: PKG, activity: "com.android.settings.SubSettings", root: settingsPage("All apps", true, allApps) },
    ...Object.fromEntries(
      LISTED_APPS.map((
        app,
      ) => [appInfoId(app.label), {
        package: PKG,
        activity: "com.android.settings.applications.InstalledAppDetailsTop",
        root: settingsPage("App info", true, appInfo(app)),
      }]),
    ),
    network: { package: PKG, activity: "com.android.settings.SubSettings", root: settingsPage("Network & internet", true, network) },
    internet: { package: PKG, activity: "com.android.settings.SubSettings", root: settingsPage("Internet", true, internet) },
    display: { package: PKG, activity: "com.android.settings.SubSettings", root: settingsPage("Display", true, display) },
    about: { package: PKG, activity: "com.android.settings.SubSettings", root: settingsPage("About emulated device", true, about) },
  },
  transitions: [
    { from: "settings_home", on: "scroll_down", to: "settings_home_2" },
    { from: "settings_home_2", on: "scroll_up", to: "settings_home" },
    { from: "settings_home", on: "tap", selector: { text: "Apps" }, to: "apps" },
    { from: "settings_home", on: "tap", selector: { text: "Network & internet" }, to: "network" },
    { from: "network", on: "tap", selector: { text: "Internet" }, to: "internet" },
    { from: "settings_home", on: "tap", selector: { text: "Display" }, to: "display" },
    { from: "settings_home_2", on: "tap", selector: { text: "About emulated device" }, to: "about" },
    { from: "apps", on: "tap", selector: { text: "All apps" }, to: "all_apps" },
    ...LISTED_APPS.map((app) => ({
      from: ["apps", "all_apps"],
      on: "tap" as const,
      selector: { text: app.label },
      to: appInfoId(app.label),
    })),
    ...LISTED_APPS.map((app) => ({
      from: appInfoId(app.label),
      on: "tap" as const,
      selector: { text: "Open" },
      to: `@launch:${app.pkg.name}`,
    })),
    { from: SUB_SCREENS, on: "tap", selector: { content_desc: "Navigate up" }, to: "@back" },
  ],
};

/** A scenario's packages plus the apps Settings lists (the scenario's own entry wins for a package it names). */
export function withSettingsApps(packages: PackageSpec[]): PackageSpec[] {
  const named = new Set(packages.map((p) => p.name));
  return [...packages, ...SETTINGS_APP.listedApps.filter((p) => !named.has(p.name))];
}

export const SETTINGS_SCENARIO: Scenario = {
  name: "settings",
  description:
    "Android 15 (API 35) Settings on a Google emulator: home list (two scroll parts), Apps → All apps → App info, Network & internet, Display, About.",
  android: PIXEL_API35,
  home: "launcher",
  start: "settings_home",
  screens: {
    ...SETTINGS_APP.screens,
    launcher: {
      package: "com.google.android.apps.nexuslauncher",
      activity: "com.google.android.apps.nexuslauncher.NexusLauncherActivity",
      root: appWindow([
        { class: "android.widget.TextView", text: "Settings", desc: "Settings", clickable: true, bounds: [60, 1900, 300, 2140] },
        { class: "android.widget.TextView", text: "Chrome", desc: "Chrome", clickable: true, bounds: [300, 1900, 540, 2140] },
        { class: "android.widget.TextView", text: "Calendar", desc: "Calendar", clickable: true, bounds: [540, 1900, 780, 2140] },
      ]),
    },
  },
  packages: withSettingsApps([
    SETTINGS_APP.package,
    { name: "com.google.android.apps.nexuslauncher", system: true, screen: "launcher", label: "Pixel Launcher" },
    { name: "com.android.systemui", system: true },
    { name: "com.google.android.inputmethod.latin", system: true },
    { name: "com.example.notes", activity: ".MainActivity", label: "Notes" },
  ]),
  transitions: [
    ...SETTINGS_APP.transitions,
    { from: "launcher", on: "tap", selector: { content_desc: "Settings" }, to: "@launch:com.android.settings" },
    { from: "launcher", on: "tap", selector: { content_desc: "Chrome" }, to: "@launch:com.android.chrome" },
    { from: "launcher", on: "tap", selector: { content_desc: "Calendar" }, to: "@launch:com.google.android.calendar" },
  ],
};
