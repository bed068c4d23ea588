/**
 * Reads the app named by a window or activity token as dumpsys prints them, across versions and
 * vendors: `Window{hash u0 pkg/cls}`, `Window{proc:hash u0 Name type=N }` (vivo), `Window{hash u0
 * NotificationShade}` (no app), `ActivityRecord{hash u0 pkg/.Act tNN}` and its `} tNN}` quirk, and the
 * pre-29 `AppWindowToken{… ActivityRecord{…}}`. Pure; null when the token names no package.
 */

export interface AppComponent {
  packageName: string;
  /** The activity or window class; absent when the token names only a package-like window title. */
  className?: string;
}

const PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/;

/** The title inside `Window{…}`: the third word (after hash and user), without the `type=N` suffix. */
export function windowTitle(token: string): string | null {
  const match = /Window\{\S+ u\d+ ([^}]*?)(?: type=\d+)?\s*\}/.exec(token);
  return match === null ? null : match[1]!.trim();
}

export function componentOfWindow(token: string): AppComponent | null {
  const title = windowTitle(token);
  if (title === null) return null;
  return componentOfName(title.split(/\s+/)[0]!);
}

export function componentOfActivityRecord(token: string): AppComponent | null {
  const match = /ActivityRecord\{\S+ u\d+ ([^\s}]+)/.exec(token);
  return match === null ? null : componentOfName(match[1]!);
}

function componentOfName(name: string): AppComponent | null {
  const slash = name.indexOf("/");
  if (slash === -1) return PACKAGE.test(name) ? { packageName: name } : null;
  const packageName = name.slice(0, slash);
  if (!PACKAGE.test(packageName)) return null;
  const cls = name.slice(slash + 1);
  return { packageName, className: cls.startsWith(".") ? packageName + cls : cls };
}
