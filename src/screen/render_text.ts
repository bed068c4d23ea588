/**
 * ScreenSummary → the compact line form of `tree --text`, for people and models: a header line, the
 * texts, then one line per action carrying its selector as JSON (copyable into `ui_tap` as is), then
 * one line per scroll area when the summary lists them (axis, selector for `ui_scroll.container`), then one
 * line per issue, and the fingerprint when the screen offers no text and no action. Says nothing the summary
 * does not say; `{bounds: false}` leaves the actions' rectangles out (the form a tool's text block gives a model,
 * whose selectors never need them). Pure.
 */
import type { ActionEntry, AuditIssue, ScreenSummary } from "./types.ts";

export interface SummaryTextOptions {
  /** Each action's `@left,top WxH` (default true). */
  bounds?: boolean;
}

export function renderSummaryText(summary: ScreenSummary, options: SummaryTextOptions = {}): string {
  const bounds = options.bounds ?? true;
  const header = [
    `screen ${summary.foreground_package || "(unknown package)"}`,
    summary.can_scroll ? "scrollable" : "not scrollable",
    summary.keyboard === undefined
      ? "keyboard closed"
      : `keyboard open${summary.keyboard.top === undefined ? "" : ` from y=${summary.keyboard.top}`}`,
  ].join(" · ");
  const lines = [header];
  if (summary.texts.length > 0) lines.push(`texts: ${summary.texts.map((t) => JSON.stringify(t)).join(" · ")}`);
  lines.push(`actions (${summary.actions.length}):`);
  for (const action of summary.actions) lines.push(actionLine(action, bounds));
  if (summary.scroll_areas !== undefined) {
    lines.push(`scroll areas (${summary.scroll_areas.length}):`);
    for (const area of summary.scroll_areas) {
      const label = area.label === undefined ? "" : ` ${JSON.stringify(area.label)}`;
      lines.push(`  ${(area.axis ?? "vertical").padEnd(10)} ${JSON.stringify(area.selector)}${label}`);
    }
  }
  if (summary.issues !== undefined) {
    lines.push(`issues (${summary.issues.length}):`);
    for (const issue of summary.issues) lines.push(issueLine(issue));
  }
  // Only a screen that offers nothing to read (a game, a canvas) is told apart by its fingerprint.
  if (summary.fingerprint !== undefined && summary.texts.length === 0 && summary.actions.length === 0) {
    lines.push(`fingerprint: ${summary.fingerprint}`);
  }
  return lines.join("\n") + "\n";
}

function actionLine(action: ActionEntry, bounds: boolean): string {
  const [left, top, width, height] = action.bounds;
  const flags = [
    action.long_press ? "long-press" : "",
    action.enabled === false ? "disabled" : "",
    action.checked ? "checked" : "",
    action.selected ? "selected" : "",
    action.focused ? "focused" : "",
    action.covered_by_keyboard ? "under-keyboard" : "",
    action.covered_by === undefined ? "" : `under ${JSON.stringify(action.covered_by)}`,
    action.password ? `password${action.text_length === undefined ? "" : ` ${action.text_length} chars`}` : "",
  ].filter((flag) => flag !== "");
  return [
    `  ${(action.role ?? "button").padEnd(6)} ${JSON.stringify(action.selector)}`,
    action.label === undefined ? "" : ` ${JSON.stringify(action.label)}`,
    flags.length === 0 ? "" : ` [${flags.join(", ")}]`,
    bounds ? ` @${left},${top} ${width}x${height}` : "",
  ].join("");
}

function issueLine(issue: AuditIssue): string {
  const size = issue.size_px === undefined ? "" : ` ${issue.size_px[0]}x${issue.size_px[1]}px < ${issue.minimum_px}px`;
  return `  ${issue.issue} ${JSON.stringify(issue.selector)}${size}`;
}
