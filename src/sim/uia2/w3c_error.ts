/**
 * The W3C WebDriver error vocabulary the fake UiAutomator2 server answers with. Handlers throw
 * `w3cError(kind, message)` (a HarnessError carrying the W3C name and HTTP status in its details);
 * `w3cErrorBody` turns anything thrown into the exact reply shape real servers send:
 * `{value: {error, message, stacktrace}}` with the status of that error kind.
 */
import { HarnessError, isHarnessError } from "../../../contracts/errors.ts";
import type { ErrorCode } from "../../../contracts/error_codes.ts";

export const W3C_STATUS = {
  "invalid argument": 400,
  "invalid selector": 400,
  "invalid session id": 404,
  "no such element": 404,
  "stale element reference": 404,
  "unknown command": 404,
  "unknown method": 405,
  "invalid element state": 400,
  "unknown error": 500,
  "session not created": 500,
} as const;

export type W3cErrorKind = keyof typeof W3C_STATUS;

/** The harness code closest to each W3C kind; only used so the thrown value is a proper HarnessError. */
const HARNESS_CODE: Record<W3cErrorKind, ErrorCode> = {
  "invalid argument": "INVALID_ARGUMENT",
  "invalid selector": "INVALID_SELECTOR",
  "invalid session id": "SESSION_NOT_FOUND",
  "no such element": "UI_ELEMENT_NOT_FOUND",
  "stale element reference": "UI_ELEMENT_NOT_FOUND",
  "unknown command": "INVALID_ARGUMENT",
  "unknown method": "INVALID_ARGUMENT",
  "invalid element state": "INVALID_ARGUMENT",
  "unknown error": "INTERNAL_ERROR",
  "session not created": "APPIUM_UNAVAILABLE",
};

export function w3cError(kind: W3cErrorKind, message: string): HarnessError {
  return new HarnessError(HARNESS_CODE[kind], message, { w3c: kind });
}

function kindOf(error: unknown): W3cErrorKind {
  if (!isHarnessError(error)) return "unknown error";
  const kind = error.details?.["w3c"];
  return typeof kind === "string" && Object.hasOwn(W3C_STATUS, kind) ? kind as W3cErrorKind : "unknown error";
}

export interface W3cFailure {
  status: number;
  body: { value: { error: W3cErrorKind; message: string; stacktrace: string } };
}

export function w3cErrorBody(error: unknown): W3cFailure {
  const kind = kindOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return {
    status: W3C_STATUS[kind],
    body: { value: { error: kind, message, stacktrace: `io.appium.uiautomator2.common.exceptions: ${kind}: ${message}` } },
  };
}
