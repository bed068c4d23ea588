/**
 * The device's system services as the shell reaches them: `dumpsys` (window, input_method, activity,
 * package, power, deviceidle, SurfaceFlinger --display-id, display), `pm` (list packages/features/
 * instrumentation, path, grant, clear) and `cmd` (package list/resolve-activity/query-activities/
 * streamed install, display get-displays; other known services accept silently; unknown ones print
 * `cmd: Can't find service`, exit 20), in the real formats of ./outputs.
 */
import { clearPackage, renderProcesses } from "./app_intents.ts";
import type { ScenarioDevice } from "../scenario_device.ts";
import { exit, type ShellOutcome } from "./outcome.ts";
import { factsOf } from "./outputs/device_facts.ts";
import { renderActivityServices, renderDumpsysActivities } from "./outputs/dumpsys_activity.ts";
import { renderDumpsysInputMethod } from "./outputs/dumpsys_input_method.ts";
import { renderDumpsysWindow } from "./outputs/dumpsys_window.ts";
import { type DisplayFacts, renderDumpsysDisplay, renderGetDisplays, renderSurfaceFlingerDisplayIds } from "./outputs/displays.ts";
import { renderFeatures, renderQueryActivities } from "./outputs/package_queries.ts";
import { apkPath, INSTRUMENTATION, renderDumpsysPackage, renderPackageList, renderResolveActivity } from "./outputs/packages.ts";

export function runDumpsys(d: ScenarioDevice, args: string[]): ShellOutcome {
  const [service, ...rest] = args;
  switch (service) {
    case "window":
      return exit(renderDumpsysWindow(factsOf(d), rest));
    case "input_method":
      return exit(renderDumpsysInputMethod(factsOf(d)));
    case "activity":
      if (rest[0] === "activities" || rest[0] === "a") return exit(renderDumpsysActivities(factsOf(d)));
      if (rest[0] === "services" || rest[0] === "s") return exit(renderActivityServices(rest[1]));
      if (rest[0] === "processes" || rest[0] === "p") return exit(renderProcesses(d));
      return exit(renderDumpsysActivities(factsOf(d)));
    case "package":
      return exit(renderDumpsysPackage(d, rest.filter((a) => !a.startsWith("-")).at(-1)));
    case "power":
      return exit(
        "POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mWakefulness=Awake\n  mWakefulnessChanging=false\n  mIsPowered=true\nDisplay Power: state=ON\n",
      );
    case "deviceidle":
      return exit(rest[0] === "whitelist" ? "" : "  mState=ACTIVE\n");
    case "SurfaceFlinger":
      // `--display-id` lists the displays; the full dump (not simulated) also starts from them.
      return exit(renderSurfaceFlingerDisplayIds());
    case "display":
      return exit(renderDumpsysDisplay(displayFacts(d)));
    case undefined:
      return exit("Currently running services:\n  SurfaceFlinger\n  activity\n  display\n  input_method\n  package\n  power\n  window\n");
    default:
      return exit("", `Can't find service: ${service}\n`, 0);
  }
}

export function runPackageManager(d: ScenarioDevice, args: string[]): ShellOutcome {
  const [verb, ...rest] = args;
  if (verb === "list" && rest[0] === "packages") return exit(renderPackageList(d, rest.slice(1)));
  if (verb === "list" && rest[0] === "instrumentation") return exit(INSTRUMENTATION);
  if (verb === "list" && rest[0] === "features") return exit(renderFeatures());
  if (verb === "query-activities") return exit(renderQueryActivities(d, rest));
  if (verb === "path") {
    const pkg = rest.at(-1) ?? "";
    return d.installedPackages().some((p) => p.name === pkg) ? exit(`package:${apkPath(pkg)}\n`) : exit("", "", 1);
  }
  if (verb === "clear") return clearPackage(d, rest.filter((a) => !a.startsWith("-")).at(-1));
  if (verb === "grant" || verb === "revoke" || verb === "disable-user" || verb === "enable") return exit();
  if (verb === "install") return exit("Success\n");
  if (verb === "uninstall") {
    const pkg = rest.filter((a) => !a.startsWith("-")).at(-1) ?? "";
    return d.removePackage(pkg) ? exit("Success\n") : exit("Failure [DELETE_FAILED_INTERNAL_ERROR]\n", "", 1);
  }
  return exit("", `Unknown command: ${verb ?? ""}\n`, 1);
}

export function runCmd(d: ScenarioDevice, args: string[]): ShellOutcome {
  const [service, ...rest] = args;
  if (service === "package") {
    const [verb, ...more] = rest;
    if (verb === "list" && more[0] === "packages") return exit(renderPackageList(d, more.slice(1)));
    if (verb === "resolve-activity") {
      return exit(renderResolveActivity(d, more.filter((a) => !a.startsWith("-") && a.includes(".")).at(-1)));
    }
    if (verb === "install") {
      const s = more.indexOf("-S");
      const bytes = s === -1 ? NaN : Number(more[s + 1]);
      return Number.isFinite(bytes) ? { kind: "install", bytes } : exit("", "Error: APK content must be streamed (use -S)\n", 1);
    }
    return runPackageManager(d, rest);
  }
  if (service === "statusbar" && rest[0] === "expand-notifications") return (d.openNotifications(), exit());
  if (service === "display" && rest[0] === "get-displays") {
    return exit(renderGetDisplays(displayFacts(d), rest.includes("-i") || rest.includes("--ids-only")));
  }
  if (
    [
      "appops",
      "activity",
      "window",
      "input_method",
      "statusbar",
      "settings",
      "notification",
      "device_config",
      "overlay",
      "display",
      "locale",
    ].includes(service ?? "")
  ) {
    return exit();
  }
  return exit("", `cmd: Can't find service: ${service ?? ""}\n`, 20);
}

function displayFacts(d: ScenarioDevice): DisplayFacts {
  return { width: d.width, height: d.height, density: d.density, rotation: d.rotation() };
}
