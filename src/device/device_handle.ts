/**
 * The device handle of an operation on a device: resolved once by the gate (runOperation, from the session the call
 * names or the device's warm driver) and handed down in the context; a tool of device access `none` has none.
 */
import { HarnessError } from "../errors.ts";
import type { OperationContext } from "../ports/operation.ts";
import type { DeviceHandle } from "../ports/ui_sessions.ts";

/** The handle the gate resolved (INTERNAL_ERROR for a tool declared with no device access: a declaration's mistake). */
export function deviceOf(ctx: OperationContext): DeviceHandle {
  if (ctx.device === undefined) {
    throw new HarnessError("INTERNAL_ERROR", "A tool declared with no device access asked for the device; declare its device access.");
  }
  return ctx.device;
}
