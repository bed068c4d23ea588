/**
 * The shell commands behind the driver's app and link hands: `am start [-W] -a android.intent.action.VIEW
 * -d URL [PKG]` (deep links, AOSP's `Starting:` / `Status: ok` / `unable to resolve Intent` texts),
 * `pm clear PKG` (`Success`, or `Failed` exit 1 for a package that is not installed) and
 * `dumpsys activity processes` (one `ProcessRecord{hash PID:PKG/u0aN}` per running package, which
 * Appium's terminateApp reads for the app's pids).
 */
import type { ScenarioDevice } from "../scenario_device.ts";
import { exit, type ShellOutcome } from "./outcome.ts";
import { hashOf } from "./outputs/device_facts.ts";

export const VIEW_ACTION = "android.intent.action.VIEW";

/**
 * Uri.toSafeString: web URLs keep scheme and host only; other schemes keep their scheme-specific part, which
 * (getSchemeSpecificPart: everything between ':' and '#') holds a userinfo and the query: only the fragment goes.
 */
export function safeUri(url: string): string {
  const web = /^(https?|ftp|rtsp):\/\/(?:[^/?#@]*@)?([^/?#]*)/i.exec(url);
  if (web !== null) return `${web[1]}://${web[2]}/...`;
  return url.replace(/#.*$/, "");
}

/** `am start -a android.intent.action.VIEW -d URL [PKG]`: the linked screen opens, or AOSP's "unable to resolve" text. */
export function startView(device: ScenarioDevice, url: string, pkg: string | undefined, wait: boolean): ShellOutcome {
  const intent = `act=${VIEW_ACTION} dat=${safeUri(url)}${pkg === undefined ? "" : ` pkg=${pkg}`}`;
  const started = device.openUrl(url, pkg);
  if (started === null) {
    // ActivityManagerShellCommand prints the failure on stdout with -W (stderr without) and exits 0.
    const line = `Error: Activity not started, unable to resolve Intent { ${intent} flg=0x10000000 }\n`;
    return wait ? exit(`Starting: Intent { ${intent} }\n${line}`) : exit(`Starting: Intent { ${intent} }\n`, line);
  }
  const waited = wait ? `Status: ok\nLaunchState: COLD\nActivity: ${started.component}\nTotalTime: 318\nWaitTime: 321\nComplete\n` : "";
  return exit(`Starting: Intent { ${intent} }\n${waited}`);
}

export function clearPackage(device: ScenarioDevice, pkg: string | undefined): ShellOutcome {
  if (pkg === undefined) return exit("", "Error: no package specified\n", 1);
  return device.clearApp(pkg) ? exit("Success\n") : exit("Failed\n", "", 1);
}

/** A stable pid for a package (the same on every read). */
function pidOf(pkg: string): number {
  return 3000 + (Number.parseInt(hashOf("pid" + pkg).slice(0, 6), 16) % 6000);
}

export function renderProcesses(device: ScenarioDevice): string {
  const lines = ["ACTIVITY MANAGER RUNNING PROCESSES (dumpsys activity processes)", "  All known processes:"];
  device.runningPackages().forEach((pkg, i) => {
    lines.push(
      `  *APP* UID 10${String(190 + i).padStart(3, "0")} ProcessRecord{${hashOf("proc" + pkg)} ${pidOf(pkg)}:${pkg}/u0a${190 + i}}`,
    );
    lines.push(`    user #0 uid=10${String(190 + i).padStart(3, "0")} gids={50${190 + i}, 20${190 + i}, 9997}`);
  });
  return lines.join("\n") + "\n";
}
