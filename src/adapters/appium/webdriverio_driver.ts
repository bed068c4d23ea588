/**
 * The UiDriverFactory over one W3C session each (w3c_session.ts, the protocol commands webdriverio's `remote()`
 * sent before: Appium 3 + UiAutomator2, or any W3C endpoint that speaks its dialect, like the simulated device's
 * own server). Sessions start with no connection retries
 * (nothing listening answers APPIUM_UNAVAILABLE in milliseconds), `noReset`, the adb server's port and
 * host when they are not the default, and a newCommandTimeout above the harness's idle expiry so the
 * harness, not Appium, ends idle sessions. Each new session is given UiAutomator2's `waitForIdleTimeout` setting
 * through the settings API (a setting, not a capability: the server resets it on every new session) and reads
 * it back; `idleTimeoutMs` is null when the server refused or ignored it. Actions use single protocol commands (no implicit waits);
 * app, keyboard, scroll, long press, double tap, keys, editor action, notifications and app state go through the
 * UiAutomator2 driver's `mobile:` methods; deep links through the harness's adb (`openLink`: the URL quoted). Every failure is translated by appium_failure.ts.
 */
import { appiumTarget, basicAuthorization, shownAppiumUrl } from "../../appium_url.ts";
import { HarnessError } from "../../errors.ts";
import type { DeviceKey, OpenDriverOptions, UiDriver, UiDriverFactory } from "../../ports/ui_driver.ts";
import { appiumFailure } from "./appium_failure.ts";
import { newW3cSession, type W3cSession } from "./w3c_session.ts";

export type Browser = W3cSession;

const ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf";
/** Android's KeyEvent.KEYCODE_* of each key the port names. */
const KEYCODES: Record<DeviceKey, number> = { home: 3, back: 4, enter: 66, delete: 67, app_switch: 187 };
const DELETE_LIMIT_MS = 5000;

export interface AppiumDriverFactoryOptions {
  appiumUrl: string;
  /** Canonical adb server the harness uses (`tcp:HOST:PORT`): Appium is told the same. */
  adbServer: string;
  /** Each HTTP request's own limit (the operation's deadline still cancels sooner). */
  requestTimeoutMs: number;
  /** Appium ends a session idle this long; kept above the harness's own idle expiry. */
  newCommandTimeoutS: number;
  /** The `waitForIdleTimeout` setting given to each new session (ms); absent: left as the server has it (unknown). */
  uiIdleTimeoutMs?: number;
  /**
   * Opens a deep link on the device through the harness's own adb, the URL quoted (composition.ts gives it): the
   * driver's `mobile: deepLink` puts it on a device shell line with only `&` escaped, so `?`, `[` and `]` could glob.
   * Absent (the adapter tested alone against a UiAutomator2 endpoint), `mobile: deepLink` is used.
   */
  openLink?: (link: { udid: string; url: string; packageName?: string }, options: { timeoutMs: number }) => Promise<void>;
}

export function createAppiumDriverFactory(options: AppiumDriverFactoryOptions): UiDriverFactory {
  // The credentials of a cloud's URL go as HTTP Basic auth on every request of the session, as webdriverio's user/key did; the
  // endpoint (the lock's note of the session) has none, and failures say scheme, host and port only.
  const target = appiumTarget(options.appiumUrl);
  const endpoint = target.endpoint;
  const shown = shownAppiumUrl(endpoint);
  const abandoned = new Set<Promise<void>>();
  return {
    endpoint,
    drain: async (onWait) => {
      if (abandoned.size > 0) onWait?.(abandoned.size);
      while (abandoned.size > 0) await Promise.all([...abandoned]);
    },
    async open(udid, open: OpenDriverOptions): Promise<UiDriver> {
      try {
        const started = newW3cSession({
          url: new URL(endpoint),
          ...(target.credentials === undefined ? {} : { authorization: basicAuthorization(target.credentials) }),
          capabilities: capabilitiesFor(udid, options),
          requestTimeoutMs: Math.max(1000, Math.min(options.requestTimeoutMs, open.timeoutMs)),
        });
        const browser = await abortable(started, open.signal, (late) => {
          const cleanup = late.then((b) => b.deleteSession().then(() => {}, () => {}), () => {});
          abandoned.add(cleanup);
          void cleanup.finally(() => abandoned.delete(cleanup));
        });
        // The settings calls are part of the start: cancelled, the session is deleted at once (not when they answer).
        const idleTimeoutMs = await abortable(setIdleTimeout(browser, options.uiIdleTimeoutMs), open.signal, () => {
          const cleanup = browser.deleteSession().then(() => {}, () => {});
          abandoned.add(cleanup);
          void cleanup.finally(() => abandoned.delete(cleanup));
        });
        const openLink = options.openLink === undefined
          ? undefined
          : (url: string, packageName?: string) =>
            options.openLink!({ udid, url, ...(packageName === undefined ? {} : { packageName }) }, {
              timeoutMs: options.requestTimeoutMs,
            });
        return driverOf(browser, shown, idleTimeoutMs, openLink);
      } catch (error) {
        throw appiumFailure(error, shown, "starting a UiAutomator2 session");
      }
    },
  };
}

function capabilitiesFor(udid: string, options: AppiumDriverFactoryOptions): Record<string, unknown> {
  const caps: Record<string, unknown> = {
    platformName: "Android",
    "appium:automationName": "UiAutomator2",
    "appium:udid": udid,
    "appium:noReset": true,
    "appium:newCommandTimeout": options.newCommandTimeoutS,
  };
  const server = /^tcp:(.+):(\d+)$/.exec(options.adbServer);
  if (server !== null) {
    const [, host, port] = server as unknown as [string, string, string];
    if (port !== "5037") caps["appium:adbPort"] = Number(port);
    if (!/^(127\.\d+\.\d+\.\d+|localhost|\[?::1\]?)$/.test(host)) caps["appium:remoteAdbHost"] = host.replace(/^\[|\]$/g, "");
  }
  return caps;
}

/** Sets UiAutomator2's waitForIdleTimeout and reads it back: the value the server holds, or null when unknown. */
export async function setIdleTimeout(browser: Browser, ms: number | undefined): Promise<number | null> {
  if (ms === undefined) return null;
  try {
    await browser.updateSettings({ waitForIdleTimeout: ms });
    const held = (await browser.getSettings() as Record<string, unknown> | null)?.["waitForIdleTimeout"];
    return held === ms ? ms : null;
  } catch {
    return null; // a server without the settings API: the reads are confirmed as before
  }
}

/**
 * The UiDriver over one W3C session: W3C commands for the page source, elements, typing and Back, the
 * UiAutomator2 driver's `mobile:` methods for the rest, unless `hands` gives them another way (the direct backend
 * talks to the on-device server, which answers no `mobile:` script: its own routes and adb do those). `hands` is
 * handed the guarded call, so a closed session and a failure read the same whichever way an action goes.
 * `shown`: the server's URL as failures say it (scheme, host and port).
 */
export function driverOf(
  browser: Browser,
  shown: string,
  idleTimeoutMs: number | null,
  openLink?: (url: string, packageName?: string) => Promise<void>,
  hands?: (call: GuardedCall) => Partial<UiDriver>,
): UiDriver {
  let deleted = false;
  let deleting: Promise<void> | undefined;
  const call = async <T>(doing: string, work: () => Promise<T>): Promise<T> => {
    if (deleted) throw new HarnessError("SESSION_NOT_FOUND", `The UI session was already closed when ${doing} was asked.`);
    try {
      const value = await work();
      const failed = (value as { error?: unknown } | null)?.error;
      if (typeof failed === "string") throw Object.assign(new Error((value as { message?: string }).message ?? failed), { name: failed });
      return value;
    } catch (error) {
      throw appiumFailure(error, shown, doing);
    }
  };
  const mobile = <T>(method: MobileMethod, args: Record<string, unknown> = {}) =>
    call(MOBILE_DOING[method], () => browser.executeScript(`mobile: ${method}`, [args]) as Promise<T>);
  const own = hands?.(call) ?? {};
  const driver: UiDriver = {
    appiumSessionId: browser.sessionId,
    idleTimeoutMs,
    source: () => call("reading the page source", () => browser.getPageSource()),
    findElements: async (xpath) => {
      const found = await call("finding an element", () => browser.findElements("xpath", xpath));
      return found.map((ref) => (ref as Record<string, unknown> | null)?.[ELEMENT_KEY]).filter((id) => typeof id === "string");
    },
    click: async (id) => void (await call("tapping", () => browser.elementClick(id))),
    replaceText: async (id, text) => {
      await call("clearing the field", () => browser.elementClear(id));
      await call("typing", () => browser.elementSendKeys(id, text));
    },
    appendText: async (id, text) => void (await call("typing", () => browser.elementSendKeys(id, text))),
    scroll: async (id, direction) => Boolean(await mobile<unknown>("scrollGesture", { elementId: id, direction, percent: 0.75 })),
    longPress: async (id) => void (await mobile("longClickGesture", { elementId: id })),
    doubleTap: async (id) => void (await mobile("doubleClickGesture", { elementId: id })),
    editorAction: async (action) => void (await mobile("performEditorAction", { action })),
    pressKey: async (key) => void (await mobile("pressKey", { keycode: KEYCODES[key] })),
    openNotifications: async () => void (await mobile("openNotifications")),
    deepLink: async (url, packageName) =>
      openLink !== undefined
        ? await call(MOBILE_DOING.deepLink, () => openLink(url, packageName))
        : void (await mobile("deepLink", packageName === undefined ? { url } : { url, package: packageName })),
    terminateApp: async (packageName) => Boolean(await mobile<unknown>("terminateApp", { appId: packageName })),
    clearApp: async (packageName) => void (await mobile("clearApp", { appId: packageName })),
    back: async () => void (await call("pressing Back", () => browser.back())),
    activateApp: async (packageName) => void (await mobile("activateApp", { appId: packageName })),
    hideKeyboard: async () => void (await mobile("hideKeyboard")),
    isKeyboardShown: async () => Boolean(await mobile<unknown>("isKeyboardShown")),
    currentPackage: async () => String(await mobile<unknown>("getCurrentPackage") ?? ""),
    // Resolves once the session is gone (or nothing answers: a zombie's 404, a dead server). A server that answers the
    // DELETE with an error of its own ("unknown error": a 5xx) still holds the session: rejected (APPIUM_UNAVAILABLE),
    // and a later delete() sends it again.
    delete: () => {
      deleted = true;
      return deleting ??= Promise.race([
        browser.deleteSession().then(() => {}, (error: unknown) => {
          if ((error as { name?: unknown } | null)?.name !== "unknown error") return;
          deleting = undefined;
          throw appiumFailure(error, shown, "ending the UI session");
        }),
        new Promise<void>((resolve) => setTimeout(resolve, DELETE_LIMIT_MS).unref?.()),
      ]);
    },
  };
  return { ...driver, ...own };
}

/** Runs one step of an action: refused once the session was deleted, failures translated by appium_failure.ts. */
export type GuardedCall = <T>(doing: string, work: () => Promise<T>) => Promise<T>;

/** Each `mobile:` command the driver sends, said as a failure message reads it ("… while opening the link"). */
const MOBILE_DOING = {
  scrollGesture: "scrolling",
  longClickGesture: "long-pressing",
  doubleClickGesture: "double-tapping",
  performEditorAction: "pressing the keyboard's action key",
  pressKey: "pressing a key",
  openNotifications: "opening the notification shade",
  deepLink: "opening the link",
  terminateApp: "stopping the app",
  clearApp: "clearing the app's data",
  activateApp: "bringing the app to the foreground",
  hideKeyboard: "closing the keyboard",
  isKeyboardShown: "asking whether the keyboard is open",
  getCurrentPackage: "asking which app is in the foreground",
} as const;
type MobileMethod = keyof typeof MOBILE_DOING;

/** Resolves with the work, or rejects with the signal's reason; `abandoned` gets the late work to clean up. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, abandoned: (late: Promise<T>) => void): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) {
    abandoned(work);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      abandoned(work);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then((value) => {
      signal.removeEventListener("abort", onAbort);
      if (signal.aborted) return;
      resolve(value);
    }, (error) => {
      signal.removeEventListener("abort", onAbort);
      reject(error);
    });
  });
}
