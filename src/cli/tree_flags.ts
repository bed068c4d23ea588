/**
 * The `tree` command's screen flags as typed: --density, --width, --height and --keyboard-top. Each is a
 * whole number within its range (a negative, fractional, hexadecimal or absurdly large value is refused
 * with the range and the value received), and the keyboard's top edge must lie on the screen it is
 * checked against. Pure; returns the screen context or the one-line problem.
 */
import type { ScreenReadingInput } from "../screen/mod.ts";

type FlagName = "density" | "width" | "height" | "keyboardTop";

const RANGES: Record<FlagName, { flag: string; unit: string; max: number }> = {
  density: { flag: "--density", unit: "dpi", max: 4000 },
  width: { flag: "--width", unit: "px", max: 20_000 },
  height: { flag: "--height", unit: "px", max: 20_000 },
  keyboardTop: { flag: "--keyboard-top", unit: "px", max: 20_000 },
};

export type ScreenFlags = Partial<Record<FlagName, unknown>>;

export function parseScreenFlags(
  flags: ScreenFlags,
): { ok: true; context: ScreenReadingInput["context"] } | { ok: false; problem: string } {
  const context: ScreenReadingInput["context"] = {};
  for (const name of Object.keys(RANGES) as FlagName[]) {
    const raw = flags[name];
    if (raw === undefined) continue;
    const { flag, unit, max } = RANGES[name];
    const text = raw === true ? "" : String(raw);
    const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= 1 && value <= max)) {
      return { ok: false, problem: `${flag} must be a whole number of ${unit} between 1 and ${max}, got "${text}".` };
    }
    if (name === "keyboardTop") context.keyboard = { open: true, top: value };
    else context[name] = value;
  }
  if (context.keyboard?.top !== undefined && context.height !== undefined) {
    const problem = keyboardTopProblem(context.keyboard.top, context.height);
    if (problem !== undefined) return { ok: false, problem };
  }
  return { ok: true, context };
}

/** The keyboard's top edge must be on the screen: 1 … height-1. */
export function keyboardTopProblem(top: number, height: number): string | undefined {
  if (height <= 0 || top < height) return undefined;
  return `--keyboard-top ${top} is not on the ${height} px high screen; give a y between 1 and ${height - 1}.`;
}
