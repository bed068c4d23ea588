/**
 * UiAutomator2's wait for an idle UI, as the real server does it (docs/simulated-device.md "Idle waits"): the page
 * source (Source.java → AXWindowHelpers.resetAccessibilityCache → Device.waitForIdle) and an element click
 * (Click.java: after the click) wait, through androidx QueryController.waitForIdle, for
 * UiAutomation.waitForIdle(500 ms quiet, waitForIdleTimeout): they answer once the UI has had no event for the
 * quiet period, or when the timeout ends with the UI still moving (the TimeoutException is logged, not raised).
 * The timeout is the session's `waitForIdleTimeout` setting (default 10,000 ms, sessions.ts, reset by every new session; 0 or
 * less skips the wait); the settings API reads and updates it. A value that is not a number is a W3C invalid argument.
 */
import type { SessionCommand } from "./command.ts";
import { w3cError } from "./w3c_error.ts";

/** androidx.test.uiautomator QueryController.QUIET_TIME_TO_BE_CONSIDERED_IDLE_STATE. */
export const IDLE_QUIET_MS = 500;

/** Waits (the server's clock) until the device's UI is idle or the session's waitForIdleTimeout has passed. */
export async function waitForIdle(c: SessionCommand): Promise<void> {
  const timeout = c.session.settings.waitForIdleTimeout;
  if (timeout <= 0) return;
  const started = c.now();
  for (;;) {
    const left = timeout - (c.now() - started);
    if (left <= 0) return;
    const ms = c.device.msUntilIdle(IDLE_QUIET_MS, left);
    if (ms <= 0) return;
    await c.sleep(ms);
  }
}

/** GET /appium/settings: the server-side settings the simulator honours. */
export function getSettings(c: SessionCommand): Record<string, unknown> {
  return { ...c.session.settings };
}

/** POST /appium/settings `{settings: {waitForIdleTimeout: N, …}}`; settings the simulator does not model are accepted and ignored. */
export function updateSettings(c: SessionCommand): null {
  const settings = c.body["settings"];
  if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
    throw w3cError(
      "invalid argument",
      'POST /appium/settings needs a \'settings\' object, e.g. {"settings": {"waitForIdleTimeout": 3000}}.',
    );
  }
  const value = (settings as Record<string, unknown>)["waitForIdleTimeout"];
  if (value === undefined) return null;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw w3cError(
      "invalid argument",
      `Invalid 'waitForIdleTimeout' setting value type. Got: ${JSON.stringify(value)}. Expected: a number of ms.`,
    );
  }
  c.session.settings.waitForIdleTimeout = Math.trunc(value);
  return null;
}
