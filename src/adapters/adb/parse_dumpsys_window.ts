/**
 * Parses `dumpsys window` output (any section: `displays`, `windows`, a window name, or the whole
 * dump): the focused window and focused app per display, and the input-method window's visibility
 * and keyboard top. Several displays print several pairs; `=null` entries are skipped. A hidden IME
 * window keeps stale insets, so only `isVisible=true` counts as shown. Pure; never throws.
 */
import { type AppComponent, componentOfActivityRecord, componentOfWindow } from "./component_token.ts";
import { toLines } from "./text_lines.ts";

export interface WindowFocus {
  /** Apps of the non-null `mCurrentFocus` lines, in the order printed. */
  currentFocus: AppComponent[];
  /** Raw titles of focused windows that name no app (e.g. `NotificationShade`). */
  systemWindows: string[];
  /** Apps of the non-null `mFocusedApp` lines, in the order printed. */
  focusedApps: AppComponent[];
}

export function parseWindowFocus(text: string): WindowFocus {
  const focus: WindowFocus = { currentFocus: [], systemWindows: [], focusedApps: [] };
  for (const line of toLines(text)) {
    const current = /^\s*mCurrentFocus=(.*)$/.exec(line);
    if (current !== null && current[1] !== "null") {
      const app = componentOfWindow(current[1]!);
      if (app !== null) focus.currentFocus.push(app);
      else {
        const title = /u\d+ ([^}\s]+)/.exec(current[1]!);
        if (title !== null) focus.systemWindows.push(title[1]!);
      }
      continue;
    }
    const focusedApp = /^\s*mFocusedApp=(.*)$/.exec(line);
    if (focusedApp !== null && focusedApp[1] !== "null") {
      const app = componentOfActivityRecord(focusedApp[1]!);
      if (app !== null) focus.focusedApps.push(app);
    }
  }
  return focus;
}

/** The package in front: the first focused window that names an app, else the first focused app. */
export function foregroundPackageOf(focus: WindowFocus): string | null {
  return focus.currentFocus[0]?.packageName ?? focus.focusedApps[0]?.packageName ?? null;
}

export interface ImeWindow {
  /** The IME's package when the dump names it (`package=` or the vivo `proc:` prefix). */
  packageName?: string;
  visible: boolean;
  /** Screen y of the keyboard's top edge: frame top + given content inset; only when visible and known. */
  top?: number;
}

/** The `Window{… InputMethod}` block, or null when the dump has none. */
export function parseImeWindow(text: string): ImeWindow | null {
  const lines = toLines(text);
  const start = lines.findIndex((line) => /^\s*Window #\d+ Window\{[^}]*\bInputMethod\b[^}]*\}:/.test(line));
  if (start === -1) return null;
  const block: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\s*Window #\d+ /.test(line) || /^\S/.test(line)) break;
    block.push(line);
  }
  const text2 = block.join("\n");
  const ime: ImeWindow = { visible: /^\s*isVisible=true\s*$/m.test(text2) };
  const pkg = /\bpackage=(\S+)/.exec(text2)?.[1] ?? /Window\{([^:\s}]+):/.exec(lines[start]!)?.[1];
  if (pkg !== undefined) ime.packageName = pkg;
  if (!ime.visible) return ime;
  const inset = /mGivenContentInsets=\[\d+,(\d+)\]/.exec(text2);
  const frame = /\bmFrame=\[-?\d+,(-?\d+)\]/.exec(text2) ?? /\bframe=\[-?\d+,(-?\d+)\]/.exec(text2);
  if (inset !== null && frame !== null && Number(inset[1]) > 0) ime.top = Number(frame[1]) + Number(inset[1]);
  return ime;
}
