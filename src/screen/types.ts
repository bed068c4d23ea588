/**
 * The screen model's data: one node type for both dump flavours (uiautomator `<node>` and Appium
 * page source with class-name tags), the semantic selector, and the screen summary of SPEC §5.
 * Pure data, no behaviour. Where the summary leaves a field out, the comment says what its absence
 * means: the summary says each thing once (docs/screen-model.md lists every such rule).
 */
import type { Role, Selector } from "../../contracts/selector_names.ts";

/** Selector key names, roles and the selector shape come from the one list in contracts/selector_names.ts. */
export type { Role, Selector, SelectorKey, SelectorKeyValue, TextKey } from "../../contracts/selector_names.ts";

export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface UiNode {
  /** Position in document order, 0-based; also the node's identity inside one tree. */
  id: number;
  parent: number | null;
  children: number[];
  depth: number;
  className: string;
  packageName: string;
  text: string;
  resourceId: string;
  contentDesc: string;
  /** The `hint` attribute (API 26+ dumps); when an input shows its hint as text (`showing-hint`), that text. */
  hint: string;
  checkable: boolean;
  checked: boolean;
  clickable: boolean;
  longClickable: boolean;
  enabled: boolean;
  focusable: boolean;
  focused: boolean;
  scrollable: boolean;
  selected: boolean;
  password: boolean;
  /** A password field's text length (its text itself is blanked when parsed); absent when empty or not a password. */
  textLength?: number;
  /** False only when the dump says so (`visible-to-user="false"` / `displayed="false"`). */
  visible: boolean;
  /** Null when the dump has no parsable bounds. */
  bounds: Bounds | null;
  /** Its place in its parent's drawing order (`drawing-order`, API 24+ dumps), when the dump says. */
  drawingOrder?: number;
}

export interface UiTree {
  format: "uiautomator" | "appium";
  rotation: number;
  nodes: UiNode[];
  /** Screen size when the dump states it (Appium's `<hierarchy width height>`), else null. */
  declaredSize: { width: number; height: number } | null;
}

/** An element's rectangle in px, as the locator reports it (LocatedElement, ambiguity candidates). */
export interface ElementRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** `[left, top, width, height]` in px: the key names are said once, here and in the schema, not per entry. */
export type SummaryBounds = [left: number, top: number, width: number, height: number];

export interface ActionEntry {
  /** Names this element alone (SPEC §5 reachability law); `index` only when no key or `within` separates it. */
  selector: Selector;
  /** The human name (its own, else the nearest readable label beside or above it). Absent when it is the first line of the selector's own value. */
  label?: string;
  /** Absent means "button" (the documented default); `input` and `toggle` are always present. */
  role?: Exclude<Role, "button">;
  /** It takes a long press (`long-clickable`: `ui_tap` with `gesture: "long_press"`, a context menu); absent means it does not. */
  long_press?: true;
  /** Present (as false) only for a disabled element: absent means enabled. */
  enabled?: false;
  /** A toggle that is on; absent means off (or not a toggle). */
  checked?: true;
  /** A selected tab or item; absent means not selected. */
  selected?: true;
  /** The input that has the focus (where typed text goes); absent means not focused. */
  focused?: true;
  /** A password field: its text is never shown anywhere; absent means not a password. */
  password?: true;
  /** A password field's text length in characters, when it holds text. */
  text_length?: number;
  bounds: SummaryBounds;
  /** The element lies entirely below the top of the open soft keyboard. */
  covered_by_keyboard?: true;
  /** The label of a view drawn over the element's centre that would take a tap (a sheet, a bar); ui_tap refuses it until that is gone. */
  covered_by?: string;
}

export interface AuditIssue {
  issue: "off_screen" | "zero_area" | "touch_target_too_small";
  selector: Selector;
  size_px?: [number, number];
  minimum_px?: number;
}

export type ScrollAxis = "vertical" | "horizontal";

/** One scroll area, for `ui_scroll.container`: listed only when a screen has several, or one scrolling sideways. */
export interface ScrollArea {
  /**
   * Leads to this area through `scrollContainerOf` (the nearest scroll area at or above what it names):
   * the area's own key when it has one, else the selector of an action or a text inside it.
   */
  selector: Selector;
  /** Absent means "vertical" (the documented default, as `role` is for a button); "horizontal" is always written. */
  axis?: "horizontal";
  /** The area's own readable name (content-desc, text); absent when it has none or the selector says it. */
  label?: string;
}

export interface KeyboardState {
  open: boolean;
  top?: number;
}

export interface ScreenSummary {
  foreground_package: string;
  /** Visible texts in reading order, once each, leaving out those an action already carries as its label or selector value. */
  texts: string[];
  actions: ActionEntry[];
  /** Present (as true) only when something on screen scrolls: absent means nothing does. */
  can_scroll?: true;
  /**
   * Every scroll area, in document order, when there are two or more or one scrolls sideways; absent
   * otherwise (one vertical area: `can_scroll` says it all, and `ui_scroll` without `container` scrolls it).
   */
  scroll_areas?: ScrollArea[];
  /** Present only while the soft keyboard is open: absent means closed. */
  keyboard?: { open: true; top?: number };
  /** Present only when the audit found something: absent means no issues. */
  issues?: AuditIssue[];
  /**
   * The screen's fingerprint (src/png/fingerprint.ts: 40 cells of mean brightness, 80 hex digits), present only where
   * the answer took a screenshot (an act's evidence): the tree alone is read without one.
   */
  fingerprint?: string;
}

/** What the device tells the screen model; from flags offline, from adb later. */
export interface ScreenContext {
  /** Screen size in px; 0 when unknown (then only the left and top edges are checked for off_screen). */
  width: number;
  height: number;
  /** Dots per inch as `wm density` prints it (160 = 1 dp per px). Absent or 0: unknown, so touch target sizes are not audited. */
  density?: number;
  keyboard: KeyboardState;
  /** The focused app's package when known; otherwise derived from the tree. */
  foregroundPackage?: string;
}

/** One read of the screen as the device observer gives it (ports/device.ts names it for its callers). */
export interface TreeCapture {
  /** The raw hierarchy XML exactly as the device printed it, trailer removed. */
  xml: string;
  screen: { width: number; height: number; density: number };
  keyboard: KeyboardState;
  foregroundPackage: string;
}
