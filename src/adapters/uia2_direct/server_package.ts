/**
 * The on-device UiAutomator2 server the direct backend installs and starts: the two APKs of the npm package
 * `appium-uiautomator2-server` (exactly the version the harness depends on), their package names, the server's
 * version as its manifest says it (tests/adapters/server_apks.test.ts reads both manifests with `aapt dump
 * badging`), the instrumentation `am instrument` starts, and the device port its HTTP server listens on.
 */
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
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
