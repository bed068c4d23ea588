/**
 * Built-in scenario "permission": Android 13 (API 33) maps app that asks for location. "Find places
 * near me" opens the runtime permission dialog (package com.google.android.permissioncontroller, not
 * full-screen, as in permission-location-dialog-en.xml); allowing shows results, denying returns.
 */
import type { NodeSpec, Scenario } from "../scenario/types.ts";
import { SETTINGS_APP, withSettingsApps } from "./settings.ts";
import { appWindow, PIXEL_API33, recycler, settingsRow, toolbar } from "./layout.ts";

const PKG = "com.example.maps";
const CONTROLLER = "com.google.android.permissioncontroller";
const IDS = "com.android.permissioncontroller:id";

const app = appWindow([
  toolbar(PKG, "Maps", false),
  { class: "android.view.View", id: `${PKG}:id/map`, desc: "Map", bounds: [0, 283, 1080, 1900] },
  { class: "android.widget.Button", id: `${PKG}:id/near_me`, text: "Find places near me", clickable: true, bounds: [63, 1950, 1017, 2100] },
]);

function dialogButton(id: string, text: string, top: number): NodeSpec {
  return { class: "android.widget.Button", id: `${IDS}/${id}`, text, clickable: true, bounds: [91, top, 989, top + 147] };
}

const dialogBounds: [number, number, number, number] = [28, 432, 1052, 1968];
const dialog = appWindow([{
  class: "android.widget.ScrollView",
  focusable: true,
  bounds: dialogBounds,
  children: [{
    class: "android.widget.LinearLayout",
    id: `${IDS}/grant_singleton`,
    clickable: true,
    bounds: dialogBounds,
    children: [
      {
        class: "android.widget.TextView",
        id: `${IDS}/permission_message`,
        text: "Allow Maps to access this device's location?",
        bounds: [91, 600, 989, 760],
      },
      {
        class: "android.widget.RadioButton",
        id: `${IDS}/permission_location_accuracy_radio_fine`,
        text: "Precise",
        checkable: true,
        checked: true,
        clickable: true,
        bounds: [91, 800, 520, 1180],
      },
      {
        class: "android.widget.RadioButton",
        id: `${IDS}/permission_location_accuracy_radio_coarse`,
        text: "Approximate",
        checkable: true,
        clickable: true,
        bounds: [560, 800, 989, 1180],
      },
      dialogButton("permission_allow_foreground_only_button", "While using the app", 1280),
      dialogButton("permission_allow_one_time_button", "Only this time", 1440),
      dialogButton("permission_deny_button", "Don’t allow", 1600),
    ],
  }],
}], dialogBounds);

const results = appWindow([
  toolbar(PKG, "Near you", true),
  recycler(`${PKG}:id/results`, 283, 2337, [
    settingsRow("Café Central", "120 m", 300, 200),
    settingsRow("Parque do Rio", "450 m", 500, 200),
    settingsRow("Museu Nacional", "1.2 km", 700, 200),
  ]),
]);

export const PERMISSION_SCENARIO: Scenario = {
  name: "permission",
  description:
    "Android 13 (API 33) maps app: 'Find places near me' raises the location permission dialog (not full-screen); allow → results, deny → back.",
  android: PIXEL_API33,
  start: "app",
  screens: {
    ...SETTINGS_APP.screens,
    app: { package: PKG, activity: "com.example.maps.MainActivity", root: app },
    dialog: { package: CONTROLLER, activity: "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity", root: dialog },
    results: { package: PKG, activity: "com.example.maps.ResultsActivity", root: results },
  },
  packages: withSettingsApps([
    { name: PKG, screen: "app", label: "Maps" },
    { name: CONTROLLER, system: true },
    SETTINGS_APP.package,
  ]),
  transitions: [
    { from: "app", on: "tap", selector: { text: "Find places near me" }, to: "dialog" },
    { from: "dialog", on: "tap", selector: { text: "While using the app" }, to: "results" },
    { from: "dialog", on: "tap", selector: { text: "Only this time" }, to: "results" },
    { from: "dialog", on: "tap", selector: { resource_id: `${IDS}/permission_deny_button` }, to: "@back" },
    { from: "results", on: "tap", selector: { content_desc: "Navigate up" }, to: "app" },
    ...SETTINGS_APP.transitions,
  ],
};
