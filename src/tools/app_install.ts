/**
 * `app_install`: installs an APK file of the harness's machine. Before any session: the file is checked and
 * copied (AppPackages.prepare: a regular readable file within the size limit, an APK by its manifest), and with
 * `replace: false` an installed package is refused. Then, inside the act pipeline, the copy is installed (an
 * installed package is replaced, its data kept) and the settled screen answered with the package, its version
 * and whether it replaced one. Errors: INVALID_ARGUMENT (the path, the APK, replace: false, the device's refusal),
 * INVALID_PACKAGE (the APK is one of the harness's helpers),
 * EMULATOR_BUSY, SESSION_NOT_FOUND, EMULATOR_UNAVAILABLE, APPIUM_UNAVAILABLE, OPERATION_TIMEOUT, ACT_UNCONFIRMED.
 */
import { HARNESS_HELPER_PACKAGES } from "../../contracts/tool_inputs.ts";
import { checked, defineActTool } from "../device/act.ts";
import { HarnessError } from "../errors.ts";
import type { PreparedApk } from "../ports/app_packages.ts";

export const appInstallTool = defineActTool("app_install", {
  async before(args, ctx, ports): Promise<{ apk: PreparedApk; replaced: boolean }> {
    const wait = { timeoutMs: ctx.remainingMs(), signal: ctx.signal };
    const apk = await ports.apps.prepare(args.path, wait);
    try {
      if ((HARNESS_HELPER_PACKAGES as readonly string[]).includes(apk.packageName)) {
        throw new HarnessError(
          "INVALID_PACKAGE",
          `${args.path} is ${apk.packageName}, a helper the harness acts through: replacing it ends the UI session. ` +
            "The harness installs its own helpers; give the APK of the app under test.",
          { package: apk.packageName },
        );
      }
      const found = await ports.observer.listPackages({ filter: apk.packageName, includeSystem: true }, wait);
      const replaced = found.includes(apk.packageName);
      if (replaced && args.replace === false) {
        throw new HarnessError(
          "INVALID_ARGUMENT",
          `${apk.packageName} is already installed and replace is false: leave replace out to replace it (its data is kept), ` +
            "or uninstall it first with app_uninstall.",
          { package: apk.packageName },
        );
      }
      return { apk, replaced };
    } catch (error) {
      await apk.dispose();
      throw error;
    }
  },
  async act({ ports, ctx }, _args, { apk, replaced }) {
    await checked(ctx, () => {
      ctx.noteActed("sent"); // only once the call limit let it go to the device
      return ports.apps.install(ports.observer.udid, apk, { timeoutMs: ctx.remainingMs(), signal: ctx.signal });
    });
    return {
      package: apk.packageName,
      ...(apk.versionName === undefined ? {} : { version_name: apk.versionName }),
      ...(apk.versionCode === undefined ? {} : { version_code: apk.versionCode }),
      replaced,
    };
  },
  release: ({ apk }) => apk.dispose(),
});
