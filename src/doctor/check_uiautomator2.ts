/**
 * Check 7, the UiAutomator2 driver: asked of the server first — a UiAutomator2 server answering itself
 * (the simulated device's) needs no driver; a Grid must offer `appium:automationName` UiAutomator2 on a
 * node. Appium's /status lists no drivers, so for an Appium on this machine (or none answering yet) the
 * local `appium driver list --installed --json` says (the project's node_modules/.bin/appium first, else
 * the one on PATH; APPIUM_HOME as the environment has it). A remote Appium cannot be asked: a miss saying so.
 * With the direct backend (no Appium URL) it reports the harness's own helper on the device (direct_helper.ts).
 */
import { shownAppiumUrl } from "../appium_url.ts";
import { join } from "node:path";
import { askStatus, isLoopbackUrl } from "./appium_status.ts";
import { directHelperCheck } from "./direct_helper.ts";
import { findOnPath } from "./find_program.ts";
import type { CheckBudget, CheckOutcome, DoctorCheck, DoctorInputs } from "./types.ts";
import { formatSeconds } from "./units.ts";

const INSTALL = "appium driver install uiautomator2 (with the APPIUM_HOME the server uses), then restart Appium";

export interface InstalledDriver {
  name: string;
  version: string | null;
}

/** The UiAutomator2 entry of `appium driver list --installed --json` (an object keyed by driver name). */
export function findUiAutomator2(listJson: string): { drivers: InstalledDriver[]; uiautomator2: InstalledDriver | null } | null {
  const start = listJson.indexOf("{");
  if (start === -1) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(listJson.slice(start));
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const drivers: InstalledDriver[] = [];
  let uiautomator2: InstalledDriver | null = null;
  for (
    const [name, entry] of Object.entries(parsed as Record<string, { automationName?: unknown; version?: unknown; installed?: unknown }>)
  ) {
    if (entry?.installed === false) continue;
    const driver = { name, version: typeof entry?.version === "string" ? entry.version : null };
    drivers.push(driver);
    if (String(entry?.automationName ?? name).toLowerCase() === "uiautomator2") uiautomator2 = driver;
  }
  return { drivers, uiautomator2 };
}

async function appiumProgram(inputs: DoctorInputs): Promise<string | null> {
  const local = join(inputs.cwd, "node_modules", ".bin", inputs.platform === "win32" ? "appium.cmd" : "appium");
  if (await inputs.files.isExecutable(local)) return local;
  return findOnPath("appium", inputs);
}

async function askLocalAppium(inputs: DoctorInputs, budget: CheckBudget): Promise<CheckOutcome> {
  const program = await appiumProgram(inputs);
  if (program === null) {
    return {
      ok: false,
      detail: "no appium command is here to list the installed drivers (not in ./node_modules/.bin, not on PATH)",
      remedy: `npm install -g appium@3 && ${INSTALL}`,
      facts: { program: null },
    };
  }
  const args = ["driver", "list", "--installed", "--json"];
  const result = await inputs.runner.run(program, args, { timeoutMs: budget.timeoutMs, signal: budget.signal, env: { ...inputs.env } });
  const command = `${program} ${args.join(" ")}`;
  if (result.timedOut || result.aborted) return hung(command, budget.timeoutMs);
  const found = result.exitCode === 0 ? findUiAutomator2(result.stdout.toString("utf8")) : null;
  if (found === null) {
    const said = (result.spawnError ?? result.stderr.trim().split("\n").pop() ?? "").slice(0, 120);
    return {
      ok: false,
      detail: `\`${command}\` failed (${said || `exit code ${result.exitCode}`})`,
      remedy: `Run \`${command}\` yourself and repair Appium (npm install -g appium@3), then ${INSTALL}`,
      facts: { program },
    };
  }
  if (found.uiautomator2 === null) {
    const others = found.drivers.map((d) => d.name).join(", ") || "none";
    return {
      ok: false,
      detail: `\`appium driver list\` (${program}) has no uiautomator2 driver (installed: ${others})`,
      remedy: INSTALL,
      facts: { program, installed: others },
    };
  }
  const version = found.uiautomator2.version ?? "version unknown";
  return {
    ok: true,
    detail: `uiautomator2 ${version} installed (appium driver list of ${program})`,
    facts: { program, driver_version: found.uiautomator2.version },
  };
}

export const uiautomator2Check: DoctorCheck = {
  id: "uiautomator2",
  name: "UiAutomator2 driver",
  run: async (inputs, budget) => {
    if (inputs.config.backend === "direct") return await directHelperCheck(inputs, budget);
    const url = shownAppiumUrl(inputs.config.appiumUrl);
    // On this machine the local CLI may have to answer: ask it at the same time, with the whole budget,
    // and call it off when the server answers for itself.
    const local = new AbortController();
    const stop = () => local.abort();
    budget.signal.addEventListener("abort", stop, { once: true });
    const localAnswer = isLoopbackUrl(url) ? askLocalAppium(inputs, { timeoutMs: budget.timeoutMs, signal: local.signal }) : undefined;
    try {
      const status = await askStatus(inputs, budget);
      if (status.kind === "uiautomator2") {
        return {
          ok: true,
          detail: status.simulated
            ? "not needed: the endpoint is the simulated device's own UiAutomator2 server"
            : `not needed: ${url} is a UiAutomator2 server itself`,
          facts: { source: "status", simulated: status.simulated },
        };
      }
      if (status.kind === "grid") {
        const offered = status.automationNames.some((name) => name.toLowerCase() === "uiautomator2");
        return offered ? { ok: true, detail: "a Grid node offers appium:automationName UiAutomator2", facts: { source: "grid" } } : {
          ok: false,
          detail: `no Grid node offers UiAutomator2 (offered: ${status.automationNames.join(", ") || "none"})`,
          remedy:
            'Register an Appium node with the uiautomator2 driver (stereotype {"platformName":"Android","appium:automationName":"UiAutomator2"})',
          facts: { source: "grid" },
        };
      }
      if (localAnswer === undefined) {
        return {
          ok: false,
          detail: `cannot confirm: ${url} is not on this machine and Appium's /status does not list its drivers`,
          remedy: `On the Appium host run: appium driver list --installed; if uiautomator2 is missing: ${INSTALL}`,
          facts: { source: null },
        };
      }
      const outcome = await localAnswer;
      if (status.kind === "appium") return outcome;
      return { ...outcome, detail: `${outcome.detail}; Appium does not answer yet (see Appium)` };
    } finally {
      budget.signal.removeEventListener("abort", stop);
      local.abort();
    }
  },
  timedOut: (_inputs, timeoutMs) => hung("appium driver list --installed --json", timeoutMs),
};

function hung(command: string, timeoutMs: number): CheckOutcome {
  return {
    ok: false,
    detail: `\`${command}\` did not answer within ${formatSeconds(timeoutMs)} and was stopped`,
    remedy: `Run \`${command}\` yourself; if it hangs, reinstall Appium (npm install -g appium@3) and ${INSTALL}`,
  };
}
