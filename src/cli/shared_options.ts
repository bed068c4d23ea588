/** The options several subcommands share, with their help texts, written once so they cannot drift apart. */
import type { Command } from "cac";

export const DEVICE_HELP = "Device serial, or 'sim' for the built-in simulated device (default: ANDROID_UDID, else the only online device)";

export const APPIUM_URL_HELP = "Appium server (default: APPIUM_URL, else http://127.0.0.1:4723)";

/** `what`: what the directory holds for this command (e.g. "Evidence and audit"). */
export function artifactsHelp(what: string): string {
  return `${what} directory (default: ANDROID_MCP_ARTIFACTS_DIR, else ./artifacts in a project (a package.json or .git), else the user state directory)`;
}

/** `--device`, `--appium-url` and `--artifacts` (holding `artifacts`, e.g. "Evidence and audit"), as serve and doctor take them. */
export function withDeviceOptions(command: Command, artifacts: string): Command {
  return command
    .option("--device <udid|sim>", DEVICE_HELP)
    .option("--appium-url <url>", APPIUM_URL_HELP)
    .option("--artifacts <dir>", artifactsHelp(artifacts));
}
