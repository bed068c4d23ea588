/**
 * The handler of every declared tool, in one record the compiler checks against contracts/tools.ts (a
 * declared tool without a handler, or a handler without a declaration, does not compile); the served
 * list is the declared available ones, in publication order (a compiled binary cannot scan folders).
 */
import { AVAILABLE_TOOL_NAMES } from "../../contracts/tools.ts";
import type { AnyToolHandler, ToolHandlers } from "../ports/operation.ts";
import { appClearTool } from "./app_clear.ts";
import { appInstallTool } from "./app_install.ts";
import { appLaunchTool } from "./app_launch.ts";
import { appListTool } from "./app_list.ts";
import { appOpenUrlTool } from "./app_open_url.ts";
import { appUninstallTool } from "./app_uninstall.ts";
import { deviceBackTool } from "./device_back.ts";
import { devicePressTool } from "./device_press.ts";
import { deviceStatusTool } from "./device_status.ts";
import { settingsOpenTool } from "./settings_open.ts";
import { uiGetTreeTool } from "./ui_get_tree.ts";
import { uiScreenshotTool } from "./ui_screenshot.ts";
import { screenRecordTool } from "./screen_record.ts";
import { uiScrollTool } from "./ui_scroll.ts";
import { uiSessionCloseTool } from "./ui_session_close.ts";
import { uiSessionOpenTool } from "./ui_session_open.ts";
import { uiTapTool } from "./ui_tap.ts";
import { uiTypeTextTool } from "./ui_type_text.ts";
import { uiWaitTool } from "./ui_wait.ts";

export const TOOL_HANDLERS: ToolHandlers = {
  device_status: deviceStatusTool,
  ui_get_tree: uiGetTreeTool,
  ui_wait: uiWaitTool,
  ui_screenshot: uiScreenshotTool,
  app_list: appListTool,
  app_launch: appLaunchTool,
  settings_open: settingsOpenTool,
  ui_tap: uiTapTool,
  ui_type_text: uiTypeTextTool,
  ui_scroll: uiScrollTool,
  device_back: deviceBackTool,
  device_press: devicePressTool,
  app_open_url: appOpenUrlTool,
  app_clear: appClearTool,
  app_install: appInstallTool,
  app_uninstall: appUninstallTool,
  ui_session_open: uiSessionOpenTool,
  ui_session_close: uiSessionCloseTool,
  screen_record: screenRecordTool,
};

/** The handlers this release serves, in publication order. */
export const SERVED_TOOLS: readonly AnyToolHandler[] = AVAILABLE_TOOL_NAMES.map((name) => TOOL_HANDLERS[name]);
