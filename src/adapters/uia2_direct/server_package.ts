/**
 * The on-device UiAutomator2 server the direct backend installs and starts: the two APKs of the npm package
 * `appium-uiautomator2-server` (exactly the version the harness depends on), their package names, the server's
 * version as its manifest says it (tests/adapters/server_apks.test.ts reads both manifests with `aapt dump
 * badging`), the instrumentation `am instrument` starts, and the device port its HTTP server listens on.
 */
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { EMBEDDED_APKS } from "./embedded_apks.ts";
import type { InstrumentationTarget } from "../adb/adb_commands.ts";

export const SERVER_PACKAGE = "io.appium.uiautomator2.server";
export const TEST_PACKAGE = "io.appium.uiautomator2.server.test";
/** versionName and versionCode of the server APK's manifest (the test APK declares neither). */
export const SERVER_VERSION = { name: "10.6.6", code: 278 } as const;
export const INSTRUMENTATION: InstrumentationTarget = {
  testPackage: TEST_PACKAGE,
  runner: "androidx.test.runner.AndroidJUnitRunner",
};
/** The port the server listens on inside the device (the driver's default systemPort target). */
export const SERVER_DEVICE_PORT = 6790;

/** The command a user runs to take the helper off the device again (one package per `adb uninstall`). */
export function uninstallCommand(serial: string): string {
  return `adb -s ${serial} uninstall ${TEST_PACKAGE} && adb -s ${serial} uninstall ${SERVER_PACKAGE}`;
}

export interface ServerApks {
  /** The server APK (about 18 MB). */
  server: string;
  /** The instrumentation (test) APK (about 200 KB). */
  test: string;
}

/** The APK file names inside the package's `apks/` folder. */
export const APK_FILES = {
  server: `appium-uiautomator2-server-v${SERVER_VERSION.name}.apk`,
  test: "appium-uiautomator2-server-debug-androidTest.apk",
} as const;

/** The APKs of the installed npm package, found the way Node resolves the dependency from this module. */
export function packagedServerApks(): ServerApks {
  const require = createRequire(import.meta.url);
  const folder = join(dirname(require.resolve("appium-uiautomator2-server/package.json")), "apks");
  return { server: join(folder, APK_FILES.server), test: join(folder, APK_FILES.test) };
}

/** The packaged APKs with their sizes (the progress line says how much goes over adb). */
export async function packagedServerApksWithSizes(): Promise<ServerApks & { bytes: { server: number; test: number } }> {
  const apks = packagedServerApks();
  const [server, test] = await Promise.all([stat(apks.server), stat(apks.test)]);
  return { ...apks, bytes: { server: server.size, test: test.size } };
}

/** The APKs with their sizes in the real file system: the package's files, or the binary's own copied to `cacheDir`. */
export async function serverApksIn(cacheDir: string): Promise<ServerApks & { bytes: { server: number; test: number } }> {
  if (EMBEDDED_APKS === null) return await packagedServerApksWithSizes();
  const folder = join(cacheDir, `apks-${SERVER_VERSION.name}`);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const copy = async (embedded: string, name: string): Promise<{ path: string; size: number }> => {
    const path = join(folder, name);
    const content = await readFile(embedded);
    const present = await stat(path).then((s) => s.size, () => -1);
    if (present !== content.length || !(await readFile(path)).equals(content)) {
      const partial = `${path}.${process.pid}.partial`;
      await writeFile(partial, content, { mode: 0o600 });
      await rename(partial, path); // a reader never sees half a file
    }
    return { path, size: content.length };
  };
  const [server, test] = [await copy(EMBEDDED_APKS.server, APK_FILES.server), await copy(EMBEDDED_APKS.test, APK_FILES.test)];
  return { server: server.path, test: test.path, bytes: { server: server.size, test: test.size } };
}

/** Where the single executable keeps its APK copies: the user's cache folder of this platform. */
export function apkCacheDirectory(platform: string, homeDir: string, env: Readonly<Record<string, string | undefined>>): string {
  if (platform === "win32") return join(env["LOCALAPPDATA"] ?? join(homeDir, "AppData", "Local"), "android-mcp-harness", "cache");
  if (platform === "darwin") return join(homeDir, "Library", "Caches", "android-mcp-harness");
  const xdg = env["XDG_CACHE_HOME"]?.trim();
  return join(xdg !== undefined && xdg.startsWith("/") ? xdg : join(homeDir, ".cache"), "android-mcp-harness");
}
