/**
 * The declared catalog: every tool of SPEC §4 with its title, a short description, the four MCP
 * annotations and whether it is available in this release. The server publishes exactly the available
 * ones, in this order; a tool that is not declared here cannot appear (the catalog test compares them).
 */
import type { ToolName } from "./tool_inputs.ts";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

export interface ToolContract {
  name: ToolName;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  available: boolean;
}

/** Tool names as MCP clients accept them (dots break Claude Desktop, Copilot CLI and Codex). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const observe: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const act: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

const DECLARED: readonly ToolContract[] = [
  {
    name: "device_status", title: "Device status", annotations: observe, available: true,
    description: "Device udid, model, API level, screen size and density, foreground app, keyboard state. Read-only.",
  },
  {
    name: "ui_get_tree", title: "Screen summary", annotations: observe, available: true,
    description: "Texts and every actionable element, each with the selector naming it alone (for ui_tap). " +
      "Read-only; include_raw adds the XML. Actions: bounds [left, top, width, height] px; absent role = button, " +
      "enabled = true, label = the selector's value; checked, selected, focused, password, covered_by_keyboard only when true. " +
      "Absent: can_scroll false, keyboard closed, issues none.",
  },
  {
    name: "ui_screenshot", title: "Screenshot", annotations: { ...observe, idempotentHint: false }, available: true,
    description: "Screen as PNG evidence: a downscaled image and an artifact:// link to the full one; annotate numbers data.actions on it.",
  },
  {
    name: "app_list", title: "Installed apps", annotations: observe, available: true,
    description: "Installed package names, optionally filtered by a substring; system apps only with include_system.",
  },
  {
    name: "app_launch", title: "Launch app", annotations: { ...act, idempotentHint: true }, available: true,
    description: "Brings a package to the foreground and waits until it is there. Returns the new screen summary.",
  },
  {
    name: "settings_open", title: "Open Settings", annotations: { ...act, idempotentHint: true }, available: true,
    description: "Brings Android Settings to the foreground. Returns the new screen summary.",
  },
  {
    name: "ui_tap", title: "Tap element", annotations: act, available: true,
    description: "Taps the one element the selector names. Returns the new screen summary.",
  },
  {
    name: "ui_type_text", title: "Type text", annotations: { ...act, destructiveHint: true }, available: true,
    description: "Replaces the text of the input the selector names. Returns the new screen summary.",
  },
  {
    name: "ui_scroll", title: "Scroll", annotations: act, available: true,
    description: "Scrolls the screen up or down. Returns the new screen summary.",
  },
  {
    name: "device_back", title: "Back", annotations: act, available: true,
    description: "Presses Back (also closes the keyboard). Returns the new screen summary.",
  },
  {
    name: "ui_session_open", title: "Open session", annotations: act, available: true,
    description: "Opens a UI session for several actions; returns its session_id and expiry.",
  },
  {
    name: "ui_session_close", title: "Close session", annotations: { ...act, idempotentHint: true }, available: true,
    description: "Closes a UI session. Closing an unknown or closed session succeeds.",
  },
];

/** Every declared tool, in publication order. */
export const TOOL_CONTRACTS: readonly ToolContract[] = DECLARED;

/** The declared tools that the server publishes in this release. */
export const AVAILABLE_TOOL_NAMES: readonly ToolName[] = DECLARED.filter((t) => t.available).map((t) => t.name);

/** Lookup by name (the contract test checks that all twelve are declared). */
export const TOOL_CONTRACT_BY_NAME = Object.fromEntries(DECLARED.map((t) => [t.name, t])) as Record<ToolName, ToolContract>;
