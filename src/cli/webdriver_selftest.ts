/**
 * `selftest-webdriver --appium-url URL` (hidden from --help; a packaging diagnostic): opens one W3C
 * session with webdriverio's `remote()` against the Appium (or simulated UiAutomator2) endpoint, reads
 * the page source length, deletes the session, and prints one JSON line. It proves that webdriverio's
 * run-time protocol import works inside the single executable. Exit 0 on success, 1 with one stderr line.
 */
import { appiumTarget, shownAppiumUrl } from "../appium_url.ts";
import { loadConfig } from "../config.ts";
import { isHarnessError } from "../errors.ts";
import { type CliContext, EXIT } from "./context.ts";

export const WEBDRIVER_SELFTEST_COMMAND = "selftest-webdriver";

export async function runWebdriverSelftest(args: readonly string[], ctx: CliContext): Promise<number> {
  const at = args.indexOf("--appium-url");
  const given = at === -1 ? undefined : args[at + 1];
  let appiumUrl: string;
  try {
    appiumUrl = loadConfig(ctx.env, given === undefined ? {} : { appiumUrl: given }).appiumUrl;
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    ctx.stderr(`${WEBDRIVER_SELFTEST_COMMAND}: ${error.message}\n`);
    return EXIT.usage;
  }
  const target = appiumTarget(appiumUrl);
  const shown = shownAppiumUrl(appiumUrl);
  const started = ctx.clock.now();
  try {
    // Loaded only here: webdriverio is large, and no other command needs it at start-up.
    const { remote } = await import("webdriverio");
    const browser = await remote({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      path: target.path,
      ...(target.credentials === undefined ? {} : { user: target.credentials.user, key: target.credentials.key }),
      capabilities: { platformName: "Android", "appium:automationName": "UiAutomator2" },
      connectionRetryCount: 0,
      logLevel: "silent",
    });
    const source = await browser.getPageSource();
    await browser.deleteSession();
    ctx.stdout(
      JSON.stringify({
        ok: true,
        appium_url: shown,
        session_id: browser.sessionId,
        page_source_chars: source.length,
        duration_ms: Math.round(ctx.clock.now() - started),
      }) + "\n",
    );
    return EXIT.ok;
  } catch (error) {
    ctx.stderr(
      `${WEBDRIVER_SELFTEST_COMMAND}: webdriverio could not open a session at ${shown}: ${(error as Error).message.split("\n")[0]}\n`,
    );
    return EXIT.failure;
  }
}
