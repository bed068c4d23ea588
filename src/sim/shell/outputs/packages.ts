/**
 * Package manager answers: `pm list packages [-3|-s] [--show-versioncode] [FILTER]` as `package:NAME`
 * lines, `pm path`, `pm list instrumentation` (Appium's UiAutomator2 server), `dumpsys package`, and
 * `cmd package resolve-activity --brief` (two lines on success, `No activity found` otherwise).
 */
import type { ScenarioDevice } from "../../scenario_device.ts";
import { hashOf } from "./device_facts.ts";

export function renderPackageList(device: ScenarioDevice, args: string[]): string {
  const thirdParty = args.includes("-3");
  const system = args.includes("-s");
  const versions = args.includes("--show-versioncode");
  const withPath = args.includes("-f");
  const filter = args.filter((a) => !a.startsWith("-")).at(0);
  return device.installedPackages()
    .filter((p) => (!thirdParty || !p.system) && (!system || p.system) && (filter === undefined || p.name.includes(filter)))
    .map((p) => p.name)
    .sort()
    .map((name) =>
      `package:${withPath ? `${apkPath(name)}=` : ""}${name}${versions ? ` versionCode:${device.packageVersion(name).code}` : ""}\n`
    )
    .join("");
}

export function apkPath(name: string): string {
  return `/data/app/~~${hashOf(name)}AaBbCc==/${name}-${hashOf(name + "x")}DdEe==/base.apk`;
}

export const INSTRUMENTATION =
  "instrumentation:io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner (target=io.appium.uiautomator2.server)\n";

export function renderResolveActivity(device: ScenarioDevice, packageName: string | undefined): string {
  const component = packageName === undefined ? null : device.launchActivity(packageName);
  if (component === null) return "No activity found\n";
  return `priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n${component}\n`;
}

export function renderDumpsysPackage(device: ScenarioDevice, packageName: string | undefined): string {
  const pkg = device.installedPackages().find((p) => p.name === packageName);
  if (pkg === undefined) return "";
  return [
    "Packages:",
    `  Package [${pkg.name}] (${hashOf(pkg.name)}):`,
    `    userId=10${100 + (parseInt(hashOf(pkg.name), 16) % 800)}`,
    `    pkg=Package{${hashOf("p" + pkg.name)} ${pkg.name}}`,
    `    codePath=${apkPath(pkg.name).replace(/\/base\.apk$/, "")}`,
    `    versionCode=${device.packageVersion(pkg.name).code} minSdk=24 targetSdk=34`,
    `    versionName=${device.packageVersion(pkg.name).name}`,
    `    flags=[ ${pkg.system ? "SYSTEM " : ""}HAS_CODE ALLOW_CLEAR_USER_DATA ]`,
    "",
  ].join("\n") + "\n";
}
