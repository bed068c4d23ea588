/**
 * A small in-memory SimDevice for the UiAutomator2 server's tests: hand-written screens (uiautomator
 * dumps built from a compact node list), tap transitions matched on node attributes, a back stack,
 * typed text written into the current screen, scroll pages and package launches. It records every
 * call it receives so tests can assert what the server sent. Not the scenario engine (src/sim/).
 */
import UPNG from "upng-js";
import type { NodeAttributes, SimDevice, SimFaults } from "../../src/sim/sim_device.ts";

export interface FakeNode {
  cls: string;
  bounds: [number, number, number, number];
  text?: string;
  id?: string;
  desc?: string;
  hint?: string;
  clickable?: boolean;
  scrollable?: boolean;
  checkable?: boolean;
  checked?: boolean;
  enabled?: boolean;
  children?: FakeNode[];
}

export interface FakeScreen {
  package: string;
  activity: string;
  root: FakeNode;
}

export interface FakeTransition {
  from: string;
  /** Every listed attribute must equal the tapped node's. */
  match: Record<string, string>;
  to: string;
}

export interface FakeScenario {
  start: string;
  screens: Record<string, FakeScreen>;
  taps: FakeTransition[];
  /** screen → the screen shown after scrolling down (and back up again). */
  scrollPages?: Record<string, string>;
  /** package → its first screen. */
  launchers?: Record<string, string>;
}

function esc(v: string): string {
  return v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;").replace(/\n/g, "&#10;");
}

function render(node: FakeNode, pkg: string, index: number, texts: ReadonlyMap<string, string>): string {
  const [l, t, r, b] = node.bounds;
  const key = node.id ?? "";
  const text = key !== "" && texts.has(key) ? texts.get(key) as string : node.text ?? "";
  const attrs: [string, string][] = [
    ["index", String(index)], ["text", text], ["resource-id", node.id ?? ""], ["class", node.cls], ["package", pkg],
    ["content-desc", node.desc ?? ""], ["checkable", String(node.checkable ?? false)], ["checked", String(node.checked ?? false)],
    ["clickable", String(node.clickable ?? false)], ["enabled", String(node.enabled ?? true)],
    ["focusable", String(node.clickable ?? false)], ["focused", "false"], ["scrollable", String(node.scrollable ?? false)],
    ["long-clickable", "false"], ["password", "false"], ["selected", "false"], ["bounds", `[${l},${t}][${r},${b}]`],
  ];
  if (node.hint !== undefined) attrs.push(["hint", node.hint]);
  const open = `<node ${attrs.map(([k, v]) => `${k}="${esc(v)}"`).join(" ")}`;
  const kids = (node.children ?? []).map((c, i) => render(c, pkg, i, texts)).join("");
  return kids === "" ? `${open} />` : `${open}>${kids}</node>`;
}

export class FakeSimDevice implements SimDevice {
  readonly serial = "emulator-5554";
  readonly model = "sdk_gphone64_x86_64";
  readonly apiLevel = 34;
  readonly width = 1080;
  readonly height = 2400;
  readonly density = 420;
  readonly faults: SimFaults = {};
  readonly log: { source: "adb" | "uia2"; command: string }[] = [];
  /** What the device was asked to do, in order (e.g. "tap Login", "setText username=alice"). */
  readonly calls: string[] = [];
  current: string;
  private readonly backStack: string[] = [];
  /** Typed text per screen and resource-id. */
  private readonly typed = new Map<string, Map<string, string>>();

  constructor(private readonly scenario: FakeScenario) {
    this.current = scenario.start;
  }

  private screen(): FakeScreen {
    const s = this.scenario.screens[this.current];
    if (s === undefined) throw new Error(`fake scenario has no screen '${this.current}'`);
    return s;
  }

  hierarchyXml(): string {
    const s = this.screen();
    const texts = this.typed.get(this.current) ?? new Map<string, string>();
    return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${render(s.root, s.package, 0, texts)}</hierarchy>`;
  }
  foregroundPackage(): string {
    return this.screen().package;
  }
  foregroundActivity(): string {
    return this.screen().activity;
  }
  keyboard(): { open: boolean; top?: number } {
    return { open: false };
  }
  installedPackages(): { name: string; system: boolean }[] {
    return Object.keys(this.scenario.launchers ?? {}).map((name) => ({ name, system: false }));
  }
  /** A 64×64 image whose colours depend on the current screen, so screens differ. */
  screenshotPng(): Uint8Array {
    const seed = [...this.current].reduce((a, c) => a + c.charCodeAt(0), 0);
    const rgba = new Uint8Array(64 * 64 * 4);
    for (let i = 0; i < 64 * 64; i++) {
      rgba.set([(i % 64) * 4, Math.floor(i / 64) * 4, seed % 256, 255], i * 4);
    }
    return new Uint8Array(UPNG.encode([rgba.buffer], 64, 64, 0));
  }

  private go(to: string): void {
    this.backStack.push(this.current);
    this.current = to;
  }
  tap(node: NodeAttributes): void {
    this.calls.push(`tap ${node["text"] || node["content-desc"] || node["resource-id"] || node["class"]}`);
    const t = this.scenario.taps.find((x) => x.from === this.current && Object.entries(x.match).every(([k, v]) => node[k] === v));
    if (t !== undefined) this.go(t.to);
  }
  setText(node: NodeAttributes, text: string): void {
    const id = node["resource-id"] ?? "";
    this.calls.push(`setText ${id}=${text}`);
    const texts = this.typed.get(this.current) ?? new Map<string, string>();
    texts.set(id, text);
    this.typed.set(this.current, texts);
  }
  back(): void {
    this.calls.push("back");
    const previous = this.backStack.pop();
    if (previous !== undefined) this.current = previous;
  }
  scroll(direction: "up" | "down"): void {
    this.calls.push(`scroll ${direction}`);
    const pages = this.scenario.scrollPages ?? {};
    if (direction === "down" && pages[this.current] !== undefined) this.current = pages[this.current] as string;
    if (direction === "up") {
      const above = Object.entries(pages).find(([, below]) => below === this.current);
      if (above !== undefined) this.current = above[0];
    }
  }
  launch(packageName: string): boolean {
    this.calls.push(`launch ${packageName}`);
    const first = this.scenario.launchers?.[packageName];
    if (first === undefined) return false;
    this.go(first);
    return true;
  }
}

const row = (text: string, top: number): FakeNode => ({
  cls: "android.widget.LinearLayout", bounds: [0, top, 1080, top + 180], clickable: true,
  children: [{ cls: "android.widget.TextView", bounds: [48, top + 50, 800, top + 130], text, id: "android:id/title" }],
});

/** Launcher → Settings (two scroll pages, Display) and a login form (→ Welcome). */
export function demoScenario(): FakeScenario {
  const settingsPage = (titles: string[]): FakeNode => ({
    cls: "android.widget.FrameLayout", bounds: [0, 0, 1080, 2400], children: [
      { cls: "android.widget.TextView", bounds: [48, 100, 600, 200], text: "Settings", id: "com.android.settings:id/title" },
      {
        cls: "androidx.recyclerview.widget.RecyclerView", bounds: [0, 300, 1080, 2400], scrollable: true,
        id: "com.android.settings:id/recycler_view", children: titles.map((t, i) => row(t, 300 + i * 180)),
      },
    ],
  });
  return {
    start: "home",
    screens: {
      home: {
        package: "com.google.android.apps.nexuslauncher", activity: ".NexusLauncherActivity",
        root: {
          cls: "android.widget.FrameLayout", bounds: [0, 0, 1080, 2400], children: [
            { cls: "android.widget.TextView", bounds: [40, 1800, 260, 2060], text: "Settings", desc: "Settings", clickable: true },
            { cls: "android.widget.TextView", bounds: [300, 1800, 520, 2060], text: "Login", desc: "Login app", clickable: true },
          ],
        },
      },
      settings: {
        package: "com.android.settings", activity: ".Settings",
        root: settingsPage(["Network & internet", "Connected devices", "Apps", "Notifications", "Battery", "Display"]),
      },
      settings2: {
        package: "com.android.settings", activity: ".Settings",
        root: settingsPage(["Sound & vibration", "Storage", "Privacy", "Location", "System", "About phone"]),
      },
      display: {
        package: "com.android.settings", activity: ".SubSettings",
        root: {
          cls: "android.widget.FrameLayout", bounds: [0, 0, 1080, 2400],
          children: [{ cls: "android.widget.TextView", bounds: [48, 100, 600, 200], text: "Display", id: "com.android.settings:id/title" }],
        },
      },
      login: {
        package: "com.example.login", activity: ".LoginActivity",
        root: {
          cls: "android.widget.FrameLayout", bounds: [0, 0, 1080, 2400], children: [
            { cls: "android.widget.EditText", bounds: [60, 400, 1020, 540], id: "com.example.login:id/username", hint: "Username", clickable: true },
            { cls: "android.widget.EditText", bounds: [60, 600, 1020, 740], id: "com.example.login:id/password", hint: "Password", clickable: true },
            { cls: "android.widget.Button", bounds: [60, 800, 1020, 940], id: "com.example.login:id/login", text: "Log in", clickable: true },
            { cls: "android.view.View", bounds: [60, 1000, 1020, 1100], desc: "Terms\nTab 2 of 3", clickable: true },
          ],
        },
      },
      welcome: {
        package: "com.example.login", activity: ".WelcomeActivity",
        root: {
          cls: "android.widget.FrameLayout", bounds: [0, 0, 1080, 2400],
          children: [{ cls: "android.widget.TextView", bounds: [48, 100, 900, 200], text: "Welcome", id: "com.example.login:id/greeting" }],
        },
      },
    },
    taps: [
      { from: "home", match: { "content-desc": "Settings" }, to: "settings" },
      { from: "home", match: { "content-desc": "Login app" }, to: "login" },
      { from: "settings", match: { text: "Display" }, to: "display" },
      { from: "login", match: { "resource-id": "com.example.login:id/login" }, to: "welcome" },
    ],
    scrollPages: { settings: "settings2" },
    launchers: { "com.android.settings": "settings", "com.example.login": "login" },
  };
}
