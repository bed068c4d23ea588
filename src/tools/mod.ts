/**
 * The tools this release serves, in publication order: an explicit list (a compiled binary cannot scan
 * folders). Each must be declared available in contracts/tools.ts; the server refuses to start otherwise.
 */
import { appLaunchTool } from "./app_launch.ts";
import { appListTool } from "./app_list.ts";
import { deviceBackTool } from "./device_back.ts";
import { deviceStatusTool } from "./device_status.ts";
import { settingsOpenTool } from "./settings_open.ts";
import type { ToolDefinition } from "./tool_definition.ts";
import { uiGetTreeTool } from "./ui_get_tree.ts";
import { uiScreenshotTool } from "./ui_screenshot.ts";
import { uiScrollTool } from "./ui_scroll.ts";
import { uiSessionCloseTool } from "./ui_session_close.ts";
import { uiSessionOpenTool } from "./ui_session_open.ts";
import { uiTapTool } from "./ui_tap.ts";
import { uiTypeTextTool } from "./ui_type_text.ts";

export const SERVED_TOOLS: readonly ToolDefinition[] = [
  deviceStatusTool, uiGetTreeTool, uiScreenshotTool, appListTool,
  appLaunchTool, settingsOpenTool, uiTapTool, uiTypeTextTool, uiScrollTool, deviceBackTool, uiSessionOpenTool, uiSessionCloseTool,
];

export type { OperationContext, ToolDefinition, ToolOutcome, ToolPorts } from "./tool_definition.ts";
