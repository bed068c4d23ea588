/**
 * Built-in scenario "login": Android 15 (API 35) shop app whose login form opens with the e-mail field
 * focused and the soft keyboard up (top 1517), covering the bottom tab bar. Typing fills the fields;
 * "Sign in" leads to the account screen and is remembered (a relaunch after a force-stop opens Account; `pm clear`
 * forgets it and the login form shows again); BACK first closes the keyboard.
 */
import type { NodeSpec, Scenario } from "../scenario/types.ts";
import { SETTINGS_APP, withSettingsApps } from "./settings.ts";
import { appWindow, PIXEL_API35, toolbar, WIDTH } from "./layout.ts";

const PKG = "com.example.shop";

function tabBar(selected: number): NodeSpec {
  const tabs = ["Home", "Search", "Account"];
  const w = WIDTH / tabs.length;
  return {
    class: "android.widget.LinearLayout",
    id: `${PKG}:id/bottom_navigation`,
    bounds: [0, 2232, WIDTH, 2400],
    children: tabs.map((label, i) => ({
      class: "android.widget.FrameLayout",
      id: `${PKG}:id/tab_${label.toLowerCase()}`,
      desc: label,
      clickable: true,
      selected: i === selected,
      bounds: [Math.round(i * w), 2232, Math.round((i + 1) * w), 2400] as [number, number, number, number],
      children: [{
        class: "android.widget.TextView",
        text: label,
        bounds: [Math.round(i * w) + 60, 2330, Math.round((i + 1) * w) - 60, 2380] as [number, number, number, number],
      }],
    })),
  };
}

const login = appWindow([
  toolbar(PKG, "Sign in", false),
  { class: "android.widget.TextView", text: "Welcome back", bounds: [63, 340, 1017, 420] },
  { class: "android.widget.EditText", id: `${PKG}:id/email`, hint: "Email", focused: true, bounds: [63, 480, 1017, 640] },
  { class: "android.widget.EditText", id: `${PKG}:id/password`, hint: "Password", password: true, bounds: [63, 680, 1017, 840] },
  {
    class: "android.widget.CheckBox",
    id: `${PKG}:id/remember`,
    text: "Remember me",
    checkable: true,
    clickable: true,
    bounds: [63, 880, 600, 980],
  },
  { class: "android.widget.Button", id: `${PKG}:id/sign_in`, text: "Sign in", clickable: true, bounds: [63, 1020, 1017, 1170] },
  { class: "android.widget.TextView", id: `${PKG}:id/forgot`, text: "Forgot password?", clickable: true, bounds: [63, 1200, 600, 1290] },
  tabBar(2),
]);

const account = appWindow([
  toolbar(PKG, "Account", false),
  { class: "android.widget.TextView", id: `${PKG}:id/greeting`, text: "Signed in", bounds: [63, 340, 1017, 420] },
  { class: "android.widget.Button", id: `${PKG}:id/sign_out`, text: "Sign out", clickable: true, bounds: [63, 500, 1017, 650] },
  tabBar(2),
]);

const forgot = appWindow([
  toolbar(PKG, "Reset password", true),
  { class: "android.widget.EditText", id: `${PKG}:id/reset_email`, hint: "Email", bounds: [63, 340, 1017, 500] },
  { class: "android.widget.Button", id: `${PKG}:id/send`, text: "Send link", clickable: true, bounds: [63, 540, 1017, 690] },
]);

const homeTab = appWindow([
  toolbar(PKG, "Shop", false),
  { class: "android.widget.TextView", text: "Today's deals", bounds: [63, 340, 1017, 420] },
  tabBar(0),
]);

export const LOGIN_SCENARIO: Scenario = {
  name: "login",
  description:
    "Android 15 (API 35) shop app: a login form opened with the keyboard up (top 1517) covering the bottom tab bar; Sign in → Account.",
  android: PIXEL_API35,
  start: "login",
  screens: {
    ...SETTINGS_APP.screens,
    login: { package: PKG, activity: "com.example.shop.LoginActivity", root: login, keyboard: { top: 1517, openOnEnter: true } },
    account: { package: PKG, activity: "com.example.shop.MainActivity", root: account },
    forgot: { package: PKG, activity: "com.example.shop.ResetActivity", root: forgot, keyboard: { top: 1517 } },
    home_tab: { package: PKG, activity: "com.example.shop.MainActivity", root: homeTab },
  },
  packages: withSettingsApps([
    { name: PKG, screen: "login", label: "Shop", launchWhen: [{ flag: "signed_in", screen: "account" }] },
    SETTINGS_APP.package,
    { name: "com.google.android.inputmethod.latin", system: true },
  ]),
  transitions: [
    { from: "login", on: "tap", selector: { text: "Sign in" }, to: "account", sets: "signed_in" },
    { from: "login", on: "tap", selector: { text: "Forgot password?" }, to: "forgot" },
    { from: "account", on: "tap", selector: { text: "Sign out" }, to: "@back" },
    { from: ["login", "account"], on: "tap", selector: { content_desc: "Home" }, to: "home_tab" },
    { on: "tap", selector: { content_desc: "Navigate up" }, to: "@back" },
    ...SETTINGS_APP.transitions,
  ],
};
