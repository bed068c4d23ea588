/**
 * Appium's failures and the W3C client's (w3c_session.ts, said as webdriverio said them), translated into the
 * closed list of codes with a message that says what to do (texts as Appium 3.8 + UiAutomator2 8.7 really answer, ../shared/notes). Only the
 * first line of a foreign message is quoted, cut to a bound; no stack trace ever passes.
 */
import { HarnessError } from "../../errors.ts";

const QUOTE_LIMIT = 240;

export function appiumFailure(error: unknown, endpoint: string, doing: string): HarnessError {
  if (error instanceof HarnessError) return error;
  const name = typeof (error as { name?: unknown })?.name === "string" ? (error as Error).name : "";
  const raw = typeof (error as { message?: unknown })?.message === "string" ? (error as Error).message : String(error);
  const said = quote(raw);
  if (
    /Unable to connect to|ECONNREFUSED|make sure browser driver is running|WebDriver compatible server running|Failed to fetch|fetch failed|ENOTFOUND|EHOSTUNREACH/i
      .test(raw)
  ) {
    return new HarnessError(
      "APPIUM_UNAVAILABLE",
      `Nothing answers at the Appium URL ${endpoint} while ${doing}. Start Appium 3 (e.g. \`npx appium\`) or set APPIUM_URL / --appium-url to where it runs.`,
      { endpoint },
    );
  }
  if (/Could not find a driver for automationName/i.test(raw)) {
    return new HarnessError(
      "APPIUM_UNAVAILABLE",
      `The Appium server at ${endpoint} has no UiAutomator2 driver. Install it with \`appium driver install uiautomator2\`, restart Appium, and retry.`,
      { endpoint },
    );
  }
  if (/Neither ANDROID_HOME nor ANDROID_SDK_ROOT/i.test(raw)) {
    return new HarnessError(
      "APPIUM_UNAVAILABLE",
      `The Appium server at ${endpoint} cannot find the Android SDK: start it with ANDROID_HOME set to an SDK holding platform-tools.`,
      { endpoint },
    );
  }
  if (/Could not find a connected Android device|was not in the list of connected devices|device .* not found|device offline/i.test(raw)) {
    return new HarnessError("EMULATOR_UNAVAILABLE", `Appium cannot reach the device while ${doing}: ${said}. Check \`adb devices\`.`, {
      endpoint,
    });
  }
  if (name === "invalid session id" || /terminated or not started|invalid session id|A session is either terminated/i.test(raw)) {
    return new HarnessError(
      "SESSION_NOT_FOUND",
      `The Appium session ended on the server's side while ${doing} (the driver crashed, or another client took the device). Retry; an explicit session must be opened again with ui_session_open.`,
      { endpoint },
    );
  }
  if (
    name === "stale element reference" || name === "no such element" || /stale element reference|does not exist in DOM anymore/i.test(raw)
  ) {
    return new HarnessError(
      "UI_ELEMENT_NOT_FOUND",
      `The element was gone from the screen while ${doing} (the screen changed after it was found). Read the screen again with ui_get_tree and retry.`,
      { endpoint },
    );
  }
  if (/unable to resolve Intent/i.test(raw)) {
    // Not quoted: Android's text prints the intent's data (a custom scheme's userinfo and query: secrets R38 keeps out of reports).
    return new HarnessError(
      "APP_NOT_FOUND",
      `Nothing on the device handles the link while ${doing} (Android could not resolve its VIEW intent). ` +
        "Check the URL's scheme and host, or install the app that opens it (app_list shows what is installed).",
      { endpoint },
    );
  }
  if (/pm clear .*exited with code|Command output: Failed/i.test(raw)) {
    return new HarnessError(
      "APP_NOT_FOUND",
      `The app's data could not be cleared while ${doing}: ${said}. Check the package with app_list.`,
      { endpoint },
    );
  }
  if (name === "invalid argument" || /^invalid argument/i.test(raw)) {
    return new HarnessError("INVALID_ARGUMENT", `The UiAutomator2 driver refused the arguments while ${doing}: ${said}.`, { endpoint });
  }
  if (/is not installed|No such package|Activity .* does not exist|Unable to resolve launchable activity/i.test(raw)) {
    return new HarnessError("APP_NOT_FOUND", `The app could not be started while ${doing}: ${said}. Check the package with app_list.`, {
      endpoint,
    });
  }
  if (name === "TimeoutError" || /timed? ?out|ETIMEDOUT|aborted/i.test(raw)) {
    return new HarnessError(
      "OPERATION_TIMEOUT",
      `Appium at ${endpoint} did not answer in time while ${doing}; retry, or raise ANDROID_MCP_ACTION_TIMEOUT.`,
      { endpoint },
    );
  }
  return new HarnessError(
    "APPIUM_UNAVAILABLE",
    `Appium at ${endpoint} failed while ${doing}: ${said}. Retry; if it persists, check the Appium server's log.`,
    { endpoint, ...(name === "" ? {} : { w3c_error: name.slice(0, 60) }) },
  );
}

function quote(message: string): string {
  const first = message.split("\n", 1)[0]!.trim();
  return first.length > QUOTE_LIMIT ? `${first.slice(0, QUOTE_LIMIT - 1)}…` : first;
}
