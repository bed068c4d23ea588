/**
 * Check 4, Android SDK: ANDROID_HOME (or ANDROID_SDK_ROOT) is set and holds platform-tools/adb —
 * Appium refuses every session without it ("Neither ANDROID_HOME nor ANDROID_SDK_ROOT environment
 * variable was exported"). The remedy names an SDK found in the usual places when there is one.
 */
import { join } from "node:path";
import { executableName } from "./find_program.ts";
import type { CheckOutcome, DoctorCheck, DoctorInputs } from "./types.ts";

/** Where SDKs usually live: Debian's `adb` package, Android Studio on Linux, macOS and Windows. */
function usualSdkPlaces(inputs: DoctorInputs): string[] {
  const home = inputs.homeDir;
  if (inputs.platform === "darwin") return [join(home, "Library", "Android", "sdk")];
  if (inputs.platform === "win32") {
    const local = inputs.env["LOCALAPPDATA"] ?? join(home, "AppData", "Local");
    return [join(local, "Android", "Sdk")];
  }
  return ["/usr/lib/android-sdk", join(home, "Android", "Sdk")];
}

async function hasPlatformTools(inputs: DoctorInputs, sdk: string): Promise<boolean> {
  return inputs.files.isExecutable(join(sdk, "platform-tools", executableName("adb", inputs.platform)));
}

/** An SDK holding platform-tools: the configured one, else one in the usual places; null when none. */
export async function knownSdk(inputs: DoctorInputs): Promise<string | null> {
  const configured = [nonEmpty(inputs.env["ANDROID_HOME"]), nonEmpty(inputs.env["ANDROID_SDK_ROOT"])].filter((p): p is string =>
    p !== undefined
  );
  for (const place of [...configured, ...usualSdkPlaces(inputs)]) {
    if (await hasPlatformTools(inputs, place)) return place;
  }
  return null;
}

function exportLine(inputs: DoctorInputs, sdk: string): string {
  return inputs.platform === "win32" ? `setx ANDROID_HOME "${sdk}"` : `export ANDROID_HOME=${sdk}`;
}

async function remedyFor(inputs: DoctorInputs, problem: "unset" | "broken"): Promise<string> {
  for (const place of usualSdkPlaces(inputs)) {
    if (await hasPlatformTools(inputs, place)) {
      return `${exportLine(inputs, place)} (an SDK with platform-tools is there), in the environment Appium starts from too`;
    }
  }
  const install = inputs.platform === "linux"
    ? `sudo apt-get install -y adb && ${exportLine(inputs, "/usr/lib/android-sdk")}`
    : `install the Android SDK platform-tools (sdkmanager "platform-tools") and ${exportLine(inputs, "<sdk folder>")}`;
  return problem === "unset"
    ? `${install}, in the environment Appium starts from too`
    : `Point ANDROID_HOME at an SDK holding platform-tools/adb, or ${install}`;
}

export const androidSdkCheck: DoctorCheck = {
  id: "android_sdk",
  name: "Android SDK",
  direct: "optional",
  neededBySimulatedDevice: false,
  run: async (inputs) => {
    const home = nonEmpty(inputs.env["ANDROID_HOME"]);
    const root = nonEmpty(inputs.env["ANDROID_SDK_ROOT"]);
    const variable = home !== undefined ? "ANDROID_HOME" : root !== undefined ? "ANDROID_SDK_ROOT" : undefined;
    const sdk = home ?? root;
    if (variable === undefined || sdk === undefined) {
      return {
        ok: false,
        detail: "neither ANDROID_HOME nor ANDROID_SDK_ROOT is set (Appium refuses a session without one)",
        remedy: await remedyFor(inputs, "unset"),
        facts: { variable: null, sdk: null },
      };
    }
    const facts = { variable, sdk };
    const kind = await inputs.files.kindOf(sdk);
    if (kind !== "directory") {
      return miss(
        `${variable}=${sdk}, which is ${kind === "missing" ? "not there" : "not a directory"}`,
        await remedyFor(inputs, "broken"),
        facts,
      );
    }
    if (!(await hasPlatformTools(inputs, sdk))) {
      return miss(`${variable}=${sdk} has no platform-tools/adb`, await remedyFor(inputs, "broken"), facts);
    }
    const both = home !== undefined && root !== undefined && home !== root
      ? ` (ANDROID_SDK_ROOT=${root} differs; Appium uses ANDROID_HOME)`
      : "";
    return { ok: true, detail: `${variable}=${sdk} has platform-tools/adb${both}`, facts };
  },
  timedOut: () => ({
    ok: false,
    detail: "the Android SDK folder did not answer (a hung network file system?)",
    remedy: "Check that ANDROID_HOME is on a local, readable disk",
  }),
};

function miss(detail: string, remedy: string, facts: Record<string, string>): CheckOutcome {
  return { ok: false, detail, remedy, facts };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}
