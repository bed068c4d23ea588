/**
 * `serve --record FILE`: turns the acting calls of a serve session into a version-1 flow, as they happen.
 * Every successful act (not the session tools) becomes a step with its arguments as sent (session_id
 * removed; typed text KEPT: the file is the user's own, the audit log still redacts it) and an
 * expectation from the screen it led to: its foreground package and one stable selector that appeared
 * (new since the screen before), or, for a tap on a toggle, that toggle's new `checked` state. A successful
 * ui_wait is a step of its own (its condition is its check). The file is replaced atomically after each
 * step, so a killed server leaves a valid flow. Observe calls only update what "before" was. Never throws: a failed write is logged.
 */
import { basename } from "node:path";
import { FLOW_FILE_VERSION, FLOW_STEP_TOOLS, type FlowExpect, type FlowFile, type FlowStepTool, parseFlow } from "../../contracts/flow.ts";
import type { AnsweredCall } from "../mcp/server.ts";
import type { FileSystem } from "../ports/evidence.ts";
import type { Logger } from "../ports/logger.ts";
import type { ScreenSummary, Selector } from "../screen/mod.ts";

export interface FlowRecorder {
  readonly path: string;
  /** Steps written so far. */
  readonly steps: number;
  /** Every answered call of the session, in order; resolves when the file holds the step. */
  record(call: AnsweredCall): Promise<void>;
}

export interface RecorderOptions {
  /** Absolute path of the flow file to write. */
  path: string;
  fs: FileSystem;
  logger: Logger;
  /** For the flow's description: which device, when. */
  device: string;
  now: () => number;
}

const OBSERVE_TOOLS = new Set(["device_status", "ui_get_tree", "ui_screenshot", "app_list"]);

function isStepTool(tool: string): tool is FlowStepTool {
  return (FLOW_STEP_TOOLS as readonly string[]).includes(tool);
}

export function createFlowRecorder(options: RecorderOptions): FlowRecorder {
  const steps: FlowFile["steps"] = [];
  let before: ScreenSummary | undefined;
  let packageName: string | undefined;
  let writing = Promise.resolve();
  const started = new Date(options.now()).toISOString();
  return {
    path: options.path,
    get steps() {
      return steps.length;
    },
    record(call) {
      const { tool, envelope } = call;
      if (!envelope.ok) return writing;
      const screen = screenOf(call);
      if (OBSERVE_TOOLS.has(tool) || !isStepTool(tool)) {
        if (screen !== undefined) before = screen;
        return writing;
      }
      const args = { ...call.args };
      delete args["session_id"];
      const foreground = "foreground_package" in envelope.data ? envelope.data.foreground_package : undefined;
      packageName ??= tool === "app_launch" && typeof args["package"] === "string" ? args["package"] : foreground;
      const tapped = tool === "ui_tap" ? args["selector"] as Selector : undefined;
      const expect = tool === "ui_wait" ? undefined : expectationFrom(before, screen, foreground, tapped);
      steps.push({ tool, ...(Object.keys(args).length === 0 ? {} : { args }), ...(expect === undefined ? {} : { expect }) });
      if (screen !== undefined) before = screen;
      const flow: unknown = {
        version: FLOW_FILE_VERSION,
        name: basename(options.path).replace(/\.json$/i, "") || "recorded flow",
        description: `Recorded by android-mcp-harness serve --record on ${options.device}, started ${started}. ` +
          "Typed text is kept as typed (this file is yours; the audit log keeps only its length).",
        package_name: packageName ?? "com.android.settings",
        steps,
      };
      const checked = parseFlow(flow);
      if (!checked.ok) {
        steps.pop(); // never write a file that `flow` would refuse
        options.logger.warn(`record: step ${tool} left out of ${options.path}: ${checked.problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`);
        return writing;
      }
      const text = JSON.stringify(flow, null, 2) + "\n";
      writing = writing.then(() => options.fs.replaceFile(options.path, text)).catch((error: unknown) => {
        options.logger.warn(`record: cannot write ${options.path}: ${(error as Error).message}`);
      });
      return writing;
    },
  };
}

/** The act's new screen (`data.screen`) or, for ui_get_tree, its data itself (without the raw XML). */
function screenOf(call: AnsweredCall): ScreenSummary | undefined {
  if (!call.envelope.ok) return undefined;
  if (call.tool === "ui_get_tree") {
    const { raw: _xml, ...summary } = call.envelope.data;
    return summary;
  }
  const data = call.envelope.data;
  if ("waited_ms" in data) return data.screen; // ui_wait: the screen once its condition held
  return "settled" in data ? data.screen : undefined; // an act's answer (device_status's `screen` is its geometry)
}

/**
 * The expectation a recorded step carries: the foreground package it led to, and the most stable
 * selector that appeared on the new screen (not on the one before): a resource id, then another
 * action's single-key selector (never `within`, `index` or `role`), then a visible text; values with digits (clocks, percentages, counters) only when
 * nothing else appeared. A tap on a toggle (`tapped`, still offered by that selector) expects instead the
 * toggle's new state: `visible` its selector, `checked` true or false. Undefined when the act said nothing about the screen.
 */
export function expectationFrom(
  before: ScreenSummary | undefined,
  after: ScreenSummary | undefined,
  foreground: string | undefined,
  tapped?: Selector,
): FlowExpect | undefined {
  const expect: FlowExpect = {};
  if (foreground !== undefined && foreground !== "") expect.foreground_package = foreground;
  const toggle = tapped === undefined ? undefined
    : after?.actions.find((a) => a.role === "toggle" && JSON.stringify(a.selector) === JSON.stringify(tapped));
  if (toggle !== undefined) return { ...expect, visible: toggle.selector, checked: toggle.checked === true };
  if (after !== undefined) {
    const visible = appearedSelector(before, after);
    if (visible !== undefined) expect.visible = visible;
  }
  return Object.keys(expect).length === 0 ? undefined : expect;
}

function appearedSelector(before: ScreenSummary | undefined, after: ScreenSummary): Selector | undefined {
  const seen = new Set<string>();
  if (before !== undefined) {
    for (const a of before.actions) seen.add(JSON.stringify(a.selector));
    for (const t of before.texts) seen.add(JSON.stringify({ text: t }));
  }
  // Positional (`index`) and ancestor-qualified (`within`) selectors name an element less steadily.
  const plain = after.actions.filter((a) => a.covered_by_keyboard !== true).map((a) => a.selector)
    .filter((s) => s.within === undefined && s.index === undefined && s.role === undefined);
  const candidates: Selector[] = [
    ...plain.filter((s) => s.resource_id !== undefined),
    ...plain.filter((s) => s.resource_id === undefined),
    ...after.texts.filter((t) => t.trim() !== "" && !t.includes("\n")).map((text) => ({ text })),
  ].filter((s) => !seen.has(JSON.stringify(s)));
  const steady = candidates.find((s) => !/\d/.test(Object.values(s).join("")));
  return steady ?? candidates[0];
}
