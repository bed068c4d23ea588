/**
 * What a path that is not a regular file is, in words for a refusal ("a FIFO (named pipe)", "a directory", …);
 * null for a regular file. Shared by the CLI's file arguments and app_install's APK path.
 */
import type { Stats } from "node:fs";

export function nonRegularKind(info: Stats): string | null {
  if (info.isFile()) return null;
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isDirectory()) return "a directory";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  return "not a regular file";
}
