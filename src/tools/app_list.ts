/**
 * `app_list`: installed package names, sorted, optionally filtered by a substring; third-party only
 * unless `include_system`. Read-only adb. Errors: EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT.
 */
import type { DeviceObserver, WaitOptions } from "../ports/device.ts";
import type { ToolHandler } from "../ports/operation.ts";

export async function listApps(
  observer: DeviceObserver,
  query: { filter?: string | undefined; includeSystem: boolean },
  wait: WaitOptions,
): Promise<string[]> {
  const request = query.filter === undefined || query.filter === ""
    ? { includeSystem: query.includeSystem }
    : { filter: query.filter, includeSystem: query.includeSystem };
  return observer.listPackages(request, wait); // the port promises each name once, sorted
}

export const appListTool: ToolHandler<"app_list"> = {
  name: "app_list",
  async run(args, ctx, ports) {
    const includeSystem = args.include_system === true;
    const packages = await listApps(ports.observer, { filter: args.filter, includeSystem }, {
      timeoutMs: ctx.remainingMs(),
      signal: ctx.signal,
    });
    return { data: { packages, count: packages.length, include_system: includeSystem } };
  },
};
