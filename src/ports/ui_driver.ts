/**
 * Port: the hands — one UI automation session on one device (Appium 3 + UiAutomator2 through
 * a W3C client in src/adapters/appium/), with only the actions the act tools use, and the factory that
 * opens one. Elements are named by the absolute XPath of a node in the session's own page source,
 * never by coordinates. Every method throws only HarnessError: APPIUM_UNAVAILABLE (server down, driver
 * missing, HTTP 5xx), SESSION_NOT_FOUND (the session ended on the Appium side), UI_ELEMENT_NOT_FOUND (an
 * element id the changed screen no longer has), APP_NOT_FOUND (also a link nothing handles), EMULATOR_UNAVAILABLE,
 * OPERATION_TIMEOUT, INVALID_ARGUMENT (the driver refused an argument). Every hand is one UiAutomator2 `mobile:`
 * command on an element or the device, never a point.
 */

export type ScrollDirection = "up" | "down" | "left" | "right";

/** IME actions a field's keyboard offers (EditorInfo.IME_ACTION_*), as `mobile: performEditorAction` names them. */
export type EditorAction = "search" | "go" | "send" | "done" | "next" | "previous";

/** The keys the harness presses; the adapter sends their Android key codes (HOME 3, BACK 4, ENTER 66, DEL 67, APP_SWITCH 187). */
export type DeviceKey = "home" | "back" | "enter" | "delete" | "app_switch";

export interface UiDriver {
  /** The Appium session id (not the harness's session id). */
  readonly appiumSessionId: string;
  /**
   * The UiAutomator2 `waitForIdleTimeout` (ms) the session was set to and read back at its start, or null when
   * unknown (the server refused or ignored the setting): a page source waits at most this long for an idle UI.
   */
  readonly idleTimeoutMs: number | null;
  /** The page source (UiAutomator2 XML: class-name tags, uiautomator attributes). */
  source(): Promise<string>;
  /** Element ids matching an XPath on the current page source ([] when none); the XPath may ask for a node's `@bounds`. */
  findElements(xpath: string): Promise<string[]>;
  click(elementId: string): Promise<void>;
  /** Replaces the element's text (clear, then type; any Unicode). */
  replaceText(elementId: string, text: string): Promise<void>;
  /** Adds text after the element's current text (W3C send keys without a clear; a shown hint is not kept). */
  appendText(elementId: string, text: string): Promise<void>;
  /** `mobile: scrollGesture` on the element (a scrollable container); true when it can still scroll that way. */
  scroll(elementId: string, direction: ScrollDirection): Promise<boolean>;
  /** `mobile: longClickGesture` on the element. */
  longPress(elementId: string): Promise<void>;
  /** `mobile: doubleClickGesture` on the element. */
  doubleTap(elementId: string): Promise<void>;
  /** `mobile: performEditorAction`: the focused field's IME action (search, go, send, done, …). */
  editorAction(action: EditorAction): Promise<void>;
  /** `mobile: pressKey` with the key's Android key code. */
  pressKey(key: DeviceKey): Promise<void>;
  /** `mobile: openNotifications`: pulls the notification shade down. */
  openNotifications(): Promise<void>;
  /** `mobile: deepLink` (`am start -W -a android.intent.action.VIEW -d URL [package]`); APP_NOT_FOUND when nothing handles it. */
  deepLink(url: string, packageName?: string): Promise<void>;
  /** `mobile: terminateApp` (force-stop); true when the app was running. */
  terminateApp(packageName: string): Promise<boolean>;
  /** `mobile: clearApp` (`pm clear`: stops the app and deletes its data); APP_NOT_FOUND when it is not installed. */
  clearApp(packageName: string): Promise<void>;
  back(): Promise<void>;
  activateApp(packageName: string): Promise<void>;
  hideKeyboard(): Promise<void>;
  isKeyboardShown(): Promise<boolean>;
  currentPackage(): Promise<string>;
  /** Deletes the session on the Appium side; idempotent, bounded in time, tolerates a session Appium already forgot.
   * Rejects (APPIUM_UNAVAILABLE) when the server answered the DELETE with an error of its own (the session may still be
   * there); called again, it is sent again. */
  delete(): Promise<void>;
}

export interface OpenDriverOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** MCP progress of the operation that opens it (the direct backend says its install and start steps there). */
  progress?: (message: string) => void;
}

export interface UiDriverFactory {
  /** The Appium endpoint without credentials (path kept): what the lock notes for a takeover; never printed whole. */
  readonly endpoint: string;
  /** Opens a session on the device with this serial (checked online by the caller through adb first). */
  open(udid: string, options: OpenDriverOptions): Promise<UiDriver>;
  /** Resolves once every session start abandoned by a cancelled open has finished and been deleted
   * (a real driver takes 20–45 s to start; a server stopping meanwhile must not leave it on Appium).
   * `onWait` hears, before any wait, how many starts are still on their way (not called when none is). */
  drain(onWait?: (starting: number) => void): Promise<void>;
}
