/**
 * Finds the adb executable: `ADB` (a path) first, then `ANDROID_HOME/platform-tools/adb` when that
 * file exists, then `adb` on PATH. Returns the program and why it was chosen, so errors and `doctor`
 * can name the variable to fix. Pure apart from the injected `exists` check.
 */
import { join } from "node:path";

export interface AdbProgram {
  program: string;
  source: "ADB" | "ANDROID_HOME" | "PATH";
}

export function findAdbProgram(
  env: { ADB?: string | undefined; ANDROID_HOME?: string | undefined },
  options: { exists: (path: string) => boolean; platform?: string },
): AdbProgram {
  if (env.ADB !== undefined && env.ADB !== "") return { program: env.ADB, source: "ADB" };
  if (env.ANDROID_HOME !== undefined && env.ANDROID_HOME !== "") {
    const candidate = join(env.ANDROID_HOME, "platform-tools", options.platform === "win32" ? "adb.exe" : "adb");
    if (options.exists(candidate)) return { program: candidate, source: "ANDROID_HOME" };
  }
  return { program: "adb", source: "PATH" };
}
