/**
 * A step's expectation checked against one reading of the screen (pure): `visible` holds when the
 * locator finds one or several elements the selector names, `not_visible` when it finds none,
 * `foreground_package` when the focused app is that package. Answers every unmet part in words; a
 * value equal to a text the flow types is said as its length only (`[typed text, 17 characters]`).
 */
import type { FlowExpect } from "../../contracts/flow.ts";
import { findElement, parseDump } from "../screen/mod.ts";
import type { ScreenSummary, UiTree } from "../screen/mod.ts";

/** What the runner read: the summary and the XML it was made from (ui_get_tree with include_raw). */
export interface ScreenReading {
  summary: ScreenSummary;
  xml: string;
}

export interface ExpectationVerdict {
  met: boolean;
  /** One sentence per unmet part, e.g. `{"text":"Wi-Fi"} is not on screen`. */
  unmet: string[];
}

/** Texts the flow types, shown in words only as their length. */
export type TypedTexts = ReadonlySet<string>;
const NONE: TypedTexts = new Set();

/** The expectation as reports show it: every string equal to a typed text replaced by its length. */
export function maskTyped<T>(value: T, typed: TypedTexts): T {
  if (typed.size === 0) return value;
  if (typeof value === "string") return (typed.has(value) ? `[typed text, ${[...value].length} characters]` : value) as T;
  if (Array.isArray(value)) return value.map((v) => maskTyped(v, typed)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskTyped(v, typed)])) as T;
  }
  return value;
}

export function checkExpectation(expect: FlowExpect, screen: ScreenReading, typed: TypedTexts = NONE): ExpectationVerdict {
  const unmet: string[] = [];
  let tree: UiTree | undefined;
  const treeOf = () => tree ??= parseDump(screen.xml);
  if (expect.foreground_package !== undefined && screen.summary.foreground_package !== expect.foreground_package) {
    unmet.push(`foreground package is ${screen.summary.foreground_package || "unknown"}, expected ${expect.foreground_package}`);
  }
  if (expect.visible !== undefined && findElement(treeOf(), expect.visible).status === "not_found") {
    unmet.push(`${JSON.stringify(maskTyped(expect.visible, typed))} is not on screen`);
  }
  if (expect.not_visible !== undefined && findElement(treeOf(), expect.not_visible).status !== "not_found") {
    unmet.push(`${JSON.stringify(maskTyped(expect.not_visible, typed))} is on screen, expected it gone`);
  }
  return { met: unmet.length === 0, unmet };
}

/** The expectation in words for reports: `visible {"text":"Wi-Fi"}, foreground com.android.settings`. */
export function describeExpectation(given: FlowExpect, typed: TypedTexts = NONE): string {
  const expect = maskTyped(given, typed);
  const parts: string[] = [];
  if (expect.visible !== undefined) parts.push(`visible ${JSON.stringify(expect.visible)}`);
  if (expect.not_visible !== undefined) parts.push(`not visible ${JSON.stringify(expect.not_visible)}`);
  if (expect.foreground_package !== undefined) parts.push(`foreground ${expect.foreground_package}`);
  return parts.join(", ");
}

/** What the screen offers, in one line: the package, then each action's label and role, then texts. */
export function describeScreen(summary: ScreenSummary, limit = 20): string {
  const actions = summary.actions.slice(0, limit).map((a) => `'${oneLine(a.label ?? Object.values(a.selector).find((v) => typeof v === "string") ?? "")}' (${a.role ?? "button"})`);
  const more = summary.actions.length > limit ? `, and ${summary.actions.length - limit} more` : "";
  const texts = summary.texts.slice(0, limit).map((t) => `'${oneLine(t)}'`);
  return `${summary.foreground_package || "unknown package"} offers ${actions.length === 0 ? "no actions" : actions.join(", ") + more}` +
    (texts.length === 0 ? "" : `; texts ${texts.join(", ")}`);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
