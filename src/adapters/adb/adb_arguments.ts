/**
 * Validation of every value that reaches an adb argument list: device serials, package names,
 * property keys. Accepts only the characters these values really use, so `;`, `&&`, `../`, spaces,
 * quotes and a leading `-` cannot reach adb or the device shell. Throws HarnessError
 * (INVALID_PACKAGE for packages, INVALID_ARGUMENT otherwise) with what was refused and why.
 */
import { PACKAGE_NAME_PATTERN } from "../../../contracts/package_name.ts";
import { HarnessError } from "../../errors.ts";

/** adb serials: USB serials, `emulator-5554`, `host:port`, mDNS `adb-…._adb-tls-connect._tcp`. */
const SERIAL = /^[A-Za-z0-9][A-Za-z0-9._:@\-]*$/;
export const PROPERTY_KEY = /^[A-Za-z0-9_][A-Za-z0-9._\-]*$/;

export function checkPackageName(value: string): string {
  if (value.length > 255 || !PACKAGE_NAME_PATTERN.test(value)) {
    throw new HarnessError(
      "INVALID_PACKAGE",
      `"${shorten(value)}" is not an Android package name; use dot-separated letters and digits like "com.android.settings".`,
    );
  }
  return value;
}

/** True for a value adb could print as a serial (and safe as an argument); config.ts uses it too. */
export function isDeviceSerial(value: string): boolean {
  return value.length <= 128 && SERIAL.test(value) && !value.includes("..");
}

export function checkSerial(value: string): string {
  if (!isDeviceSerial(value)) {
    throw new HarnessError(
      "INVALID_ARGUMENT",
      `"${shorten(value)}" is not a device serial adb prints; copy it from 'adb devices' into ANDROID_UDID.`,
    );
  }
  return value;
}

export function checkPropertyKey(value: string): string {
  if (value.length > 128 || !PROPERTY_KEY.test(value)) {
    throw new HarnessError("INVALID_ARGUMENT", `"${shorten(value)}" is not a system property name.`);
  }
  return value;
}

function shorten(value: string): string {
  return value.length > 60 ? `${value.slice(0, 57)}...` : value;
}
