/**
 * The screen model's data: one node type for both dump flavours (uiautomator `<node>` and Appium
 * page source with class-name tags), the semantic selector, and the screen summary of SPEC §5.
 * Pure data, no behaviour.
 */

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
  /** The `hint` attribute (API 26+ dumps); empty when absent. */
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
  /** False only when the dump says so (`visible-to-user="false"` / `displayed="false"`). */
  visible: boolean;
  /** Null when the dump has no parsable bounds. */
  bounds: Bounds | null;
}

export interface UiTree {
  format: "uiautomator" | "appium";
  rotation: number;
  nodes: UiNode[];
}

export type SelectorKey = "resource_id" | "text" | "content_desc" | "text_contains" | "input_hint";

/** Exactly one key, optionally with `within` naming an ancestor by exactly one key. */
export type Selector =
  & Partial<Record<SelectorKey, string>>
  & { within?: Partial<Record<SelectorKey, string>> };

export type Role = "button" | "input" | "toggle";

export interface SummaryBounds {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface ActionEntry {
  selector: Selector;
  label: string;
  role: Role;
  enabled: boolean;
  bounds: SummaryBounds;
  ambiguous?: true;
  covered_by_keyboard?: true;
}

export interface AuditIssue {
  issue: "off_screen" | "zero_area" | "touch_target_too_small";
  selector: Selector;
  size_px?: [number, number];
  minimum_px?: number;
}

export interface KeyboardState {
  open: boolean;
  top?: number;
}

export interface ScreenSummary {
  foreground_package: string;
  texts: string[];
  actions: ActionEntry[];
  can_scroll: boolean;
  keyboard: KeyboardState;
  issues: AuditIssue[];
}

/** What the device tells the screen model; from flags offline, from adb later. */
export interface ScreenContext {
  width: number;
  height: number;
  /** Dots per inch as `wm density` prints it (160 = 1 dp per px). */
  density: number;
  keyboard: KeyboardState;
  /** The focused app's package when known; otherwise derived from the tree. */
  foregroundPackage?: string;
}
