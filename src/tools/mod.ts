/**
 * The tools this release serves, in publication order: an explicit list (a compiled binary cannot scan
 * folders). Each must be declared available in contracts/tools.ts; the server refuses to start otherwise.
 */
import { appListTool } from "./app_list.ts";
import { deviceStatusTool } from "./device_status.ts";
import type { ToolDefinition } from "./tool_definition.ts";
import { uiGetTreeTool } from "./ui_get_tree.ts";
import { uiScreenshotTool } from "./ui_screenshot.ts";

export const SERVED_TOOLS: readonly ToolDefinition[] = [deviceStatusTool, uiGetTreeTool, uiScreenshotTool, appListTool];

export type { OperationContext, ToolDefinition, ToolOutcome, ToolPorts } from "./tool_definition.ts";
