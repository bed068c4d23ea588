/**
 * The UiDriverFactory of the direct backend (the default without an Appium URL): the harness installs and starts
 * the on-device UiAutomator2 server itself (device_server.ts) and talks to it over W3C (w3c_session.ts) through a forwarded
 * port, no Appium in between. The session is the same UiDriver the Appium adapter gives (webdriverio_driver.ts's
 * `driverOf`: W3C page source, elements, typing, Back), with what the Appium driver does in its own code done
 * here the same way: the gestures, key presses and the notification shade through the server's own routes
 * (`/appium/gestures/{scroll,long_click,double_click}`, `/appium/device/{press_keycode,open_notifications}`, as
 * the driver proxies them), and through the harness's fixed adb commands what the driver does with adb: deep
 * links (`am start -W -a android.intent.action.VIEW -d URL [PKG]`), the keyboard's state (`dumpsys input_method`)
 * and closing it (ESCAPE, then BACK, as appium-adb), the package in front (`dumpsys window`), launching
 * (`monkey … LAUNCHER 1`), force-stop (`pidof`, `am force-stop`) and `pm clear`. An IME action (search, go, …)
 * is the Enter key here: the driver types it through the Appium Settings IME, which the harness does not install;
 * a single-line field turns Enter into its own action. A server found gone (refused connection) is started again
 * on the next open.
 */
import { HarnessError } from "../../errors.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DeviceKey, EditorAction, OpenDriverOptions, UiDriver, UiDriverFactory } from "../../ports/ui_driver.ts";
import { ADB_COMMANDS } from "../adb/adb_commands.ts";
import type { AdbClient } from "../adb/adb_client.ts";
import { parseInputShown } from "../adb/parse_input_method.ts";
import { foregroundPackageOf, parseWindowFocus } from "../adb/parse_dumpsys_window.ts";
import { appiumFailure } from "../appium/appium_failure.ts";
import { abortable, type Browser, driverOf, type GuardedCall, setIdleTimeout } from "../appium/webdriverio_driver.ts";
import { newW3cSession } from "../appium/w3c_session.ts";
import { createDeviceServers, type StartProgress } from "./device_server.ts";
import type { ServerApks } from "./server_package.ts";

const ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf";
const KEYCODES: Record<DeviceKey, number> = { home: 3, back: 4, enter: 66, delete: 67, app_switch: 187 };
const KEYCODE_ESCAPE = 111;
const KEYCODE_BACK = 4;
/** The factory's endpoint before any server was started (messages only). */
export const DIRECT_ENDPOINT = "direct (the harness's own UiAutomator2 server over adb)";

export interface DirectDriverFactoryOptions {
  adb: AdbClient;
  clock: Clock;
  apks: () => Promise<ServerApks & { bytes: { server: number; test: number } }>;
  /** Each HTTP request's own limit (the operation's deadline still cancels sooner). */
  requestTimeoutMs: number;
  /** The `waitForIdleTimeout` setting given to each new session (ms). */
  uiIdleTimeoutMs?: number;
  /** Hears the server's install and start steps (the composition turns them into MCP progress or stderr lines). */
  onProgress?: (progress: StartProgress) => void;
  launchTimeoutMs?: number;
}

export interface DirectDriverFactory extends UiDriverFactory {
  /** Ends the instrumentations the harness started and removes its forwards (`serve` stopping). */
  stop(): Promise<void>;
}

export function createDirectDriverFactory(options: DirectDriverFactoryOptions): DirectDriverFactory {
  const abandoned = new Set<Promise<void>>();
  const servers = createDeviceServers({
    adb: options.adb,
    clock: options.clock,
    apks: options.apks,
    ...(options.launchTimeoutMs === undefined ? {} : { launchTimeoutMs: options.launchTimeoutMs }),
    get: httpGet,
    deleteSession: async (url) => void (await httpGet(url, 1000, undefined, "DELETE")),
  });
  const endpointOf = (serial: string) => `the UiAutomator2 server on ${serial} (direct)`;
  /** The base URL of the server last started: what a lock note records, so a takeover can end its session. */
  let lastBaseUrl: string | undefined;
  const factory: DirectDriverFactory = {
    get endpoint() {
      return lastBaseUrl ?? DIRECT_ENDPOINT;
    },
    drain: async (onWait) => {
      if (abandoned.size > 0) onWait?.(abandoned.size);
      while (abandoned.size > 0) await Promise.all([...abandoned]);
    },
    async open(udid, open: OpenDriverOptions): Promise<UiDriver> {
      // Each step to the server's log (stderr) and, when the client asked for them, as the call's MCP progress.
      const report = (progress: StartProgress) => {
        options.onProgress?.(progress);
        open.progress?.(progress.message);
      };
      const started = async () =>
        await servers.start(udid, {
          timeoutMs: open.timeoutMs,
          ...(open.signal === undefined ? {} : { signal: open.signal }),
          report,
        });
      let baseUrl = await started();
      let browser: Browser;
      try {
        browser = await session(baseUrl, open);
      } catch (error) {
        if (!refused(error)) throw appiumFailure(error, endpointOf(udid), "starting a UiAutomator2 session");
        servers.forget(udid); // the server quit after its last session: start it again, once
        baseUrl = await started();
        try {
          browser = await session(baseUrl, open);
        } catch (again) {
          throw appiumFailure(again, endpointOf(udid), "starting a UiAutomator2 session");
        }
      }
      lastBaseUrl = baseUrl;
      const idleTimeoutMs = await abortable(setIdleTimeout(browser, options.uiIdleTimeoutMs), open.signal, () => {
        const cleanup = browser.deleteSession().then(() => {}, () => {});
        abandoned.add(cleanup);
        void cleanup.finally(() => abandoned.delete(cleanup));
      });
      return driverOf(browser, endpointOf(udid), idleTimeoutMs, undefined, (call) => hands(call, browser, baseUrl, udid, options));
    },
    stop: () => servers.stop(),
  };

  async function session(baseUrl: string, open: OpenDriverOptions): Promise<Browser> {
    const started = newW3cSession({
      url: new URL(baseUrl),
      capabilities: { platformName: "Android", "appium:automationName": "UiAutomator2" },
      requestTimeoutMs: Math.max(1000, Math.min(options.requestTimeoutMs, open.timeoutMs)),
    });
    return await abortable(started, open.signal, (late) => {
      const cleanup = late.then((b) => b.deleteSession().then(() => {}, () => {}), () => {});
      abandoned.add(cleanup);
      void cleanup.finally(() => abandoned.delete(cleanup));
    });
  }

  return factory;
}

/** The actions the on-device server answers on its own routes, and those the Appium driver does with adb. */
function hands(
  call: GuardedCall,
  browser: Browser,
  baseUrl: string,
  serial: string,
  options: DirectDriverFactoryOptions,
): Partial<UiDriver> {
  const route = async <T>(doing: string, path: string, body: Record<string, unknown>): Promise<T> =>
    await call(doing, () => serverPost<T>(`${baseUrl}/session/${browser.sessionId}${path}`, body, options.requestTimeoutMs));
  const origin = (id: string) => ({ ELEMENT: id, [ELEMENT_KEY]: id });
  const shellText = async (command: Parameters<AdbClient["text"]>[0]) =>
    await options.adb.text(command, { serial, timeoutMs: options.requestTimeoutMs });
  const keyboardShown = async () => parseInputShown(await shellText(ADB_COMMANDS.dumpsysInputMethod())) === true;
  const key = async (code: number) => void (await shellText(ADB_COMMANDS.keyevent(code)));
  return {
    scroll: async (id, direction) =>
      Boolean(await route<unknown>("scrolling", "/appium/gestures/scroll", { origin: origin(id), direction, percent: 0.75 })),
    longPress: async (id) => void (await route("long-pressing", "/appium/gestures/long_click", { origin: origin(id) })),
    doubleTap: async (id) => void (await route("double-tapping", "/appium/gestures/double_click", { origin: origin(id) })),
    pressKey: async (k) => void (await route("pressing a key", "/appium/device/press_keycode", { keycode: KEYCODES[k] })),
    openNotifications: async () => void (await route("opening the notification shade", "/appium/device/open_notifications", {})),
    editorAction: async (_action: EditorAction) =>
      void (await route("pressing the keyboard's action key", "/appium/device/press_keycode", { keycode: KEYCODES.enter })),
    deepLink: (url, packageName) =>
      call("opening the link", async () => {
        const said = await shellText(ADB_COMMANDS.startView(url, packageName));
        if (/unable to resolve Intent|Error: Activity not started/i.test(said)) throw new Error("unable to resolve Intent");
      }),
    terminateApp: (packageName) =>
      call("stopping the app", async () => {
        const running = (await shellText(ADB_COMMANDS.pidof(packageName))).trim() !== "";
        await shellText(ADB_COMMANDS.forceStop(packageName));
        return running;
      }),
    clearApp: (packageName) =>
      call("clearing the app's data", async () => {
        const said = await shellText(ADB_COMMANDS.clearPackage(packageName));
        if (!/^Success/m.test(said)) throw new Error(`pm clear ${packageName}: Command output: Failed`);
      }),
    activateApp: (packageName) =>
      call("bringing the app to the foreground", async () => {
        const said = await shellText(ADB_COMMANDS.launchPackage(packageName));
        if (/No activities found to run|monkey aborted/i.test(said)) {
          throw new Error(`Unable to resolve launchable activity of ${packageName}: it is not installed or has none`);
        }
      }),
    hideKeyboard: () =>
      call("closing the keyboard", async () => {
        if (!(await keyboardShown())) return;
        for (const code of [KEYCODE_ESCAPE, KEYCODE_BACK]) {
          await key(code);
          for (let i = 0; i < 3; i++) {
            if (!(await keyboardShown())) return;
            await options.clock.sleep(250);
          }
        }
        throw new HarnessError("UI_ELEMENT_NOT_FOUND", "The software keyboard cannot be hidden; tap outside the field, then retry.");
      }),
    isKeyboardShown: () => call("asking whether the keyboard is open", keyboardShown),
    currentPackage: () =>
      call("asking which app is in the foreground", async () => {
        const displays = foregroundPackageOf(parseWindowFocus(await shellText(ADB_COMMANDS.dumpsysWindowDisplays())));
        return displays ?? foregroundPackageOf(parseWindowFocus(await shellText(ADB_COMMANDS.dumpsysWindowWindows()))) ?? "";
      }),
  };
}

/** One JSON POST to the server, its W3C error thrown as w3c_session.ts throws it (name = the W3C error). */
async function serverPost<T>(url: string, body: Record<string, unknown>, timeoutMs: number): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const answer = await response.json().catch(() => ({})) as { value?: unknown };
  const value = answer.value as { error?: unknown; message?: unknown } | null | undefined;
  if (!response.ok || (value !== null && typeof value === "object" && typeof value.error === "string")) {
    const name = typeof value?.error === "string" ? value.error : `HTTP ${response.status}`;
    throw Object.assign(new Error(typeof value?.message === "string" ? value.message : name), { name });
  }
  return answer.value as T;
}

async function httpGet(
  url: string,
  timeoutMs: number,
  signal?: AbortSignal,
  method = "GET",
): Promise<{ status: number; body: string } | null> {
  try {
    const limit = AbortSignal.timeout(timeoutMs);
    const response = await fetch(url, { method, signal: signal === undefined ? limit : AbortSignal.any([limit, signal]) });
    return { status: response.status, body: await response.text() };
  } catch {
    return null;
  }
}

function refused(error: unknown): boolean {
  const text = `${(error as Error)?.message ?? ""} ${String((error as { cause?: unknown })?.cause ?? "")}`;
  return /ECONNREFUSED|ECONNRESET|socket hang up|fetch failed|Unable to connect|other side closed/i.test(text);
}
