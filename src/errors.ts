/**
 * The one error type the harness throws. Everything else (adb failures, W3C errors, timeouts, parse
 * faults) is translated into a HarnessError by the adapter that meets it; one place (the envelope)
 * turns anything into `{code, message, details}`. Messages say what happened and what to do next.
 */
import { ERROR_CODES, type ErrorCode, isErrorCode } from "../contracts/error_codes.ts";

export type ErrorDetails = Record<string, unknown>;

export class HarnessError extends Error {
  override readonly name = "HarnessError";
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.code = code;
    this.details = details;
  }

  get retryable(): boolean {
    return ERROR_CODES[this.code].retryable;
  }

  toJSON(): { code: ErrorCode; message: string; details?: ErrorDetails } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isHarnessError(value: unknown): value is HarnessError {
  return value instanceof HarnessError ||
    (typeof value === "object" && value !== null && (value as { name?: unknown }).name === "HarnessError" &&
      isErrorCode((value as { code?: unknown }).code));
}

/** Anything thrown, as a HarnessError: foreign faults become INTERNAL_ERROR without a stack trace. */
export function toHarnessError(value: unknown): HarnessError {
  if (isHarnessError(value)) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new HarnessError(
    "INTERNAL_ERROR",
    `Unexpected fault: ${message}. Report it with the operation id; the device was left as it was.`,
  );
}
