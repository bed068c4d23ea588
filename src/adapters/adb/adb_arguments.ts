/**
 * Validation of every value that reaches an adb argument list: device serials, package names,
 * property keys. Accepts only the characters these values really use, so `;`, `&&`, `../`, spaces,
 * quotes and a leading `-` cannot reach adb or the device shell. Throws HarnessError
 * (INVALID_PACKAGE for packages, INVALID_ARGUMENT otherwise) with what was refused and why.
 */
import { HarnessError } from "../../errors.ts";

/** Android application id: dot-separated segments, each starting with a letter (at least two). */
export const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
/** adb serials: USB serials, `emulator-5554`, `host:port`, mDNS `adb-…._adb-tls-connect._tcp`. */
export const SERIAL = /^[A-Za-z0-9][A-Za-z0-9._:@\-]*$/;
export const PROPERTY_KEY = /^[A-Za-z0-9_][A-Za-z0-9._\-]*$/;

export function checkPackageName(value: string): string {
  if (value.length > 255 || !PACKAGE_NAME.test(value)) {
    throw new HarnessError("INVALID_PACKAGE",
      `"${shorten(value)}" is not an Android package name; use dot-separated letters and digits like "com.android.settings".`);
  }
  return value;
}

export function checkSerial(value: string): string {
  if (value.length > 128 || !SERIAL.test(value) || value.includes("..")) {
    throw new HarnessError("INVALID_ARGUMENT",
      `"${shorten(value)}" is not a device serial adb prints; copy it from 'adb devices' into ANDROID_UDID.`);
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
