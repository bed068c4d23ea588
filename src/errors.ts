/**
 * The one error type the harness throws (HarnessError, declared in contracts/errors.ts, which the simulated device
 * shares). Everything else (adb failures, W3C errors, timeouts, parse faults) is translated into a HarnessError by
 * the adapter that meets it; one place (the envelope) turns anything into `{code, message, details}`. Messages say
 * what happened and what to do next.
 */
import { HarnessError, isHarnessError } from "../contracts/errors.ts";

export { type ErrorDetails, HarnessError, isHarnessError } from "../contracts/errors.ts";

/** Anything thrown, as a HarnessError: foreign faults become INTERNAL_ERROR without a stack trace. */
export function toHarnessError(value: unknown): HarnessError {
  if (isHarnessError(value)) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new HarnessError(
    "INTERNAL_ERROR",
    `Unexpected fault: ${message}. Report it with the operation id; the device was left as it was.`,
  );
}
