/**
 * Opens a deep link through adb for the UI session's `deepLink` (issue 25 item 9): the line `am start -W -a
 * android.intent.action.VIEW -d URL [PKG]` the UiAutomator2 driver's `mobile: deepLink` would run, with the URL as
 * one quoted word (adb_commands.ts shellWord): the driver escapes only `&`, so a `?`, `[` or `]` of an allowed URL
 * reached the device's sh unquoted and could be globbed into another URL. AOSP's `unable to resolve Intent` is
 * APP_NOT_FOUND (said without the intent's data, which holds the URL's query), another `Error:` line likewise with
 * its text, a non-zero status EMULATOR_UNAVAILABLE.
 */
import { HarnessError } from "../../errors.ts";
import type { AdbClient } from "./adb_client.ts";
import { ADB_COMMANDS } from "./adb_commands.ts";

export async function openLinkThroughAdb(
  adb: AdbClient,
  link: { udid: string; url: string; packageName?: string },
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<void> {
  const command = ADB_COMMANDS.startView(link.url, link.packageName);
  const result = await adb.run(command, { ...options, serial: link.udid });
  const said = `${result.stdout.toString("utf8")}\n${result.stderr}`;
  if (/unable to resolve Intent/i.test(said)) {
    throw new HarnessError(
      "APP_NOT_FOUND",
      "Nothing on the device handles the link while opening the link (Android could not resolve its VIEW intent). " +
        "Check the URL's scheme and host, or install the app that opens it (app_list shows what is installed).",
    );
  }
  const error = /^Error: (.{1,200})/m.exec(said)?.[1];
  if (error !== undefined) {
    throw new HarnessError(
      "APP_NOT_FOUND",
      `The device did not open the link: ${error.replace(/dat=\S+/g, "dat=…")}. Check the package with app_list.`,
    );
  }
  if (result.exitCode !== 0) {
    throw new HarnessError(
      "EMULATOR_UNAVAILABLE",
      `'adb shell am start' exited ${result.exitCode} while opening the link; check \`adb devices\` and retry.`,
    );
  }
}
