/**
 * The flow file of SPEC §8 (version 1) and the `flow` command's exit codes, as data. A step is a tool call
 * checked with the SAME strict input schema MCP uses (tool_inputs.ts), plus an optional expectation.
 * `parseFlow` never throws: it answers the flow or every problem with the dotted path of the offending
 * field (`steps.2.args.selector`), so an invalid flow is refused before anything runs (exit 1).
 */
import * as z from "zod";
import { SelectorSchema } from "./selector.ts";
import { PackageNameSchema } from "./tool_inputs.ts";
import { TOOL_INPUTS, type ToolName } from "./tools.ts";

export const FLOW_FILE_VERSION = 1;

/** Tools a step may call: all but the session tools (the runner opens and closes the flow's one session). */
export const FLOW_STEP_TOOLS = (Object.keys(TOOL_INPUTS) as ToolName[])
  .filter((name) => name !== "ui_session_open" && name !== "ui_session_close");
export type FlowStepTool = Exclude<ToolName, "ui_session_open" | "ui_session_close">;

/** How long an expectation is polled when the step does not say (milliseconds). */
export const DEFAULT_EXPECT_TIMEOUT_MS = 5000;
export const MAX_EXPECT_TIMEOUT_MS = 120_000;

/** The element states an expectation can check (each the summary's field of the same name). */
export const EXPECT_STATE_KEYS = ["checked", "selected", "focused"] as const;

/** A screen fingerprint as the harness writes it (src/png/fingerprint.ts): 40 cells of mean brightness, 80 hex digits. */
export const FLOW_FINGERPRINT_PATTERN = /^[0-9a-f]{80}$/;

export const FlowExpectSchema = z.strictObject({
  /** An element the selector names is on screen (one or several matches). */
  visible: SelectorSchema.optional(),
  /** Nothing the selector names is on screen. */
  not_visible: SelectorSchema.optional(),
  foreground_package: PackageNameSchema.optional(),
  /** The state of the one element `visible` names, as the screen summary reports it (true: on; false: off). */
  checked: z.boolean().optional(),
  selected: z.boolean().optional(),
  focused: z.boolean().optional(),
  /** The screen's fingerprint (a screen no selector confirms: a game, a canvas), as an act's `screen.fingerprint` or
   * ui_screenshot's `fingerprint` gives it; matched with `tolerance` (per cell, default 14) and `min_match` (the share of
   * cells, default 0.85). */
  fingerprint: z.string().regex(FLOW_FINGERPRINT_PATTERN, { error: "a screen fingerprint: 80 lowercase hex digits" }).optional(),
  tolerance: z.int().min(0).max(255).optional(),
  min_match: z.number().min(0).max(1).optional(),
  /** How long to keep reading the screen until the expectation holds (default 5000). */
  timeout_ms: z.number().min(0).max(MAX_EXPECT_TIMEOUT_MS).int().optional(), // the bound first: 1e308 is told the real limit
}).refine(
  (e) => e.visible !== undefined || e.not_visible !== undefined || e.foreground_package !== undefined || e.fingerprint !== undefined,
  {
    message: "an expectation needs at least one of visible, not_visible, foreground_package, fingerprint",
  },
).refine((e) => e.fingerprint !== undefined || (e.tolerance === undefined && e.min_match === undefined), {
  message: "tolerance and min_match adjust how a fingerprint is matched: add fingerprint",
}).refine((e) => e.visible !== undefined || EXPECT_STATE_KEYS.every((key) => e[key] === undefined), {
  message: "checked, selected and focused are the state of the element 'visible' names: add visible",
});

const StepShapeSchema = z.strictObject({
  tool: z.enum(FLOW_STEP_TOOLS as [FlowStepTool, ...FlowStepTool[]], {
    error: (issue) =>
      issue.input === "ui_session_open" || issue.input === "ui_session_close"
        ? "the flow runs under one session that the runner opens and closes; remove this step"
        : `unknown tool; a step calls one of ${FLOW_STEP_TOOLS.join(", ")}`,
  }),
  /** The tool's arguments, as an MCP client sends them; absent means {}. */
  args: z.record(z.string(), z.unknown()).optional(),
  expect: FlowExpectSchema.optional(),
});

/** An environment variable's name, as `"text": {"env": NAME}` names it. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** `ui_type_text`'s text taken from the environment when the flow runs, so a secret is in no file. */
export interface EnvText {
  env: string;
}

/** The env reference a step's `text` is, or null when it is not one. */
export function envTextOf(value: unknown): EnvText | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  const name = (value as { env?: unknown }).env;
  return keys.length === 1 && typeof name === "string" ? { env: name } : null;
}

/** A step's args checked with the tool's own MCP schema; issues keep the path inside `args`. */
const FlowStepSchema = StepShapeSchema.superRefine((step, ctx) => {
  let args = step.args ?? {};
  const envText = step.tool === "ui_type_text" ? envTextOf(args["text"]) : null;
  if (envText !== null) {
    if (!ENV_NAME.test(envText.env)) {
      ctx.addIssue({
        code: "custom",
        path: ["args", "text", "env"],
        message: "an environment variable name: letters, digits and _, not starting with a digit",
      });
      return;
    }
    args = { ...args, text: "env" }; // the value is checked when the flow runs (resolveFlowEnv)
  }
  if ("session_id" in args) {
    ctx.addIssue({ code: "custom", path: ["args", "session_id"], message: "the runner passes the flow's own session; remove session_id" });
    return;
  }
  const result = TOOL_INPUTS[step.tool].safeParse(args);
  if (result.success) return;
  for (const issue of result.error.issues) {
    ctx.addIssue({
      code: "custom",
      path: ["args", ...issue.path.map((p) => typeof p === "symbol" ? String(p) : p)],
      message: issueText(issue),
    });
  }
});

export const FlowFileSchema = z.strictObject({
  version: z.literal(FLOW_FILE_VERSION, { error: `this harness reads flow files of version ${FLOW_FILE_VERSION}` }),
  name: z.string().trim().min(1).max(120),
  description: z.string().max(2000).optional(),
  package_name: PackageNameSchema,
  /** A device serial, or "sim"; `--device` overrides it. */
  device: z.string().min(1).max(255).optional(),
  /** The simulated device's built-in scenario the flow was written for ("login"): used with `--device sim`
   * when `--scenario` is not given; ignored on a real device. */
  sim_scenario: z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, { error: 'a built-in scenario name, e.g. "login"' }).optional(),
  /** Records the run's screen (screen_record, 600 s at most, in 180 s segments): the reports link each MP4, the HTML page plays them. */
  record: z.boolean().optional(),
  steps: z.array(FlowStepSchema).min(1).max(500),
});

export type FlowExpect = z.infer<typeof FlowExpectSchema>;
export type FlowStep = z.infer<typeof StepShapeSchema>;
export type FlowFile = z.infer<typeof FlowFileSchema>;

export interface FlowProblem {
  /** Dotted path of the offending field ("steps.2.args.selector"); "" for the file itself. */
  path: string;
  message: string;
}

export type FlowParse = { ok: true; flow: FlowFile } | { ok: false; problems: FlowProblem[] };

/** The values (and variable names) of a flow's `{"env": NAME}` texts that are set: what a report must not print. */
export function flowEnvTexts(flow: FlowFile, env: Readonly<Record<string, string | undefined>>): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const step of flow.steps) {
    const ref = step.tool === "ui_type_text" ? envTextOf(step.args?.["text"]) : null;
    const value = ref === null ? undefined : env[ref.env];
    if (ref !== null && value !== undefined && value !== "") out.push({ name: ref.env, value });
  }
  return out.sort((a, b) => b.value.length - a.value.length); // the longest first: a value inside another is masked after it
}

/** Texts this short are masked only where a whole string is the value (a substring would mask ordinary words). */
const ENV_TEXT_SUBSTRING_MIN = 4;

/**
 * `value` with every string that holds a flow's env text masked as `[text from $NAME, N characters]` (the whole
 * string for a text under ENV_TEXT_SUBSTRING_MIN characters, each occurrence otherwise): the screen summary a
 * report keeps (texts, labels, what the screen offers) shows what a plain field holds, so an env text typed
 * into a field that is not a password field would be printed in full. Objects and arrays are copied.
 */
export function maskEnvTexts<T>(value: T, texts: readonly { name: string; value: string }[]): T {
  if (texts.length === 0) return value;
  const mask = (v: unknown): unknown => {
    if (typeof v === "string") {
      let out = v;
      for (const t of texts) {
        const marker = `[text from $${t.name}, ${[...t.value].length} characters]`;
        if (out === t.value) return marker;
        if ([...t.value].length >= ENV_TEXT_SUBSTRING_MIN) out = out.split(t.value).join(marker);
      }
      return out;
    }
    if (Array.isArray(v)) return v.map(mask);
    if (typeof v === "object" && v !== null) {
      const copy: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        Object.defineProperty(copy, k, { value: mask(x), enumerable: true, writable: true, configurable: true });
      }
      return copy;
    }
    return v;
  };
  return mask(value) as T;
}

/**
 * The flow with every `{"env": NAME}` text replaced by that variable's value, or a problem per variable
 * that is unset (or whose value the tool refuses): checked before anything runs. Never throws.
 */
export function resolveFlowEnv(flow: FlowFile, env: Readonly<Record<string, string | undefined>>): FlowParse {
  const problems: FlowProblem[] = [];
  const steps = flow.steps.map((step, i) => {
    const ref = step.tool === "ui_type_text" ? envTextOf(step.args?.["text"]) : null;
    if (ref === null) return step;
    const value = env[ref.env];
    const path = `steps.${i}.args.text`;
    if (value === undefined) {
      problems.push({
        path,
        message: `the environment variable ${ref.env} is not set; set it (export ${ref.env}=...) before running the flow`,
      });
      return step;
    }
    const args = { ...step.args, text: value };
    const checked = TOOL_INPUTS.ui_type_text.safeParse(args);
    if (!checked.success) {
      // The value is a secret: the problem names the variable and the rule, never the value.
      problems.push({
        path,
        message: `the value of ${ref.env} is not a text ui_type_text accepts (${checked.error.issues[0]?.message ?? "invalid"})`,
      });
    }
    return { ...step, args };
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, flow: { ...flow, steps } };
}

/** Validates an already parsed JSON value as a version-1 flow. */
export function parseFlow(value: unknown): FlowParse {
  const result = FlowFileSchema.safeParse(value);
  if (result.success) return { ok: true, flow: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issueText(issue) })),
  };
}

/** Parses the text of a flow file: invalid JSON is one problem at path "" with the parser's words. */
export function parseFlowText(text: string): FlowParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [{ path: "", message: `not valid JSON: ${(error as Error).message}` }] };
  }
  return parseFlow(value);
}

function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") {
    return `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `'${k}'`).join(", ")}`;
  }
  return issue.message;
}

/**
 * The exit codes of `flow` (SPEC §8), stable and documented. 3 and 5 are told apart by the act's
 * `changed`: an expectation that fails after the screen changed is 3, after nothing changed 5.
 */
export const FLOW_EXIT = {
  passed: 0,
  error: 1,
  timed_out: 2,
  unexpected_screen: 3,
  device_fault: 4,
  no_progress: 5,
} as const;

export type FlowOutcome = keyof typeof FLOW_EXIT;
export type FlowExitCode = (typeof FLOW_EXIT)[FlowOutcome];

export const FLOW_EXIT_MEANINGS: Readonly<Record<FlowOutcome, string>> = {
  passed: "every step passed",
  error: "invalid flow, or another error (the report names it)",
  timed_out: "timed out waiting for a screen: it never settled or never came",
  unexpected_screen:
    "unexpected screen: an expectation failed after the action changed the screen (e.g. a dialog appeared); handle that screen",
  device_fault: "device fault: unavailable, disconnected, busy, no such device, or its UI session ended on the Appium side",
  no_progress: "no progress: an expectation failed after an action that changed nothing; repeating it will not help",
};
