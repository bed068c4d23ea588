/**
 * The one way the harness installs an APK: `adb install -r FILE`, which the adb client streams to the package
 * manager (`cmd package install -S SIZE`, no copy on the device's storage). Used by the direct backend for the
 * UiAutomator2 server (uia2_direct/device_server.ts) and by app_install (app_packages.ts). Answers null when the
 * package manager said Success, else what it said (the adb client's exit code 0 is not enough: older adb prints
 * `Failure [...]` and exits 0).
 */
import type { WaitOptions } from "../../ports/device.ts";
import { ADB_COMMANDS } from "./adb_commands.ts";
import type { AdbClient } from "./adb_client.ts";

export async function streamInstall(adb: AdbClient, serial: string, apkPath: string, wait: WaitOptions): Promise<string | null> {
  const result = await adb.run(ADB_COMMANDS.install(apkPath), {
    serial,
    timeoutMs: wait.timeoutMs,
    ...(wait.signal === undefined ? {} : { signal: wait.signal }),
  });
  const said = `${result.stdout.toString("utf8")}\n${result.stderr}`;
  return result.exitCode === 0 && !/Failure \[|INSTALL_[A-Z_]*FAILED/.test(said) ? null : said;
}

/** The package manager's reason (`INSTALL_FAILED_…`, `INSTALL_PARSE_FAILED_…`), or the first line it said. */
export function installFailureReason(said: string): string {
  return /\b(INSTALL_[A-Z_]+)\b/.exec(said)?.[1] ?? said.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "no answer";
}
