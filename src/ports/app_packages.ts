/**
 * Port: installing and removing apps on the device (app_install, app_uninstall). An APK is a file on the
 * harness's machine, checked and kept as a private copy before anything reaches the device (the copy is what
 * gets installed, so the file cannot change between its check and its install). Every method throws only
 * HarnessError: INVALID_ARGUMENT (the path or the APK, each message saying what to do), APP_NOT_FOUND,
 * EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT.
 */
import type { WaitOptions } from "./device.ts";

/** An APK checked and copied, ready to install; `dispose` removes the copy. */
export interface PreparedApk {
  /** The path as the call gave it. */
  readonly path: string;
  /** The private copy that gets installed. */
  readonly file: string;
  readonly bytes: number;
  readonly packageName: string;
  readonly versionCode?: number;
  readonly versionName?: string;
  dispose(): Promise<void>;
}

export interface AppPackages {
  /** Checks `path` (absolute; a regular readable file within the size limit; a zip holding AndroidManifest.xml)
   * and reads the package and its version from the manifest. */
  prepare(path: string, wait: WaitOptions): Promise<PreparedApk>;
  /** Installs it on the device `udid` (an installed one is replaced, its data kept). */
  install(udid: string, apk: PreparedApk, wait: WaitOptions): Promise<void>;
  /** Removes an installed package and its data. */
  uninstall(udid: string, packageName: string, wait: WaitOptions): Promise<void>;
}
