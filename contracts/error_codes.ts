/**
 * The closed list of error codes (SPEC §3). Adding a code means changing this file first.
 * Each code carries a one-line meaning and whether retrying the same call can help.
 */
export const ERROR_CODES = {
  EMULATOR_UNAVAILABLE: {
    meaning: "No usable device: adb lists none, several without a choice, or the chosen one is offline or unauthorized.",
    retryable: true,
  },
  APPIUM_UNAVAILABLE: {
    meaning: "The Appium server cannot be reached, or it lacks the UiAutomator2 driver or its Android SDK.",
    retryable: true,
  },
  EMULATOR_BUSY: { meaning: "Another operation owns the device right now; nothing was queued.", retryable: true },
  UI_ELEMENT_NOT_FOUND: { meaning: "No visible element matched the selector before the timeout.", retryable: true },
  UI_ELEMENT_AMBIGUOUS: {
    meaning: "Several distinct elements matched the selector; add a 'within' or a more specific key.",
    retryable: false,
  },
  UI_TREE_UNAVAILABLE: {
    meaning: "The screen hierarchy could not be read or parsed (dump failed, empty, truncated or too large).",
    retryable: true,
  },
  INVALID_SELECTOR: { meaning: "The selector is not one of the accepted shapes.", retryable: false },
  INVALID_TEXT: { meaning: "The text to type is empty, too long, or contains control characters.", retryable: false },
  INVALID_PACKAGE: { meaning: "The package name is not a valid Android application id.", retryable: false },
  INVALID_SCROLL_DIRECTION: { meaning: "The scroll direction is not 'up', 'down', 'left' or 'right'.", retryable: false },
  INVALID_ARGUMENT: { meaning: "An argument is missing, unknown, or of the wrong type.", retryable: false },
  SESSION_NOT_FOUND: { meaning: "The session id is unknown, expired, or already closed.", retryable: false },
  APP_NOT_FOUND: { meaning: "The package is not installed, or has no launchable activity.", retryable: false },
  SETTINGS_FOREGROUND_FAILED: { meaning: "Settings did not come to the foreground in time.", retryable: true },
  OPERATION_TIMEOUT: { meaning: "The operation exceeded its time limit and was cancelled; the device lock was released.", retryable: true },
  ACT_UNCONFIRMED: {
    meaning: "The act was sent to the device (it most likely took place), but the time limit passed before the screen it led " +
      "to could be read: read the screen before acting again; repeating the act may undo it.",
    retryable: false,
  },
  EVIDENCE_WRITE_FAILED: {
    meaning: "The evidence screenshot could not be captured or written, or it shows nothing (one colour).",
    retryable: true,
  },
  INTERNAL_ERROR: { meaning: "An unexpected fault inside the harness; the details say where.", retryable: false },
} as const satisfies Record<string, { meaning: string; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_CODES, value);
}
