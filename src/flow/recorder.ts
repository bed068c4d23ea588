/**
 * `serve --record FILE`: turns the acting calls of a serve session into a version-1 flow, as they happen.
 * Every successful act (not the session tools) becomes a step with its arguments as sent (session_id
 * removed; typed text kept, except that a text typed into a password field is written as
 * `{"env": "ANDROID_MCP_TEXT_<n>"}` and the variable named on stderr; secrets "env" does so for every typed text,
 * "keep" for none; a URL kept whole, replay needs it, with one stderr warning the first time one has a
 * userinfo, query or fragment) and an expectation from the screen it led to: its foreground package and one
 * stable selector that appeared (new since the screen before; none that holds a text written as a reference; else
 * the screen's fingerprint), or,
 * for a tap on a toggle, that toggle's new `checked` state; a successful ui_wait is a step of its own (its condition is its check). `openFlowRecorder` claims FILE at start
 * (created empty and exclusively, never in a directory it would have to create); the file (0600) is
 * replaced atomically after each step, only while it is still the one this recorder wrote, so a killed
 * server leaves a valid flow and a file put in its place is never replaced. Never throws after the claim.
 */
import { basename } from "node:path";
import { urlHasSecretParts } from "../../contracts/tool_inputs.ts";
import { type ToolName, TOOLS } from "../../contracts/tools.ts";
import { FLOW_FILE_VERSION, FLOW_STEP_TOOLS, type FlowExpect, type FlowFile, type FlowStepTool, parseFlow } from "../../contracts/flow.ts";
import type { AnsweredCall } from "../mcp/server.ts";
import { HarnessError } from "../errors.ts";
import type { FileSystem } from "../ports/evidence.ts";
import type { Logger } from "../ports/logger.ts";
import type { ScreenSummary, Selector } from "../screen/mod.ts";

export interface FlowRecorder {
  readonly path: string;
  /** Steps written so far. */
  readonly steps: number;
  /** Every answered call of the session, in order; resolves when the file holds the step. */
  record(call: AnsweredCall): Promise<void>;
  /** After the last call: a claimed file that never got a step (still empty, still ours) is removed. */
  finish(): Promise<void>;
}

export interface RecorderOptions {
  /** Absolute path of the flow file to write. */
  path: string;
  fs: FileSystem;
  logger: Logger;
  /** For the flow's description: which device, when. */
  device: string;
  now: () => number;
  /** "passwords" (default): a text typed into a password field as an environment variable reference, other typed text as
   * typed; "env": every typed text as a reference; "keep": every typed text as typed. */
  secrets?: RecordSecrets;
  /** The built-in scenario a simulated device plays (`serve --device sim --scenario NAME`): written as the flow's
   * `sim_scenario`, so the recording replays on the same scenario without naming it again. */
  simScenario?: string;
}

export type RecordSecrets = "passwords" | "keep" | "env";
export const RECORD_SECRETS: readonly RecordSecrets[] = ["passwords", "keep", "env"];
/** Prefix of the variables `--record-secrets env` names, numbered from 1 in typing order. */
export const RECORDED_TEXT_VARIABLE = "ANDROID_MCP_TEXT_";

/** The INVALID_ARGUMENT for a --record path whose exclusive create failed with this errno code, saying what to do. */
export function recordPathRefused(path: string, code: string | undefined): HarnessError {
  const why = code === "EEXIST"
    ? "it already exists (another server may be recording to it); --record never overwrites a file. Choose another name or delete it."
    : code === "ENOENT"
    ? "its directory does not exist; --record never creates directories. Create it or choose a path in an existing directory."
    : code === "ENOTDIR"
    ? "a part of its directory path is a file, not a directory; choose a path in a writable directory."
    : `its directory is not writable (${code ?? "unwritable"}); choose a path in a writable directory.`;
  return new HarnessError("INVALID_ARGUMENT", `--record: cannot create ${path}: ${why}`, { path });
}

/**
 * Claims the file (created empty, exclusively: a second server naming it, an existing file or a missing
 * directory is refused with INVALID_ARGUMENT saying what to do), then records into it.
 */
export async function openFlowRecorder(options: RecorderOptions): Promise<FlowRecorder> {
  try {
    await options.fs.writeNewFile(options.path, "");
  } catch (error) {
    throw recordPathRefused(options.path, (error as { code?: string }).code);
  }
  return createFlowRecorder(options, await options.fs.fileIdentity(options.path));
}

/** A call that only reads is not a step (a flow observes through its expectations); ui_wait is one: it waits. */
function onlyReads(tool: ToolName): boolean {
  return TOOLS[tool].access === "observe" && tool !== "ui_wait";
}

function isStepTool(tool: string): tool is FlowStepTool {
  return (FLOW_STEP_TOOLS as readonly string[]).includes(tool);
}

/** `claimed`: the identity of the file openFlowRecorder created (null: no file was there, none may appear). */
export function createFlowRecorder(options: RecorderOptions, claimed: string | null = null): FlowRecorder {
  const steps: FlowFile["steps"] = [];
  const secrets = options.secrets ?? "passwords";
  /** The typed texts written as references: no expectation may write them back. */
  const referenced = new Set<string>();
  let owned = claimed;
  let lost = false;
  let warnedUrl = false;
  let before: ScreenSummary | undefined;
  let packageName: string | undefined;
  let writing = Promise.resolve();
  const started = new Date(options.now()).toISOString();
  return {
    path: options.path,
    get steps() {
      return steps.length;
    },
    finish() {
      writing = writing.then(async () => {
        if (steps.length > 0 || owned === null || (await options.fs.fileIdentity(options.path)) !== owned) return;
        await options.fs.removeFile(options.path);
      }).catch(() => {});
      return writing;
    },
    record(call) {
      const { tool, envelope } = call;
      if (!envelope.ok) return writing;
      const screen = screenOf(call);
      if (onlyReads(tool) || !isStepTool(tool)) {
        if (screen !== undefined) before = screen;
        return writing;
      }
      const args = { ...call.args };
      delete args["session_id"];
      if (tool === "ui_type_text" && typeof args["text"] === "string") {
        const text = args["text"];
        const password = secrets === "passwords" && typedIntoPassword(args["selector"] as Selector, text, envelope.data, before, screen);
        if (secrets === "env" || password) {
          referenced.add(text);
          const name = `${RECORDED_TEXT_VARIABLE}${steps.filter((step) => step.tool === "ui_type_text").length + 1}`;
          args["text"] = { env: name };
          options.logger.warn(
            `record: step ${steps.length + 1} types ${password ? "into a password field" : "a text"}, written as {"env": "${name}"}; ` +
              `set ${name} before replaying ${options.path}`,
          );
        }
      }
      if (!warnedUrl && typeof args["url"] === "string" && urlHasSecretParts(args["url"])) {
        warnedUrl = true;
        options.logger.warn(
          `record: ${options.path} holds a URL with a query, fragment or userinfo as sent (step ${
            steps.length + 1
          }, ${tool}): replay needs it whole; the audit log and reports keep only its scheme, host and path`,
        );
      }
      const foreground = "foreground_package" in envelope.data ? envelope.data.foreground_package : undefined;
      packageName ??= tool === "app_launch" && typeof args["package"] === "string" ? args["package"] : foreground;
      const tapped = tool === "ui_tap" ? args["selector"] as Selector : undefined;
      const expect = tool === "ui_wait" ? undefined : expectationFrom(before, screen, foreground, referenced, tapped);
      steps.push({ tool, ...(Object.keys(args).length === 0 ? {} : { args }), ...(expect === undefined ? {} : { expect }) });
      if (screen !== undefined) before = screen;
      const flow: unknown = {
        version: FLOW_FILE_VERSION,
        name: basename(options.path).replace(/\.json$/i, "") || "recorded flow",
        description: `Recorded by android-mcp-harness serve --record on ${options.device}, started ${started}. ` +
          (secrets === "env"
            ? `Typed text is read from the environment (${RECORDED_TEXT_VARIABLE}1, …) when the flow runs.`
            : secrets === "passwords"
            ? `Typed text is kept as typed (this file is yours; the audit log keeps only its length), except a password's, read from the ` +
              `environment (${RECORDED_TEXT_VARIABLE}<n>) when the flow runs.`
            : "Typed text is kept as typed, passwords too (this file is yours; the audit log keeps only its length)."),
        package_name: packageName ?? "com.android.settings",
        ...(options.simScenario === undefined ? {} : { sim_scenario: options.simScenario }),
        steps,
      };
      const checked = parseFlow(flow);
      if (!checked.ok) {
        steps.pop(); // never write a file that `flow` would refuse
        options.logger.warn(
          `record: step ${tool} left out of ${options.path}: ${checked.problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`,
        );
        return writing;
      }
      const text = JSON.stringify(flow, null, 2) + "\n";
      writing = writing.then(async () => {
        if (lost) return;
        if ((await options.fs.fileIdentity(options.path)) !== owned) {
          lost = true; // someone else's file now: never replaced
          options.logger.warn(
            `record: ${options.path} was replaced or removed by another program; recording stopped (that file is left as it is)`,
          );
          return;
        }
        await options.fs.replaceFile(options.path, text);
        owned = await options.fs.fileIdentity(options.path);
      }).catch((error: unknown) => {
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
 * action's single-key selector (never `within`, `index` or `role`, nor one under the keyboard or `covered_by`),
 * then a visible text; values with digits (clocks, percentages, counters) only when nothing else appeared; when
 * nothing appeared, the new screen's fingerprint (an act's evidence gives one: `screen.fingerprint`). A tap on
 * a toggle (`tapped`, still offered by that selector) expects instead the toggle's new state: `visible` its selector,
 * `checked` true or false. Undefined when the act said nothing about the screen.
 */
export function expectationFrom(
  before: ScreenSummary | undefined,
  after: ScreenSummary | undefined,
  foreground: string | undefined,
  secretTexts?: ReadonlySet<string>,
  tapped?: Selector,
): FlowExpect | undefined {
  const expect: FlowExpect = {};
  if (foreground !== undefined && foreground !== "") expect.foreground_package = foreground;
  const toggle = tapped === undefined
    ? undefined
    : after?.actions.find((a) => a.role === "toggle" && JSON.stringify(a.selector) === JSON.stringify(tapped));
  if (toggle !== undefined && !holdsSecret(toggle.selector, secretTexts)) {
    return { ...expect, visible: toggle.selector, checked: toggle.checked === true };
  }
  if (after !== undefined) {
    const visible = appearedSelector(before, after, secretTexts);
    if (visible !== undefined) expect.visible = visible;
    // No label appeared (a game, a canvas, a screen that only redrew): the screen is known by its fingerprint.
    else if (after.fingerprint !== undefined) expect.fingerprint = after.fingerprint;
  }
  return Object.keys(expect).length === 0 ? undefined : expect;
}

function appearedSelector(
  before: ScreenSummary | undefined,
  after: ScreenSummary,
  secretTexts?: ReadonlySet<string>,
): Selector | undefined {
  const seen = new Set<string>();
  if (before !== undefined) {
    for (const a of before.actions) seen.add(JSON.stringify(a.selector));
    for (const t of before.texts) seen.add(JSON.stringify({ text: t }));
  }
  // Positional (`index`) and ancestor-qualified (`within`) selectors name an element less steadily.
  const plain = after.actions.filter((a) => a.covered_by_keyboard !== true && a.covered_by === undefined).map((a) => a.selector)
    .filter((s) => s.within === undefined && s.index === undefined && s.role === undefined);
  const candidates: Selector[] = [
    ...plain.filter((s) => s.resource_id !== undefined),
    ...plain.filter((s) => s.resource_id === undefined),
    ...after.texts.filter((t) => t.trim() !== "" && !t.includes("\n")).map((text) => ({ text })),
  ].filter((s) => !seen.has(JSON.stringify(s)))
    // A typed text written as an env reference is not written back as the value an expectation checks.
    .filter((s) => !holdsSecret(s, secretTexts));
  const steady = candidates.find((s) => !/\d/.test(Object.values(s).join("")));
  return steady ?? candidates[0];
}

/**
 * Whether a value of the selector holds one of the secret texts anywhere in it (`No results for “<secret>”`), in any
 * case (an app may show it upper-cased: `ß` as `SS` too). A blank secret holds nothing.
 */
function holdsSecret(selector: Selector, secretTexts: ReadonlySet<string> | undefined): boolean {
  if (secretTexts === undefined || secretTexts.size === 0) return false;
  const values = Object.values(selector).filter((v): v is string => typeof v === "string").map((v) => v.normalize("NFC"));
  for (const secret of secretTexts) {
    const s = secret.normalize("NFC");
    if (s.trim() === "") continue;
    const lower = s.toLowerCase(), upper = s.toUpperCase();
    if (values.some((v) => v.toLowerCase().includes(lower) || v.toUpperCase().includes(upper))) return true;
  }
  return false;
}

/**
 * Whether ui_type_text typed into a field the device marks `password`: the screen before or after it offers a password
 * field named by the selector (as offered, a resource id in its long or short form) or labelled as the answer's element,
 * or, after it, a password field holding exactly as many characters as were typed (and not before). A field seen on
 * neither screen is not.
 */
export function typedIntoPassword(
  selector: Selector | undefined,
  text: string,
  data: { element_label?: string } | object,
  before: ScreenSummary | undefined,
  after: ScreenSummary | undefined,
): boolean {
  const short = (s: Selector | undefined) =>
    s === undefined
      ? ""
      : JSON.stringify({ ...s, ...(s.resource_id === undefined ? {} : { resource_id: s.resource_id.replace(/^.*:id\//, "") }) });
  const label = "element_label" in data ? data.element_label : undefined;
  const length = [...text].length;
  const passwords = (screen: ScreenSummary | undefined) => (screen?.actions ?? []).filter((a) => a.password === true);
  // A password field that now holds as many characters as were typed, and did not before (another field was not typed into).
  const held = new Map(passwords(before).map((a) => [JSON.stringify(a.selector), a.text_length]));
  if (passwords(after).some((a) => a.text_length === length && held.get(JSON.stringify(a.selector)) !== length)) return true;
  return [...passwords(before), ...passwords(after)].some((a) =>
    short(a.selector) === short(selector) || (label !== undefined && (a.label ?? Object.values(a.selector)[0]) === label)
  );
}
