/**
 * The one error type the harness throws, `HarnessError {code, message, details}` with a code of the closed list
 * (error_codes.ts): the shape of every failure's `error` (envelope.ts). It lives in contracts/ because the product
 * and the simulated device both throw it (the simulated device imports nothing else of the product); the product's
 * helpers around it (`toHarnessError`) are in src/errors.ts.
 */
import { ERROR_CODES, type ErrorCode, isErrorCode } from "./error_codes.ts";

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
