/**
 * The declared catalog: every tool of SPEC §4 declared once, in publication order: title, a short
 * description, its input (a strict zod object) with the error code each refused argument produces, an
 * access kind from which the four MCP annotations follow, how it meets a UI session holding the device,
 * and the schema of its `data`. The server publishes exactly the available ones; handlers are typed by it.
 */
import * as z from "zod";
import type { ErrorCode } from "./error_codes.ts";
import { actData, DeviceStatusDataSchema, ScreenSummarySchema, SelectorDataSchema, SessionInfoShape } from "./tool_data.ts";
import {
  ApkPathSchema,
  PackageNameSchema,
  PublishedDeviceSchema,
  publishedSelector,
  PublishedSelectorSchema,
  PublishedSessionIdSchema,
  StoppablePackageSchema,
  TypedTextSchema,
  UrlSchema,
  WaitInputSchema,
} from "./tool_inputs.ts";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

/** What a call does to the device: the annotations follow from it (idempotentHint may be overridden). */
export type AccessKind = "observe" | "act" | "destructive";

/**
 * How a call meets a UI session this server holds on the device: `observe` passes beside it, `act` must
 * name it (or finds the device busy), `open_session` needs the device free and keeps its lock in the new
 * session, `none` touches no device (neither resolved nor locked).
 */
export type DeviceAccess = "observe" | "act" | "open_session" | "none";

/**
 * What a tool answers: the screen summary itself (`summary`), a screen among its fields (`screen`), an act's
 * outcome with the new screen (`act`, every tool whose device access is `act`), or plain fields (`fields`).
 */
export type ToolAnswer = "summary" | "screen" | "act" | "fields";

type InputShape = z.core.$ZodLooseShape;

export interface ToolDeclaration<
  I extends z.ZodObject<InputShape> = z.ZodObject<InputShape>,
  D extends z.ZodType = z.ZodType,
  A extends DeviceAccess = DeviceAccess,
> {
  title: string;
  description: string;
  access: AccessKind;
  /** Only where it differs from what `access` implies (observe: true, act and destructive: false). */
  idempotent?: boolean;
  /** Kept as its literal: a tool whose device access is `act` must be handled through the act pipeline (ActToolName). */
  device: A;
  /** What its answer is, which says how its text block reads (src/mcp/response.ts). */
  answers: ToolAnswer;
  input: I;
  /** The code a refused argument produces, by argument name; any other is INVALID_ARGUMENT. */
  argumentErrors?: { readonly [K in keyof z.infer<I>]?: ErrorCode };
  data: D;
  available: boolean;
  /**
   * Set where guessing the device would be dangerous (what it removes cannot be undone: app_clear, app_uninstall):
   * while more than one device is online, a call without `device` is refused (INVALID_ARGUMENT), bound device or not.
   */
  needsDevice?: true;
  /**
   * Arguments of a call that succeeds on the simulated device's `login` scenario from its first screen, where
   * `{}` does not (tests/contract/output_schemas.test.ts makes it for a tool its own sequence of calls leaves out).
   */
  example?: z.input<I>;
}

function declare<I extends z.ZodObject<InputShape>, D extends z.ZodType, A extends DeviceAccess>(
  declaration: ToolDeclaration<I, D, A>,
): ToolDeclaration<I, D, A> {
  return declaration;
}

/** Tool names as MCP clients accept them (dots break Claude Desktop, Copilot CLI and Codex). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const session_id = PublishedSessionIdSchema.optional();
/** Every tool that touches a device takes it (device_status's description says what it is; the gate alone reads it). */
const device = PublishedDeviceSchema.optional();
const selectorErrors = { selector: "INVALID_SELECTOR" } as const;

/** What ui_tap does to its element (never to a point). */
export const GESTURES = ["tap", "long_press", "double_tap"] as const;
export const SCROLL_DIRECTIONS = ["up", "down", "left", "right"] as const;
/** ui_type_text's `submit`: the keyboard's action key (EditorInfo IME actions), or the ENTER key. */
export const SUBMIT_ACTIONS = ["search", "go", "send", "done", "enter"] as const;
/** device_press's keys (back is device_back); `notifications` pulls the shade down. */
export const DEVICE_KEYS = ["home", "app_switch", "enter", "delete", "notifications"] as const;
/** How many swipes ui_scroll's `until` makes at most (each within the call's deadline). */
export const UNTIL_MAX_SWIPES = 15;

export const TOOLS = {
  device_status: declare({
    title: "Device status",
    access: "observe",
    device: "observe",
    answers: "fields",
    available: true,
    description: "Device udid, model, API level, screen size and density, foreground app, keyboard state. " +
      "devices: those online. Device tools take device (a serial or model); omitted: default_device.",
    input: z.strictObject({ device }),
    data: DeviceStatusDataSchema,
  }),
  ui_get_tree: declare({
    title: "Screen summary",
    access: "observe",
    device: "observe",
    answers: "summary",
    available: true,
    description: "Texts and every actionable element, each with the selector naming it alone (for ui_tap). " +
      "include_raw adds the XML. Actions: bounds [left, top, width, height] px; absent role = button, " +
      "enabled = true, label = the selector's value; long_press, checked, selected, focused, password, covered_by_keyboard only when true; " +
      "covered_by: what is drawn over it (tap refused). Absent: can_scroll false, keyboard closed, issues none.",
    input: z.strictObject({ include_raw: z.boolean().optional(), device }),
    data: ScreenSummarySchema.extend({ raw: z.string().optional() }),
  }),
  ui_wait: declare({
    title: "Wait",
    access: "observe",
    device: "observe",
    answers: "screen",
    available: true,
    description: "Waits until a selector names an element (visible) or none (gone); give one. Returns the screen summary.",
    input: WaitInputSchema,
    argumentErrors: { visible: "INVALID_SELECTOR", gone: "INVALID_SELECTOR" },
    data: z.object({ waited_ms: z.int(), screen: ScreenSummarySchema }),
  }),
  ui_screenshot: declare({
    title: "Screenshot",
    access: "observe",
    idempotent: false,
    device: "observe",
    answers: "fields",
    available: true,
    description: "Screen as PNG evidence: a downscaled image and an artifact:// link to the full one; annotate numbers data.actions on it.",
    input: z.strictObject({ annotate: z.boolean().optional(), device }),
    data: z.object({
      width: z.number(),
      height: z.number(),
      fingerprint: z.string(),
      actions: ScreenSummarySchema.shape.actions.optional(),
    }),
  }),
  app_list: declare({
    title: "Installed apps",
    access: "observe",
    device: "observe",
    answers: "fields",
    available: true,
    description: "Installed package names, optionally filtered by a substring; system apps only with include_system.",
    input: z.strictObject({
      filter: z.string().max(100).regex(/^[A-Za-z0-9._]*$/).optional(),
      include_system: z.boolean().optional(),
      device,
    }),
    data: z.object({ packages: z.array(z.string()), count: z.int(), include_system: z.boolean() }),
  }),
  app_launch: declare({
    title: "Launch app",
    access: "act",
    idempotent: true,
    device: "act",
    answers: "act",
    available: true,
    description: "Brings a package to the foreground and waits until it is there; restart force-stops it first. " +
      "Returns the new screen summary.",
    input: z.strictObject({ package: StoppablePackageSchema, restart: z.boolean().optional(), session_id, device }),
    argumentErrors: { package: "INVALID_PACKAGE" },
    data: actData({ package: z.string(), stopped: z.boolean().optional() }),
  }),
  settings_open: declare({
    title: "Open Settings",
    access: "act",
    idempotent: true,
    device: "act",
    answers: "act",
    available: true,
    description: "Brings Android Settings to the foreground. Returns the new screen summary.",
    input: z.strictObject({ session_id, device }),
    data: actData({}),
  }),
  ui_tap: declare({
    title: "Tap element",
    access: "act",
    device: "act",
    answers: "act",
    available: true,
    description: "Taps, long-presses or double-taps the one element the selector names. Returns the new screen summary.",
    input: z.strictObject({ selector: PublishedSelectorSchema, gesture: z.enum(GESTURES).optional(), session_id, device }),
    argumentErrors: selectorErrors,
    data: actData({ target: SelectorDataSchema, element_label: z.string().optional(), gesture: z.enum(GESTURES) }),
  }),
  ui_type_text: declare({
    title: "Type text",
    access: "destructive",
    device: "act",
    answers: "act",
    available: true,
    description: "Replaces (append: adds to) the text of the input the selector names; submit then presses the keyboard's action key. " +
      "Returns the new screen summary.",
    input: z.strictObject({
      selector: PublishedSelectorSchema,
      text: TypedTextSchema,
      append: z.boolean().optional(),
      submit: z.enum(SUBMIT_ACTIONS).optional(),
      session_id,
      device,
    }),
    argumentErrors: { ...selectorErrors, text: "INVALID_TEXT" },
    data: actData({ target: SelectorDataSchema, element_label: z.string().optional(), typed_length: z.int() }),
  }),
  ui_scroll: declare({
    title: "Scroll",
    access: "act",
    device: "act",
    answers: "act",
    available: true,
    description: "Scrolls container, else the largest area along direction, one page (direction: toward the content to show). " +
      `until: scrolls up to ${UNTIL_MAX_SWIPES} pages until that element is on screen. Returns the new screen summary.`,
    input: z.strictObject({
      direction: z.enum(SCROLL_DIRECTIONS),
      container: publishedSelector(
        "The scroll area: a selector (keys as ui_tap's) from scroll_areas, or of any element inside it.",
      ).optional(),
      until: publishedSelector("A selector (keys as ui_tap's) of the element to bring on screen.").optional(),
      session_id,
      device,
    }),
    argumentErrors: { direction: "INVALID_SCROLL_DIRECTION", container: "INVALID_SELECTOR", until: "INVALID_SELECTOR" },
    data: actData({
      direction: z.enum(SCROLL_DIRECTIONS),
      scrolled: z.boolean(),
      swipes: z.int().optional(),
      at_end: z.literal(true).optional(),
      found: SelectorDataSchema.optional(),
    }),
  }),
  device_back: declare({
    title: "Back",
    access: "act",
    device: "act",
    answers: "act",
    available: true,
    description: "Presses Back (or closes the keyboard). Returns the new screen summary.",
    input: z.strictObject({ session_id, device }),
    data: actData({ keyboard_closed: z.boolean() }),
  }),
  device_press: declare({
    title: "Press key",
    access: "act",
    device: "act",
    answers: "act",
    available: true,
    description: "Presses a key: home, app_switch (recents), enter, delete, or notifications (opens the shade). " +
      "Returns the new screen summary.",
    input: z.strictObject({ key: z.enum(DEVICE_KEYS), session_id, device }),
    data: actData({ key: z.enum(DEVICE_KEYS) }),
  }),
  app_open_url: declare({
    title: "Open link",
    access: "act",
    device: "act",
    answers: "act",
    available: true,
    description: "Opens a deep link (https:// or an app's scheme; never file:, content:, javascript:, intent:), " +
      "optionally in one package. " +
      "Returns the new screen summary.",
    input: z.strictObject({ url: UrlSchema, package: PackageNameSchema.optional(), session_id, device }),
    argumentErrors: { package: "INVALID_PACKAGE" },
    data: actData({ url: z.string() }),
  }),
  app_clear: declare({
    title: "Clear app data",
    access: "destructive",
    idempotent: true,
    device: "act",
    answers: "act",
    available: true,
    description: "Stops a package and deletes all its data (signed out, as installed). Returns the new screen summary.",
    input: z.strictObject({ package: StoppablePackageSchema, session_id, device }),
    needsDevice: true,
    argumentErrors: { package: "INVALID_PACKAGE" },
    data: actData({ package: z.string() }),
  }),
  app_install: declare({
    title: "Install app",
    access: "act",
    device: "act",
    answers: "act",
    available: true,
    description: "Installs an APK file of this machine (absolute path); replace: false refuses an installed package. " +
      "Returns its package, version and the new screen summary.",
    input: z.strictObject({ path: ApkPathSchema, replace: z.boolean().optional(), session_id, device }),
    data: actData({ package: z.string(), version_name: z.string().optional(), version_code: z.int().optional(), replaced: z.boolean() }),
  }),
  app_uninstall: declare({
    title: "Uninstall app",
    access: "destructive",
    device: "act",
    answers: "act",
    available: true,
    description: "Removes an installed package and all its data. Returns the new screen summary.",
    input: z.strictObject({ package: StoppablePackageSchema, session_id, device }),
    needsDevice: true,
    argumentErrors: { package: "INVALID_PACKAGE" },
    data: actData({ package: z.string() }),
  }),
  ui_session_open: declare({
    title: "Open session",
    access: "act",
    device: "open_session",
    answers: "screen",
    available: true,
    description:
      "Opens a UI session for several actions; returns its session_id and expiry; with package, launches it and returns the screen.",
    input: z.strictObject({ package: PackageNameSchema.optional(), device }),
    argumentErrors: { package: "INVALID_PACKAGE" },
    data: z.object({
      ...SessionInfoShape,
      package: z.string().optional(),
      foreground_package: z.string().optional(),
      screen: ScreenSummarySchema.optional(),
    }),
  }),
  ui_session_close: declare({
    title: "Close session",
    access: "act",
    idempotent: true,
    device: "none",
    answers: "fields",
    available: true,
    description: "Closes a UI session. Closing an unknown or closed session succeeds.",
    input: z.strictObject({ session_id: PublishedSessionIdSchema }),
    data: z.object({ session_id: z.string(), closed: z.boolean() }),
  }),
  screen_record: declare({
    title: "Record",
    access: "observe",
    idempotent: false,
    device: "observe",
    answers: "fields",
    available: true,
    description: "start, then stop: the screen as artifact:// MP4 (≤ 10 min).",
    input: z.strictObject({ action: z.enum(["start", "stop"]), device }),
    data: z.object({
      recording: z.boolean(),
      max_seconds: z.int().optional(),
      seconds: z.number().optional(),
      reached_limit: z.boolean().optional(),
      segments: z.array(z.string()).optional(),
      skipped: z.int().optional(),
    }),
    example: { action: "start" },
  }),
};

type Tools = typeof TOOLS;
export type ToolName = keyof Tools;
export type ToolInput<N extends ToolName> = z.output<Tools[N]["input"]>;
export type ToolData<N extends ToolName> = z.output<Tools[N]["data"]>;
/** The tools declared with device access `act`: their handlers come from device/act.ts's defineActTool (ToolHandlers). */
export type ActToolName = { [N in ToolName]: Tools[N]["device"] extends "act" ? N : never }[ToolName];

/** Every declared tool name, in publication order. */
export const TOOL_NAMES = Object.keys(TOOLS) as ToolName[];

/** The strict input schema of every tool, by name. */
export const TOOL_INPUTS = Object.fromEntries(TOOL_NAMES.map((name) => [name, TOOLS[name].input])) as {
  [N in ToolName]: Tools[N]["input"];
};

/** The four MCP annotations, from the access kind. */
export function annotationsOf(tool: ToolDeclaration): ToolAnnotations {
  const observe = tool.access === "observe";
  const destructive = tool.access === "destructive";
  return { readOnlyHint: observe, destructiveHint: destructive, idempotentHint: tool.idempotent ?? observe, openWorldHint: false };
}

export interface ToolContract {
  name: ToolName;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  available: boolean;
}

/** Every declared tool's published metadata, in publication order. */
export const TOOL_CONTRACTS: readonly ToolContract[] = TOOL_NAMES.map((name) => {
  const { title, description, available } = TOOLS[name];
  return { name, title, description, annotations: annotationsOf(TOOLS[name]), available };
});

/** The declared tools that the server publishes in this release. */
export const AVAILABLE_TOOL_NAMES: readonly ToolName[] = TOOL_NAMES.filter((name) => TOOLS[name].available);

/** Lookup by name (the contract test checks that all fifteen are declared). */
export const TOOL_CONTRACT_BY_NAME = Object.fromEntries(TOOL_CONTRACTS.map((t) => [t.name, t])) as Record<ToolName, ToolContract>;
