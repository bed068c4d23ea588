/**
 * Parses `dumpsys input_method`: whether the soft keyboard is shown. API ≤ 33 prints
 * `mShowRequested=… mInputShown=…` on one line, API 35 prints `mInputShown=` on its own line; the
 * service-side `mIsInputViewShown` is a fallback. Pure; null when the dump does not say.
 */
export function parseInputShown(text: string): boolean | null {
  const shown = /\bmInputShown=(true|false)\b/.exec(text) ?? /\bmIsInputViewShown=(true|false)\b/.exec(text);
  return shown === null ? null : shown[1] === "true";
}
