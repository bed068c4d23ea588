/**
 * Built-in scenario "flutter": Android 13 (API 33) Flutter banking app. Flutter merges a widget's texts
 * into one content-desc with newlines ("Historial\nTab 2 of 3"), gives no resource-ids and uses
 * android.view.View everywhere. Bottom tabs switch screens; the history list scrolls in two parts and its
 * search field opens the keyboard over the tab bar (so "Historial\nTab 2 of 3" is covered).
 * Modelled on flutter-ide-bottom-tabs.xml.
 */
import type { NodeSpec, Scenario } from "../scenario/types.ts";
import { SETTINGS_APP, withSettingsApps } from "./settings.ts";
import { HEIGHT, PIXEL_API33, WIDTH } from "./layout.ts";

const PKG = "com.example.flutter_bank";
const TABS = ["Inicio", "Historial", "Perfil"];

function flutterWindow(children: NodeSpec[]): NodeSpec {
  const full: [number, number, number, number] = [0, 0, WIDTH, HEIGHT];
  return {
    class: "android.widget.FrameLayout",
    bounds: full,
    children: [{
      class: "android.widget.LinearLayout",
      bounds: full,
      children: [{
        class: "android.widget.FrameLayout",
        id: "android:id/content",
        bounds: full,
        children: [{ class: "android.view.View", bounds: full, children: [{ class: "android.view.View", bounds: full, children }] }],
      }],
    }],
  };
}

function tabs(selected: number): NodeSpec {
  const w = WIDTH / TABS.length;
  return {
    class: "android.view.View",
    bounds: [0, 2211, WIDTH, 2337],
    children: TABS.map((label, i) => ({
      class: "android.view.View",
      desc: `${label}\nTab ${i + 1} of ${TABS.length}`,
      clickable: true,
      selected: i === selected,
      bounds: [Math.round(i * w), 2211, Math.round((i + 1) * w), 2337] as [number, number, number, number],
    })),
  };
}

function movement(label: string, amount: string, top: number): NodeSpec {
  return {
    class: "android.view.View",
    desc: `${label}\n${amount}`,
    clickable: true,
    bounds: [0, top, WIDTH, Math.min(top + 189, LIST_BOTTOM)],
  };
}

const LIST_BOTTOM = 2211;

/** The list above the tab bar; a row past its edge is dumped with its visible part only (Android clips to the parent). */
function list(items: [string, string][]): NodeSpec {
  return {
    class: "android.widget.ScrollView",
    scrollable: true,
    bounds: [0, 440, WIDTH, LIST_BOTTOM],
    children: items.map(([l, a], i) => movement(l, a, 440 + i * 189)),
  };
}

const inicio = flutterWindow([
  { class: "android.view.View", desc: "Hola, Ana", bounds: [42, 150, 1038, 280] },
  { class: "android.view.View", desc: "Saldo disponible\n2.450,80 €", bounds: [42, 320, 1038, 620] },
  { class: "android.widget.Button", desc: "Transferir", clickable: true, bounds: [42, 680, 520, 830] },
  { class: "android.widget.Button", desc: "Pagar", clickable: true, bounds: [560, 680, 1038, 830] },
  { class: "android.widget.ImageView", desc: "", clickable: true, bounds: [930, 150, 1038, 258] },
  tabs(0),
]);

const search: NodeSpec = { class: "android.widget.EditText", hint: "Buscar movimientos", clickable: true, bounds: [42, 300, 1038, 420] };

const historial1 = flutterWindow([
  { class: "android.view.View", desc: "Movimientos", bounds: [42, 150, 1038, 280] },
  search,
  list([
    ["Supermercado", "-45,20 €"],
    ["Nómina", "+1.850,00 €"],
    ["Farmacia", "-12,75 €"],
    ["Gasolina", "-60,00 €"],
    ["Restaurante", "-38,40 €"],
    ["Transferencia recibida", "+120,00 €"],
    ["Cine", "-18,00 €"],
    ["Librería", "-22,90 €"],
    ["Luz", "-64,31 €"],
    ["Agua", "-21,05 €"],
  ]),
  tabs(1),
]);

const historial2 = flutterWindow([
  { class: "android.view.View", desc: "Movimientos", bounds: [42, 150, 1038, 280] },
  search,
  list([["Internet", "-35,00 €"], ["Gimnasio", "-29,90 €"], ["Panadería", "-4,60 €"], ["Taxi", "-15,30 €"], ["Devolución", "+19,99 €"]]),
  tabs(1),
]);

const perfil = flutterWindow([
  { class: "android.view.View", desc: "Perfil", bounds: [42, 150, 1038, 280] },
  { class: "android.view.View", desc: "Ana García\nana@example.com", bounds: [42, 320, 1038, 520] },
  { class: "android.widget.Switch", desc: "Notificaciones", checkable: true, checked: true, clickable: true, bounds: [42, 560, 1038, 700] },
  { class: "android.widget.Button", desc: "Cerrar sesión", clickable: true, bounds: [42, 760, 1038, 910] },
  tabs(2),
]);

const tabTransitions = TABS.map((label, i) => ({
  on: "tap" as const,
  selector: { content_desc: `${label}\nTab ${i + 1} of ${TABS.length}` },
  to: ["inicio", "historial", "perfil"][i]!,
}));

export const FLUTTER_SCENARIO: Scenario = {
  name: "flutter",
  description:
    "Android 13 (API 33) Flutter banking app: merged content-desc with newlines ('Historial\\nTab 2 of 3'), no resource-ids, bottom tabs, a history list in two scroll parts whose search field opens the keyboard over the tabs.",
  android: PIXEL_API33,
  start: "inicio",
  screens: {
    ...SETTINGS_APP.screens,
    inicio: { package: PKG, activity: "com.example.flutter_bank.MainActivity", root: inicio },
    historial: { package: PKG, activity: "com.example.flutter_bank.MainActivity", root: historial1, keyboard: { top: 1517 } },
    historial_2: { package: PKG, activity: "com.example.flutter_bank.MainActivity", root: historial2, keyboard: { top: 1517 } },
    perfil: { package: PKG, activity: "com.example.flutter_bank.MainActivity", root: perfil },
  },
  packages: withSettingsApps([
    { name: PKG, screen: "inicio", label: "Banco" },
    SETTINGS_APP.package,
  ]),
  transitions: [
    ...tabTransitions,
    { from: "historial", on: "scroll_down", to: "historial_2" },
    { from: "historial_2", on: "scroll_up", to: "historial" },
    ...SETTINGS_APP.transitions,
  ],
};
