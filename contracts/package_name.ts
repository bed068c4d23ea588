/**
 * An Android package name's shape (dot-separated Java identifiers, at least two parts), without zod: the adb
 * argument checks (loaded by every command) read it here; tool_inputs.ts builds PackageNameSchema from it.
 */
export const PACKAGE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
