/**
 * Whether the UiAutomator2 server on a device must be (re)installed, by the Appium driver's own rule
 * (`appium-uiautomator2-driver` 8.7, `uiautomator2-server/core.js`: `prepareServerPackage`,
 * `shouldUninstallServerPackages`, `shouldInstallServerPackages`): the server's state comes from its
 * installed versionCode and versionName (`dumpsys package`) against the APK's; the test package has no
 * version, so it counts as the same version whenever it is installed. Install when either is missing or the
 * server is older; uninstall both first when one is installed and the other is missing or newer (a
 * half-installed or foreign pair). A signature that differs is only seen at install time
 * (INSTALL_FAILED_UPDATE_INCOMPATIBLE): device_server.ts then uninstalls that package and installs again.
 * Pure.
 */
export type InstallState = "not_installed" | "older" | "same" | "newer";

export interface InstalledVersion {
  installed: boolean;
  versionCode?: number;
  versionName?: string;
}

/** `dumpsys package NAME`: installed when a `Package [NAME] (…):` line is there, with its versionCode and versionName. */
export function parseDumpsysPackage(text: string, packageName: string): InstalledVersion {
  const escaped = packageName.replaceAll(".", "\\.");
  if (!new RegExp(`^\\s*Package\\s+\\[${escaped}\\][^:]+:\\s*$`, "m").test(text)) return { installed: false };
  const out: InstalledVersion = { installed: true };
  const code = /versionCode=(\d+)/.exec(text);
  if (code !== null) out.versionCode = Number(code[1]);
  const name = /versionName=([^\s]+)/.exec(text);
  if (name !== null) out.versionName = name[1]!;
  return out;
}

/** `pm list packages FILTER`: the names listed (`package:NAME` lines). */
export function parsePackageNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^package:([A-Za-z0-9._]+)\s*$/.exec(line.trim());
    if (m !== null) names.add(m[1]!);
  }
  return names;
}

/** The installed server against the APK's version: code first, then the version name when the codes are equal. */
export function serverState(installed: InstalledVersion, apk: { code: number; name: string }): InstallState {
  if (!installed.installed) return "not_installed";
  if (installed.versionCode !== undefined) {
    if (installed.versionCode > apk.code) return "newer";
    if (installed.versionCode < apk.code) return "older";
  }
  const order = compareVersionNames(installed.versionName ?? "", apk.name);
  return order === null ? "same" : order > 0 ? "newer" : order < 0 ? "older" : "same";
}

export interface InstallPlan {
  uninstallFirst: boolean;
  install: boolean;
}

export function installPlan(server: InstallState, testInstalled: boolean): InstallPlan {
  const states: InstallState[] = [server, testInstalled ? "same" : "not_installed"];
  const anyInstalled = states.some((s) => s !== "not_installed");
  const anyMissingOrNewer = states.some((s) => s === "not_installed" || s === "newer");
  const uninstallFirst = anyInstalled && anyMissingOrNewer;
  return { uninstallFirst, install: uninstallFirst || states.some((s) => s === "not_installed" || s === "older") };
}

/** Numeric dotted versions compared part by part; null when either is not one (then the codes decided). */
function compareVersionNames(a: string, b: string): number | null {
  const parse = (v: string) => /^\d+(\.\d+)*$/.test(v) ? v.split(".").map(Number) : null;
  const [x, y] = [parse(a), parse(b)];
  if (x === null || y === null) return null;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}
