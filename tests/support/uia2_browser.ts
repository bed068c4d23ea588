/**
 * Real webdriverio against the simulated UiAutomator2 server in front of a scenario device: the sim tests'
 * one set-up (ephemeral port, no retries, silent), session deleted and server stopped after, also on failure.
 */
import { remote } from "webdriverio";
import { resolveScenario, type Scenario, ScenarioDevice, startUia2Server } from "../../src/sim/mod.ts";

export type Browser = Awaited<ReturnType<typeof remote>>;

/** `waitforTimeout`: webdriverio's implicit wait for `$` (0: a miss answers at once). */
export async function withScenarioBrowser(
  scenario: string | Scenario,
  options: { waitforTimeout: number },
  fn: (b: Browser, device: ScenarioDevice) => Promise<void>,
): Promise<void> {
  const device = new ScenarioDevice(resolveScenario(scenario));
  const server = await startUia2Server(device, {});
  let browser: Browser | null = null;
  try {
    browser = await remote({
      hostname: "127.0.0.1",
      port: server.port,
      path: "/",
      capabilities: { platformName: "Android", "appium:automationName": "UiAutomator2" },
      waitforTimeout: options.waitforTimeout,
      connectionRetryCount: 0,
      logLevel: "silent",
    });
    await fn(browser, device);
  } finally {
    await browser?.deleteSession().catch(() => {});
    await server.stop();
  }
}
