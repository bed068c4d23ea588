/**
 * Bringing a package to the foreground through the session (`mobile: activateApp`) and waiting actively
 * for it to be there (polling the session's current package, ACT_DEFAULTS.foregroundWaitMs within the
 * deadline). An uninstalled package is APP_NOT_FOUND before anything is sent (adb `pm list packages`).
 */
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import { HarnessError } from "../errors.ts";
import type { WaitOptions } from "../ports/device.ts";
import type { OperationContext, ToolPorts } from "../ports/operation.ts";
import type { UiDriver } from "../ports/ui_driver.ts";
import { checked } from "./act.ts";

export async function checkInstalled(packageName: string, ports: ToolPorts, wait: WaitOptions): Promise<void> {
  const found = await ports.observer.listPackages({ filter: packageName, includeSystem: true }, wait);
  if (!found.includes(packageName)) {
    const hint = ports.observer.missingPackageHint?.(packageName);
    throw new HarnessError(
      "APP_NOT_FOUND",
      `Package "${packageName}" is not installed on the device. Check the name with app_list.${hint === undefined ? "" : ` ${hint}`}`,
      { package: packageName },
    );
  }
}

/** True when the package reached the foreground before the wait ran out. */
export async function launchAndWait(driver: UiDriver, packageName: string, ports: ToolPorts, ctx: OperationContext): Promise<boolean> {
  await checked(ctx, () => driver.activateApp(packageName));
  const started = ports.clock.now();
  for (;;) {
    if ((await checked(ctx, () => driver.currentPackage())) === packageName) return true;
    const budget = Math.min(ACT_DEFAULTS.foregroundWaitMs, ctx.remainingMs() - 2000);
    if (ports.clock.now() - started + ACT_DEFAULTS.pollIntervalMs > budget) return false;
    await ports.clock.sleep(ACT_DEFAULTS.pollIntervalMs, ctx.signal);
  }
}
