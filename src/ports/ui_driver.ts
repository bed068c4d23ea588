/**
 * Port: the hands — one UI automation session on one device (Appium 3 + UiAutomator2 through
 * webdriverio in src/adapters/appium/), with only the actions the act tools use, and the factory that
 * opens one. Elements are named by the absolute XPath of a node in the session's own page source,
 * never by coordinates. Every method throws only HarnessError: APPIUM_UNAVAILABLE (server down, driver
 * missing, HTTP 5xx), SESSION_NOT_FOUND (the session ended on the Appium side), UI_ELEMENT_NOT_FOUND (an
 * element id the changed screen no longer has), APP_NOT_FOUND, EMULATOR_UNAVAILABLE, OPERATION_TIMEOUT.
 */

export interface ElementRectPx {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface UiDriver {
  /** The Appium session id (not the harness's session id). */
  readonly appiumSessionId: string;
  /** The page source (UiAutomator2 XML: class-name tags, uiautomator attributes). */
  source(): Promise<string>;
  /** Element ids matching an XPath on the current page source ([] when none). */
  findElements(xpath: string): Promise<string[]>;
  elementRect(elementId: string): Promise<ElementRectPx>;
  click(elementId: string): Promise<void>;
  /** Replaces the element's text (clear, then type; any Unicode). */
  replaceText(elementId: string, text: string): Promise<void>;
  /** `mobile: scrollGesture` on the element; true when it can still scroll that way. */
  scroll(elementId: string, direction: "up" | "down"): Promise<boolean>;
  back(): Promise<void>;
  activateApp(packageName: string): Promise<void>;
  hideKeyboard(): Promise<void>;
  isKeyboardShown(): Promise<boolean>;
  currentPackage(): Promise<string>;
  /** Deletes the session on the Appium side; idempotent, bounded in time, tolerates a session Appium already forgot. */
  delete(): Promise<void>;
}

export interface OpenDriverOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface UiDriverFactory {
  /** The Appium endpoint, for messages. */
  readonly endpoint: string;
  /** Opens a session on the device with this serial (checked online by the caller through adb first). */
  open(udid: string, options: OpenDriverOptions): Promise<UiDriver>;
  /** Resolves once every session start abandoned by a cancelled open has finished and been deleted
   * (a real driver takes 20–45 s to start; a server stopping meanwhile must not leave it on Appium). */
  drain(): Promise<void>;
}
