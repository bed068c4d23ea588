/**
 * The published timing defaults of the act tools (SPEC §4, docs/contract.md): how long they wait for
 * an element, for a package to reach the foreground, and for the screen to settle, and a session's
 * action ceiling. Part of the contract: changing one is a contract change.
 */
export const ACT_DEFAULTS = {
  /** After an act, the page source is read this often until two consecutive reads are equal… */
  settleIntervalMs: 200,
  /** …for at most this long; then `settled: false`. */
  settleMaxMs: 3000,
  /**
   * The UiAutomator2 `waitForIdleTimeout` the harness sets on every session it opens: a page source waits at
   * most this long for the UI to be quiet (500 ms without an accessibility event) before it answers, so a read
   * after an act that took less than this saw a quiet UI and is final (src/device/settle.ts).
   */
  uiIdleTimeoutMs: 3000,
  /** ui_tap / ui_type_text wait this long for the selector to match before UI_ELEMENT_NOT_FOUND. */
  elementWaitMs: 5000,
  /** How often the element wait and the foreground wait look again. */
  pollIntervalMs: 250,
  /** app_launch / settings_open / ui_session_open with a package wait this long for the foreground. */
  foregroundWaitMs: 15000,
} as const;

export const SESSION_DEFAULTS = {
  /** An explicit session ends after this many actions (a runaway agent cannot hold a device for ever). */
  maxActions: 1000,
} as const;
