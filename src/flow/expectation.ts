/**
 * A step's expectation checked against one reading of the screen (pure): `visible` holds when the
 * locator finds one or several elements the selector names, `not_visible` when it finds none,
 * `foreground_package` when the focused app is that package; `checked` / `selected` / `focused` when
 * the one element `visible` names is an action whose summary entry says so; `fingerprint` when the screen's
 * fingerprint matches it within `tolerance` and `min_match` (src/png/fingerprint.ts). Answers every unmet part in
 * words; a value equal to a secret text the flow types is said as its length only (`[typed text, 17 characters]`).
 */
import { EXPECT_STATE_KEYS, type FlowExpect } from "../../contracts/flow.ts";
import { findElement, type LocatedElement, parseDump, saidOffer, summarizeWithNodes } from "../screen/mod.ts";
import type { ActionEntry, ScreenSummary, UiTree } from "../screen/mod.ts";
import { compareFingerprints } from "../png/mod.ts";

/** What the runner read: the summary and the XML it was made from (ui_get_tree with include_raw), and for an
 * expectation with a fingerprint the screen's own (an act's evidence or ui_screenshot; undefined: none taken). */
export interface ScreenReading {
  summary: ScreenSummary;
  xml: string;
  fingerprint?: string;
}

export interface ExpectationVerdict {
  met: boolean;
  /** One sentence per unmet part, e.g. `{"text":"Wi-Fi"} is not on screen`. */
  unmet: string[];
  /** Present (true) when the fingerprint did not match: the pixels say the screen is another, whatever the tree says. */
  fingerprint_unmet?: true;
}

/** Secret texts the flow types (runner.ts: from the environment, into a password field, never typed), shown in words only as their length. */
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
  if (expect.visible !== undefined) {
    const shown = JSON.stringify(maskTyped(expect.visible, typed));
    const found = findElement(treeOf(), expect.visible);
    if (found.status === "not_found") unmet.push(`${shown} is not on screen`);
    else if (EXPECT_STATE_KEYS.some((key) => expect[key] !== undefined)) {
      unmet.push(
        ...(found.status === "found" ? unmetStates(expect, shown, treeOf(), found.element) : [
          `${shown} names ${found.candidates.length} elements; a state is checked on one: add a within or an index`,
        ]),
      );
    }
  }
  if (expect.not_visible !== undefined && findElement(treeOf(), expect.not_visible).status !== "not_found") {
    unmet.push(`${JSON.stringify(maskTyped(expect.not_visible, typed))} is on screen, expected it gone`);
  }
  const pixels = expect.fingerprint === undefined ? undefined : fingerprintUnmet(expect, screen.fingerprint);
  if (pixels !== undefined) unmet.push(pixels);
  return { met: unmet.length === 0, unmet, ...(pixels === undefined ? {} : { fingerprint_unmet: true as const }) };
}

/** Why the screen's fingerprint does not match the expected one, or undefined when it does. */
function fingerprintUnmet(expect: FlowExpect, actual: string | undefined): string | undefined {
  if (actual === undefined) return "the screen has no fingerprint (no screenshot was taken)";
  const match = compareFingerprints(expect.fingerprint!, actual, {
    ...(expect.tolerance === undefined ? {} : { tolerance: expect.tolerance }),
    ...(expect.min_match === undefined ? {} : { minMatch: expect.min_match }),
  });
  if (match.met) return undefined;
  return `the screen's fingerprint matches ${match.matched} of ${match.cells} cells within ${match.tolerance}, ` +
    `expected at least ${Math.ceil(match.minMatch * match.cells)} (min_match ${match.minMatch}); it is ${actual}`;
}

/** The states asked of the one element `visible` named, each against its action's entry in the summary. */
function unmetStates(expect: FlowExpect, shown: string, tree: UiTree, element: LocatedElement): string[] {
  const { summary, actionNodes } = summarizeWithNodes(tree, { width: 0, height: 0, keyboard: { open: false } });
  const action: ActionEntry | undefined = summary.actions[actionNodes.indexOf(element.node.id)];
  if (action === undefined) {
    return [`${shown} names '${element.label}', which is not an action (a text): it has no checked, selected or focused state`];
  }
  return EXPECT_STATE_KEYS.filter((key) => expect[key] !== undefined && (action[key] === true) !== expect[key])
    .map((key) => `${shown} is ${action[key] === true ? "" : "not "}${key}, expected ${expect[key] === true ? "" : "not "}${key}`);
}

/** The expectation in words for reports: `visible {"text":"Wi-Fi"} checked, foreground com.android.settings`. */
export function describeExpectation(given: FlowExpect, typed: TypedTexts = NONE): string {
  const expect = maskTyped(given, typed);
  const parts: string[] = [];
  const states = EXPECT_STATE_KEYS.filter((key) => expect[key] !== undefined).map((key) => ` ${expect[key] === true ? "" : "not "}${key}`);
  if (expect.visible !== undefined) parts.push(`visible ${JSON.stringify(expect.visible)}${states.join("")}`);
  if (expect.not_visible !== undefined) parts.push(`not visible ${JSON.stringify(expect.not_visible)}`);
  if (expect.foreground_package !== undefined) parts.push(`foreground ${expect.foreground_package}`);
  if (expect.fingerprint !== undefined) {
    const knobs = [
      expect.tolerance === undefined ? "" : ` tolerance ${expect.tolerance}`,
      expect.min_match === undefined ? "" : ` min_match ${expect.min_match}`,
    ].join("");
    parts.push(`fingerprint ${expect.fingerprint}${knobs}`);
  }
  return parts.join(", ");
}

/**
 * What the screen offers, in one line: the package, then each action as a failed lookup's "The screen offers" says it
 * (label, role, the summary's selector: saidOffer), then texts.
 */
export function describeScreen(summary: ScreenSummary, limit = 20): string {
  const actions = summary.actions.slice(0, limit).map((a) =>
    saidOffer(a.label ?? Object.values(a.selector).find((v) => typeof v === "string") ?? "", a.role ?? "button", a.selector)
  );
  const more = summary.actions.length > limit ? `, and ${summary.actions.length - limit} more` : "";
  const texts = summary.texts.slice(0, limit).map((t) => `'${oneLine(t)}'`);
  return `${summary.foreground_package || "unknown package"} offers ${actions.length === 0 ? "no actions" : actions.join(", ") + more}` +
    (texts.length === 0 ? "" : `; texts ${texts.join(", ")}`);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
