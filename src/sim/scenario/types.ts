/**
 * The scenario file's shape (JSON): which Android device is simulated, its screens, installed packages
 * and the transitions that user actions trigger. Pure data; `validateScenario` checks a parsed file
 * against it and `ScenarioDevice` plays it.
 */
import type { EditorAction, SimFaults } from "../sim_device.ts";

/** A selector as the harness speaks it (SPEC §6), matched by the sim's own code. */
export type SimSelectorKey = "resource_id" | "text" | "content_desc" | "text_contains" | "input_hint";
export type SimSelector = Partial<Record<SimSelectorKey, string>> & { within?: Partial<Record<SimSelectorKey, string>> };

/** A node of a hand-made screen; rendered into a uiautomator dump (`<node …>`). */
export interface NodeSpec {
  class?: string;
  text?: string;
  id?: string;
  desc?: string;
  hint?: string;
  /** [left, top, right, bottom] in pixels. */
  bounds: [number, number, number, number];
  package?: string;
  clickable?: boolean;
  checkable?: boolean;
  checked?: boolean;
  enabled?: boolean;
  focusable?: boolean;
  focused?: boolean;
  scrollable?: boolean;
  longClickable?: boolean;
  password?: boolean;
  selected?: boolean;
  children?: NodeSpec[];
}

export interface ScreenSpec {
  package: string;
  /** Fully qualified activity class, e.g. "com.android.settings.Settings". */
  activity: string;
  /** Either a hand-made node tree… */
  root?: NodeSpec;
  /** …or a raw uiautomator dump. */
  xml?: string;
  /** When present, tapping an input opens the soft keyboard, whose top edge is here. */
  keyboard?: { top: number; openOnEnter?: boolean };
  /** The display's rotation while this screen shows (0 = natural; 1 and 3 are landscape on a phone); default 0. */
  rotation?: 0 | 1 | 2 | 3;
  /**
   * After this screen has been in front for `ms` on the device's clock it is replaced by `to` (a result that
   * arrives late, one frame of an animation); chains advance frame by frame.
   */
  after?: { ms: number; to: string };
  /** Search results: the rows are filtered by the query submitted into this screen's input (see FilterSpec). */
  filter?: FilterSpec;
  /**
   * Pixels the tree does not show (a game or canvas drawn on a SurfaceView): rectangles painted over the drawn
   * nodes, one list per animation frame; the frame shown is the device clock's `floor(now / frame_ms)` modulo their
   * number. Frames change only the screenshot, never the dump (as a game's redraws raise no accessibility event).
   */
  paint?: PaintSpec;
}

export interface PaintSpec {
  frame_ms: number;
  frames: PaintRect[][];
}

export interface PaintRect {
  /** [left, top, right, bottom] in pixels. */
  rect: [number, number, number, number];
  rgb: [number, number, number];
}

/**
 * A list filtered by a query, as a search screen shows it: when a query is submitted into the input `field` (by
 * resource-id) and this screen shows, the rows (nodes with resource-id `row`) whose texts (or `match` text) contain the query
 * (case-insensitively) stay, in order, moved up into the first rows' places (rows past the list's bottom are cut,
 * as a RecyclerView keeps only what is on screen); the others go. The `count` node's text says how many stayed
 * (`1 result`, `N results`) and the `empty` node shows only when none did, with `{query}` in its text replaced
 * (`count` and `empty` are resource-ids too).
 */
export interface FilterSpec {
  field: string;
  row: string;
  /** The resource-id of the text in each row the query is looked for in (a product's name); absent: every text of the row. */
  match?: string;
  count?: string;
  empty: string;
}

/**
 * What a Save button keeps (a tap transition): the texts of the current screen's inputs become a new row at the top
 * of the list `list` (by resource-id) on the screen shown next, a copy of that list's first row whose text nodes
 * named in `texts` (row text resource-id → input resource-id) show what was typed; the rows below move down.
 * Nothing is saved when every named input is empty (an empty note is discarded).
 */
export interface SaveSpec {
  list: string;
  texts: Record<string, string>;
}

/** Gestures and IME actions a transition can answer; scrolls name the direction the content moves into view. */
export const TRANSITION_TRIGGERS = [
  "tap",
  "long_press",
  "double_tap",
  "submit",
  "scroll_down",
  "scroll_up",
  "scroll_left",
  "scroll_right",
] as const;

export type TransitionTrigger = typeof TRANSITION_TRIGGERS[number];

export interface TransitionSpec {
  /** Screen ids this applies on; absent = every screen. */
  from?: string | string[];
  on: TransitionTrigger;
  /**
   * Taps and presses: the receiving node, an ancestor or a descendant must match. `submit` (IME action or
   * ENTER): the focused input must. Scrolls: the scrolled container (or an element inside it); a scroll
   * transition without one answers a scroll anywhere on the screen.
   */
  selector?: SimSelector;
  /** A screen id, "@back" to return to the previous screen, or "@launch:<package>". */
  to: string;
  /** The new screen takes the current one's place (a state change such as a like or results, not a new page BACK returns from). */
  replace?: boolean;
  /** A flag this sets in the screen's package data (e.g. "signed_in"): kept across force-stop, gone after `pm clear`. */
  sets?: string;
  /**
   * `submit` only: the one IME action the field's listener answers (its `imeOptions`, e.g. "search"), as an app's
   * OnEditorActionListener checks the action id; another action gets TextView's default (done closes the keyboard,
   * next moves the focus). ENTER fires it whatever this says. Absent: every IME action fires it.
   */
  ime_action?: EditorAction;
  /** `tap` only: the inputs' texts are saved as a new row of a list on the next screen (a note saved). */
  saves?: SaveSpec;
  /**
   * `tap` / `long_press`: the new screen names what was pressed, as a context menu's header does
   * (`ContextMenu.setHeaderTitle`): its node with resource-id `into` shows the text of the node with resource-id `from`
   * in the pressed element (or around it).
   */
  header?: { from: string; into: string };
}

export interface PackageSpec {
  name: string;
  system?: boolean;
  /** Screen shown when the package is launched; absent = a generated placeholder screen. */
  screen?: string;
  /** Launchable activity (short or full form); absent with no screen = not launchable. */
  activity?: string;
  label?: string;
  /** Flags in the app's data when the device starts (e.g. ["signed_in"]). */
  data?: string[];
  /** Launch screens by data flag: the first whose flag is set wins over `screen` (a signed-in app opens on its home). */
  launchWhen?: { flag: string; screen: string }[];
}

/** A deep link: a VIEW intent whose URL starts with `prefix` opens `screen` in its package's task. */
export interface LinkSpec {
  prefix: string;
  screen: string;
}

/** A notification in the shade (`cmd statusbar expand-notifications`, UiA2 open_notifications); a tap opens `screen`. */
export interface NotificationSpec {
  package: string;
  title: string;
  text: string;
  screen?: string;
}

export interface AndroidSpec {
  serial: string;
  /** API level; the shell output formats follow it (33: Android 13 dumps, 35: Android 15 dumps). */
  api: 33 | 35;
  release: string;
  model: string;
  product: string;
  device: string;
  manufacturer: string;
  brand: string;
  width: number;
  height: number;
  density: number;
  /** Features the adb server advertises (default shell_v2,cmd,stat_v2); drop shell_v2 for the legacy shell. */
  adbFeatures?: string[];
}

export interface Scenario {
  name: string;
  description: string;
  android: AndroidSpec;
  /** Screen id of the launcher (HOME key, force-stop of the foreground app). */
  home?: string;
  start: string;
  screens: Record<string, ScreenSpec>;
  packages: PackageSpec[];
  transitions: TransitionSpec[];
  /** Deep links the installed apps handle (`am start -a android.intent.action.VIEW -d URL`). */
  links?: LinkSpec[];
  /** What the notification shade shows. */
  notifications?: NotificationSpec[];
  faults?: SimFaults;
  /**
   * A still device (a replayed capture): every act is answered as on a device (taps, typing, BACK, HOME,
   * scrolls, launches) but nothing on screen changes: no transition, focus, toggle, keyboard or task moves.
   */
  frozen?: boolean;
}
