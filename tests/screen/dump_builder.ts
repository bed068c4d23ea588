/**
 * Test support: writes small uiautomator dumps from a compact description, so each rule's test shows
 * the whole screen it runs on. `bounds` is [left, top, right, bottom] as the dump writes it.
 */
export interface N {
  cls?: string;
  text?: string;
  id?: string;
  desc?: string;
  hint?: string;
  pkg?: string;
  click?: boolean;
  longClick?: boolean;
  check?: boolean;
  checked?: boolean;
  scroll?: boolean;
  enabled?: boolean;
  focused?: boolean;
  selected?: boolean;
  visible?: boolean;
  password?: boolean;
  /** `drawing-order` (API 24+ dumps): its place in its parent's drawing order. */
  order?: number;
  bounds: [number, number, number, number];
  children?: N[];
}

export const PKG = "com.example.app";

function escape(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\n/g, "&#10;");
}

function nodeXml(n: N, index: number): string {
  const [l, t, r, b] = n.bounds;
  const attrs: [string, string][] = [
    ["index", String(index)],
    ["text", n.text ?? ""],
    ["resource-id", n.id ?? ""],
    ["class", n.cls ?? "android.view.View"],
    ["package", n.pkg ?? PKG],
    ["content-desc", n.desc ?? ""],
    ["checkable", String(n.check ?? false)],
    ["checked", String(n.checked ?? false)],
    ["clickable", String(n.click ?? false)],
    ["enabled", String(n.enabled ?? true)],
    ["focusable", String(n.click ?? false)],
    ["focused", String(n.focused ?? false)],
    ["scrollable", String(n.scroll ?? false)],
    ["long-clickable", String(n.longClick ?? false)],
    ["password", String(n.password ?? false)],
    ["selected", String(n.selected ?? false)],
    ["bounds", `[${l},${t}][${r},${b}]`],
  ];
  if (n.hint !== undefined) attrs.push(["hint", n.hint]);
  if (n.visible === false) attrs.push(["visible-to-user", "false"]);
  if (n.order !== undefined) attrs.push(["drawing-order", String(n.order)]);
  const open = `<node ${attrs.map(([k, v]) => `${k}="${escape(v)}"`).join(" ")}`;
  const children = n.children ?? [];
  return children.length === 0 ? `${open} />` : `${open}>${children.map(nodeXml).join("")}</node>`;
}

/** A full-screen 1080x2400 root holding `children`, as `uiautomator dump` writes it. */
export function dump(children: N[], options: { trailer?: boolean } = {}): string {
  const root: N = { cls: "android.widget.FrameLayout", bounds: [0, 0, 1080, 2400], children };
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${nodeXml(root, 0)}</hierarchy>` +
    (options.trailer ? "UI hierchary dumped to: /dev/tty\n" : "");
}

/** Several window roots under <hierarchy> (app, status bar, keyboard …), each written as given, as a multi-window dump has them. */
export function windowsDump(roots: N[]): string {
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${roots.map(nodeXml).join("")}</hierarchy>`;
}

/** Shorthands for the usual widgets. */
export const button = (text: string, bounds: N["bounds"], extra: Partial<N> = {}): N => ({
  cls: "android.widget.Button",
  text,
  click: true,
  bounds,
  ...extra,
});
export const label = (text: string, bounds: N["bounds"], extra: Partial<N> = {}): N => ({
  cls: "android.widget.TextView",
  text,
  bounds,
  ...extra,
});
export const input = (bounds: N["bounds"], extra: Partial<N> = {}): N => ({
  cls: "android.widget.EditText",
  click: true,
  bounds,
  ...extra,
});

export const SCREEN = { width: 1080, height: 2400, density: 420, keyboard: { open: false } } as const;
