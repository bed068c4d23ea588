/**
 * The AppPackages port over adb: the APK checked and copied (apk/apk_file.ts), installed with the harness's one
 * install path (install_apk.ts: `adb install -r`, streamed), removed with `adb uninstall`. The package manager's
 * refusals become INVALID_ARGUMENT naming its reason and what to do; an uninstall the package manager refuses
 * (not installed) is APP_NOT_FOUND.
 */
import { HarnessError } from "../../errors.ts";
import type { AppPackages } from "../../ports/app_packages.ts";
import { prepareApk } from "../apk/apk_file.ts";
import { ADB_COMMANDS } from "./adb_commands.ts";
import type { AdbClient } from "./adb_client.ts";
import { installFailureReason, streamInstall } from "./install_apk.ts";

/** What to do about the package manager's usual refusals of an APK. */
const ADVICE: [RegExp, string][] = [
  [
    /UPDATE_INCOMPATIBLE|SIGNATURE|NO_CERTIFICATES/,
    "the APK must be signed, with the key of the installed app: uninstall that first (app_uninstall; its data goes) or sign it",
  ],
  [/VERSION_DOWNGRADE/, "an installed version is newer: uninstall it first (app_uninstall) or install a newer build"],
  [/OLDER_SDK/, "the device's Android version is older than the APK's minSdkVersion: use a newer device or build"],
  [/NO_MATCHING_ABIS/, "the APK has no native code for this device's CPU: build it for the device's ABI"],
  [/INSUFFICIENT_STORAGE/, "the device is out of space: uninstall something (app_uninstall) and retry"],
  [/TEST_ONLY/, "the APK is test-only (android:testOnly): build a debug or release APK"],
];

export function createAdbAppPackages(adb: AdbClient): AppPackages {
  return {
    prepare: prepareApk,
    async install(udid, apk, wait) {
      const said = await streamInstall(adb, udid, apk.file, wait);
      if (said === null) return;
      const reason = installFailureReason(said);
      const advice = ADVICE.find(([pattern]) => pattern.test(reason))?.[1] ?? "see the reason, fix the APK and retry";
      throw new HarnessError(
        "INVALID_ARGUMENT",
        `The device refused to install ${apk.packageName} from ${apk.path}: ${reason}; ${advice}.`,
        { package: apk.packageName, reason },
      );
    },
    async uninstall(udid, packageName, wait) {
      const result = await adb.run(ADB_COMMANDS.uninstall(packageName), {
        serial: udid,
        timeoutMs: wait.timeoutMs,
        ...(wait.signal === undefined ? {} : { signal: wait.signal }),
      });
      const said = `${result.stdout.toString("utf8")}\n${result.stderr}`;
      if (result.exitCode === 0 && /^Success/m.test(said)) return;
      throw new HarnessError(
        "APP_NOT_FOUND",
        `The device did not uninstall ${packageName} (${installFailureReason(said)}): it is not installed for this user. ` +
          "List the installed packages with app_list.",
        { package: packageName },
      );
    },
  };
}
