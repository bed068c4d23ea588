/**
 * Check 6, Appium reachable: `GET {APPIUM_URL}/status` answers `ready: true`, with the version it
 * reports (Appium's `build.version`, a Grid's node version). A Selenium Grid in front and the simulated
 * device's UiAutomator2 server (`--device sim`: it is the Appium endpoint) are accepted and said so.
 * Nothing listening, no answer in time, not ready, Appium 1, or not WebDriver at that path is a miss. The URL is
 * said as scheme, host and port (shownAppiumUrl: a cloud's credentials are sent, never printed).
 */
import { shownAppiumUrl } from "../appium_url.ts";
import { askStatus } from "./appium_status.ts";
import { knownSdk } from "./check_android_sdk.ts";
import type { CheckOutcome, DoctorCheck, DoctorInputs } from "./types.ts";
import { formatSeconds } from "./units.ts";

/** How to start Appium 3 with the driver where the URL points, as one line to copy. */
export async function startAppiumRemedy(inputs: DoctorInputs): Promise<string> {
  const url = safeUrl(inputs.config.appiumUrl);
  const port = url?.port || "4723";
  const host = url?.hostname ?? "127.0.0.1";
  const sdk = (await knownSdk(inputs)) ?? "<sdk folder>";
  const base = url !== undefined && url.pathname !== "/" && url.pathname !== "" ? ` --base-path ${url.pathname}` : "";
  return `Start Appium 3 with the UiAutomator2 driver: npm install -g appium@3 && appium driver install uiautomator2 && ` +
    `ANDROID_HOME=${sdk} appium --address ${host} --port ${port}${base} (or point APPIUM_URL / --appium-url at yours)`;
}

export const appiumCheck: DoctorCheck = {
  id: "appium",
  name: "Appium",
  direct: "not_needed",
  run: async (inputs, budget) => {
    const url = shownAppiumUrl(inputs.config.appiumUrl);
    const status = await askStatus(inputs, budget);
    const facts = { url };
    switch (status.kind) {
      case "unreachable":
        if (status.reason === "timeout" || status.reason === "aborted") return appiumCheck.timedOut(inputs, budget.timeoutMs);
        return {
          ok: false,
          detail: status.reason === "refused" ? `nothing answers at ${url} (connection refused)` : `cannot reach ${url}: ${status.message}`,
          remedy: await startAppiumRemedy(inputs),
          facts,
        };
      case "not-webdriver":
        return {
          ok: false,
          detail: `${shownStatusUrl(inputs.config.appiumUrl)} answered HTTP ${status.status}${
            status.excerpt === "" ? "" : ` (${status.excerpt})`
          }, not a WebDriver status`,
          remedy:
            "Point APPIUM_URL at Appium's base path (Appium 3: http://127.0.0.1:4723, no /wd/hub unless started with --base-path /wd/hub)",
          facts: { ...facts, http_status: status.status },
        };
      case "uiautomator2":
        if (!status.ready) return notReady(url, status.message, facts);
        return {
          ok: true,
          detail: status.simulated
            ? `${url} ready: the simulated device's UiAutomator2 server (with --device sim it is the Appium endpoint)`
            : `${url} ready: a UiAutomator2 server answers directly (${status.message})`,
          facts: { ...facts, server: "uiautomator2", simulated: status.simulated },
        };
      case "grid":
        if (!status.ready) return notReady(url, status.message, facts);
        return {
          ok: true,
          detail: `${url} ready: Selenium Grid${status.version === null ? "" : ` ${status.version}`} with ${status.nodes} node${
            status.nodes === 1 ? "" : "s"
          }`,
          facts: { ...facts, server: "grid", version: status.version, nodes: status.nodes },
        };
      case "appium": {
        if (!status.ready) return notReady(url, status.message, facts);
        const major = Number(/^(\d+)\./.exec(status.version ?? "")?.[1] ?? Number.NaN);
        const found = { ...facts, server: "appium", version: status.version };
        if (major < 2) {
          return {
            ok: false,
            detail: `${url} is Appium ${status.version}, which is end-of-life and has no UiAutomator2 driver 8`,
            remedy: await startAppiumRemedy(inputs),
            facts: found,
          };
        }
        return { ok: true, detail: `${url} ready: Appium ${status.version ?? "(version not reported)"}`, facts: found };
      }
    }
  },
  timedOut: (inputs, timeoutMs) => {
    const status = shownStatusUrl(inputs.config.appiumUrl);
    return {
      ok: false,
      detail: `${status} did not answer within ${formatSeconds(timeoutMs)}`,
      remedy: `Check that Appium runs there and is not stuck (curl ${status}); restart it if it hangs`,
      facts: { url: shownAppiumUrl(inputs.config.appiumUrl) },
    };
  },
};

function notReady(url: string, message: string, facts: Record<string, string>): CheckOutcome {
  return {
    ok: false,
    detail: `${url} answers but is not ready${message === "" ? "" : `: ${message}`}`,
    remedy: `Wait for it to finish starting, or restart it; then rerun doctor`,
    facts,
  };
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The status URL as it may be said: scheme, host and port, `/…` for a base path (not said), then `/status`. */
function shownStatusUrl(appiumUrl: string): string {
  const path = safeUrl(appiumUrl)?.pathname.replace(/\/+$/, "") ?? "";
  return `${shownAppiumUrl(appiumUrl)}${path === "" ? "" : "/…"}/status`;
}
