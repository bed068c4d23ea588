/**
 * Runs one flow on one device: resolves the device once, opens ONE UI session (`ui_session_open` with
 * the flow's package), which takes the device's cross-process lock and keeps it until the session is
 * closed (another owner gets EMULATOR_BUSY: exit 4), runs every step through the one gate (runOperation)
 * with that session_id, polls each expectation with `ui_get_tree` until its timeout_ms, stops at the first
 * failing step (the rest are "skipped"), and always closes the session (releasing the lock), also when
 * `stop` cancels the run (SIGINT/SIGTERM: an `error` at the step in flight). A step's evidence PNG, taken behind
 * its answer, is awaited before the step is recorded: the report names only PNGs that exist. Never
 * throws: faults become the run's outcome (step_outcome.ts decides it) and are named in the result.
 * A text the flow types is shown in the run's record (a step's `text`, an expectation naming it) unless it is a
 * secret: it came from the environment (`envTexts`), went into a password field (the screen before or after the
 * step says so), or was never typed (its step failed or did not run: where it would have gone is not known);
 * a secret is kept as its length only (`{redacted_length: N}`, `[typed text, N characters]`).
 */
import { DEFAULT_EXPECT_TIMEOUT_MS, type FlowFile, type FlowOutcome, type FlowStep } from "../../contracts/flow.ts";
import type { Envelope, ToolEnvelope } from "../../contracts/envelope.ts";
import { redactArguments, redactUrl } from "../../contracts/tool_inputs.ts";
import { type ToolData, type ToolName, TOOLS } from "../../contracts/tools.ts";
import { toHarnessError } from "../errors.ts";
import { StopRequested } from "../mcp/operation_deadline.ts";
import { type InProcessClient, inProcessClient } from "../mcp/in_process_client.ts";
import type { OperationDeps } from "../mcp/run_operation.ts";
import type { AnyToolHandler } from "../ports/operation.ts";
import type { ScreenSummary, Selector } from "../screen/mod.ts";
import { checkExpectation, describeExpectation, describeScreen, type ExpectationVerdict, maskTyped } from "./expectation.ts";
import { type ActEffect, decideStep, effectOf, exitCodeOf, OUTCOME_OF_ERROR } from "./step_outcome.ts";
import type { FlowFailure, FlowRun, StepRecord } from "./flow_run.ts";
import { typedIntoPassword } from "./recorder.ts";

/** What the runner needs of an opened harness (src/composition.ts). */
export interface FlowHarness {
  deps: OperationDeps;
  tools: readonly AnyToolHandler[];
  description: string;
  simulated: boolean;
}

export interface StepProgress {
  index: number;
  total: number;
  tool: string;
  /** "started", then the step's outcome. */
  phase: "started" | "finished";
  outcome?: FlowOutcome;
  durationMs?: number;
  reason?: string;
}

export interface RunFlowOptions {
  /** The flow file as named on the command line (for the report). */
  file?: string;
  onProgress?: (event: StepProgress) => void;
  /** Pause between two readings of the screen while an expectation does not hold yet. */
  pollIntervalMs?: number;
  /**
   * Aborted when the run must stop (SIGINT/SIGTERM): the step in flight is cancelled, the rest are
   * skipped, the session is still closed, and the run ends as an error naming the step; the reason is
   * the signal's name.
   */
  stop?: AbortSignal;
  /** The texts the flow's `{"env": NAME}` references resolved to: secrets, kept in the record as their length only. */
  envTexts?: ReadonlySet<string>;
}

const OBSERVE_TOOL_FOR_EXPECT = "ui_get_tree" satisfies ToolName;

export async function runFlow(flow: FlowFile, harness: FlowHarness, options: RunFlowOptions = {}): Promise<FlowRun> {
  const { clock } = harness.deps;
  const started = clock.now();
  const run: FlowRun = {
    flow: { name: flow.name, package_name: flow.package_name, ...(options.file === undefined ? {} : { file: options.file }) },
    device: {
      udid: null,
      adb_server: harness.deps.ports.observer.adbServer,
      description: harness.description,
      simulated: harness.simulated,
    },
    started_at: new Date(started).toISOString(),
    finished_at: "",
    duration_ms: 0,
    outcome: "passed",
    exit_code: 0,
    session: { session_id: null, closed: false },
    steps: flow.steps.map((step, i) => skippedStep(step, i + 1)),
  };
  const secrets = new Set(options.envTexts ?? []);
  try {
    // One device for the whole flow: resolved once, every operation bound to that serial.
    const { observer } = harness.deps.ports;
    const { udid } = await observer.resolveDevice({ timeoutMs: harness.deps.actionTimeoutMs });
    run.device.udid = udid;
    const deps: OperationDeps = { ...harness.deps, ports: { ...harness.deps.ports, observer: observer.bind(udid) } };
    await runSteps(flow, inProcessClient(harness.tools, deps), run, { ...options, secrets });
  } catch (error) {
    const fault = toHarnessError(error);
    fail(run, { outcome: OUTCOME_OF_ERROR[fault.code], reason: `${fault.code}: ${fault.message}` });
  } finally {
    maskSecrets(flow, run, secrets);
    const finished = clock.now();
    run.finished_at = new Date(finished).toISOString();
    run.duration_ms = Math.round(finished - started);
  }
  return run;
}

async function runSteps(
  flow: FlowFile,
  gate: InProcessClient,
  run: FlowRun,
  options: RunFlowOptions & { secrets: Set<string> },
): Promise<void> {
  const { stop } = options;
  const opened = await callUnder(gate, "ui_session_open", { package: flow.package_name }, stop);
  if (stop?.aborted) {
    fail(run, { outcome: "error", reason: `${interrupted(stop)} while the flow's UI session was opening` });
    if (opened.ok) await closeSession(gate, run, opened.data.session_id);
    return;
  }
  if (!opened.ok) {
    const outcome = OUTCOME_OF_ERROR[opened.error.code];
    // The report still shows the screen of that moment (what was in front instead of the app), unless the device is gone.
    const evidence = opened.evidence ?? (outcome === "device_fault" ? null : (await gate.call("ui_screenshot", {})).evidence);
    fail(run, { outcome, reason: `the flow's UI session could not be opened: ${opened.error.code}: ${opened.error.message}`, evidence });
    return;
  }
  const sessionId = opened.data.session_id;
  run.session.session_id = sessionId;
  const recording = flow.record === true ? await gate.call("screen_record", { action: "start" }) : null;
  if (recording !== null && !recording.ok) run.recording = { evidence: null, error: `${recording.error.code}: ${recording.error.message}` };
  try {
    let lastEffect: ActEffect | undefined;
    let lastScreen: ScreenSummary | undefined;
    for (const [i, step] of flow.steps.entries()) {
      if (stop?.aborted) {
        run.steps[i] = { ...run.steps[i]!, outcome: "error", reason: `${interrupted(stop)} before this step ran` };
        fail(run, { outcome: "error", reason: run.steps[i]!.reason!, step: i + 1, tool: step.tool });
        break;
      }
      const record = await runStep(step, i + 1, flow.steps.length, { gate, sessionId, lastEffect, lastScreen, options });
      run.steps[i] = record;
      lastScreen = record.screen ?? lastScreen;
      if (stop?.aborted) {
        // Whatever the cancelled call answered, the step did not end on its own: no screen verdict.
        record.outcome = "error";
        record.reason = `${interrupted(stop)} during this step`;
        fail(run, { outcome: "error", reason: record.reason, step: record.index, tool: record.tool, ...failureScreen(record) });
        break;
      }
      lastEffect = effectOf(record.envelope?.data ?? {}) ?? lastEffect;
      if (record.outcome !== "passed" && record.outcome !== "skipped") {
        if (record.screen === undefined && record.outcome !== "device_fault") {
          const reading = await gate.call(OBSERVE_TOOL_FOR_EXPECT, {});
          if (reading.ok) record.screen = reading.data;
        }
        fail(run, {
          outcome: record.outcome,
          reason: record.reason ?? record.outcome,
          step: record.index,
          tool: record.tool,
          ...failureScreen(record),
          evidence: await failureEvidence(gate, record),
        });
        break;
      }
    }
  } finally {
    if (recording?.ok === true) await stopRecording(gate, run);
    await closeSession(gate, run, sessionId);
  }
}

/** Stops the run's screen recording (never cancelled, like the session's close) and names its MP4 in the run. */
async function stopRecording(gate: InProcessClient, run: FlowRun): Promise<void> {
  const stopped = await gate.call("screen_record", { action: "stop" });
  run.recording = stopped.ok
    ? {
      evidence: stopped.evidence,
      ...(stopped.data.seconds === undefined ? {} : { seconds: stopped.data.seconds }),
      ...(stopped.data.segments === undefined ? {} : { segments: stopped.data.segments }),
    }
    : { evidence: null, error: `${stopped.error.code}: ${stopped.error.message}` };
}

/** Closes the flow's session (never cancelled: it is how the device is freed). */
async function closeSession(gate: InProcessClient, run: FlowRun, sessionId: string): Promise<void> {
  run.session.session_id = sessionId;
  const closed = await gate.call("ui_session_close", { session_id: sessionId });
  // A session a cancelled or timed-out operation revoked was already deleted and its lock released.
  const ended = closed.error?.code === "SESSION_NOT_FOUND" && closed.error.details?.["ended"] !== undefined;
  run.session.closed = closed.ok || ended;
  if (!closed.ok) run.session.close_error = `${closed.error!.code}: ${closed.error!.message}`;
}

function interrupted(stop: AbortSignal): string {
  return `interrupted (${typeof stop.reason === "string" ? stop.reason : "stop requested"})`;
}

interface StepContext {
  gate: InProcessClient;
  sessionId: string;
  lastEffect: ActEffect | undefined;
  /** The screen the step before saw (whether a text goes into a password field). */
  lastScreen: ScreenSummary | undefined;
  options: RunFlowOptions & { secrets: Set<string> };
}

async function runStep(step: FlowStep, index: number, total: number, ctx: StepContext): Promise<StepRecord> {
  const { gate, options } = ctx;
  const clock = gate.deps.clock;
  options.onProgress?.({ index, total, tool: step.tool, phase: "started" });
  const started = clock.now();
  const args: Record<string, unknown> = { ...(step.args ?? {}) };
  if (TOOLS[step.tool].device === "act") args["session_id"] = ctx.sessionId; // acts run in the flow's session
  const envelope = await withStoredEvidence(gate, await callUnder(gate, step.tool, args, options.stop));
  const record: StepRecord = {
    index,
    tool: step.tool,
    args: reportedArguments(step),
    ...(step.expect === undefined
      ? {}
      : { expect: maskTyped(step.expect, options.secrets), expected: describeExpectation(step.expect, options.secrets) }),
    outcome: "passed",
    envelope: reportedEnvelope(envelope),
    duration_ms: 0,
    evidence_id: envelope.evidence?.artifact_id ?? null,
  };
  const text = typedText(step);
  if (
    text !== undefined &&
    (!envelope.ok || typedIntoPassword(step.args?.["selector"] as Selector, text, envelope.data, ctx.lastScreen, screenOf(envelope)))
  ) {
    options.secrets.add(text);
  }
  let verdict: ExpectationVerdict | undefined;
  if (envelope.ok && step.expect !== undefined) {
    // An act's answer carries the fingerprint of its evidence: the first reading of a fingerprint expectation uses it.
    const actFingerprint = envelope.ok && "settled" in envelope.data ? envelope.data.screen.fingerprint : undefined;
    const polled = await pollExpectation(
      gate,
      step.expect,
      { intervalMs: options.pollIntervalMs ?? 250, typed: options.secrets, ...(actFingerprint === undefined ? {} : { actFingerprint }) },
      options.stop,
    );
    record.expectation = {
      met: polled.verdict?.met ?? false,
      unmet: polled.verdict?.unmet ?? [],
      waited_ms: polled.waitedMs,
      readings: polled.readings,
    };
    if (polled.screen !== undefined) record.screen = polled.screen;
    if (polled.error !== undefined) record.reading_error = polled.error;
    else verdict = polled.verdict;
  }
  const readingError = record.reading_error?.error?.code;
  const decision = decideStep({
    ...(envelope.error !== null ? { errorCode: envelope.error.code } : readingError !== undefined ? { errorCode: readingError } : {}),
    ...(effectOf(envelope.data) === undefined ? {} : { effect: effectOf(envelope.data)! }),
    ...(ctx.lastEffect === undefined ? {} : { previousEffect: ctx.lastEffect }),
    ...(verdict === undefined ? {} : { verdict }),
  });
  record.outcome = decision.outcome;
  if (decision.reason !== undefined) {
    record.reason = envelope.error !== null
      ? `${envelope.error.code}: ${envelope.error.message}`
      : readingError !== undefined
      ? `reading the screen failed: ${readingError}: ${record.reading_error!.error!.message}`
      : decision.reason;
  }
  if (record.screen === undefined && envelope.ok && "settled" in envelope.data) record.screen = envelope.data.screen; // an act's new screen
  record.duration_ms = Math.round(clock.now() - started);
  options.onProgress?.({
    index,
    total,
    tool: step.tool,
    phase: "finished",
    outcome: record.outcome,
    durationMs: record.duration_ms,
    ...(record.reason === undefined ? {} : { reason: record.reason }),
  });
  return record;
}

interface Polled {
  verdict?: ExpectationVerdict;
  screen?: ScreenSummary;
  /** The failed reading that ended the polling (device gone, tree unavailable…). */
  error?: Envelope;
  waitedMs: number;
  readings: number;
}

interface PollOptions {
  intervalMs: number;
  typed: ReadonlySet<string>;
  /** The fingerprint of the act's own evidence: the first reading's, instead of another screenshot. */
  actFingerprint?: string;
}

/** Reads the screen until the expectation holds or its timeout passes (at least one reading); a reading
 * that fails with UI_TREE_UNAVAILABLE is retried within that time. An expectation with a fingerprint also
 * takes a screenshot at each reading (ui_screenshot's `fingerprint`; the act's own for the first), retried
 * within that time when it fails. */
async function pollExpectation(
  gate: InProcessClient,
  expect: NonNullable<FlowStep["expect"]>,
  { intervalMs, typed, actFingerprint }: PollOptions,
  stop?: AbortSignal,
): Promise<Polled> {
  const clock = gate.deps.clock;
  const started = clock.now();
  const timeout = expect.timeout_ms ?? DEFAULT_EXPECT_TIMEOUT_MS;
  let readings = 0;
  for (;;) {
    const reading = await callUnder(gate, OBSERVE_TOOL_FOR_EXPECT, { include_raw: true }, stop);
    readings++;
    const waited = clock.now() - started;
    const last = waited + intervalMs > timeout || stop?.aborted === true;
    if (!reading.ok) {
      // A dump that fails while a window is in transition ("null root node", "could not get idle state")
      // is read again until the timeout; only then is it "never settled". Device faults end at once.
      if (reading.error.code !== "UI_TREE_UNAVAILABLE" || last) return { error: reading, waitedMs: Math.round(waited), readings };
    } else {
      const { raw = "", ...tree } = reading.data;
      const pixels = expect.fingerprint === undefined
        ? undefined
        : await fingerprintNow(gate, readings === 1 ? actFingerprint : undefined, stop);
      if (pixels !== undefined && !pixels.ok && last) return { error: pixels, waitedMs: Math.round(waited), readings };
      const fingerprint = pixels === undefined ? undefined : pixels.ok ? pixels.fingerprint : undefined;
      const summary = fingerprint === undefined ? tree : { ...tree, fingerprint };
      const verdict = checkExpectation(expect, { summary, xml: raw, ...(fingerprint === undefined ? {} : { fingerprint }) }, typed);
      if ((verdict.met || last) && (pixels === undefined || pixels.ok)) {
        return { verdict, screen: summary, waitedMs: Math.round(waited), readings };
      }
    }
    await clock.sleep(intervalMs, stop).catch(() => {});
  }
}

/**
 * The step's answer once its evidence PNG is stored (an act's is taken behind its answer): a report never names a PNG
 * that does not exist, so a capture that failed leaves the step without evidence (the next answer says why).
 */
async function withStoredEvidence<E extends { evidence: { artifact_id: string } | null }>(gate: InProcessClient, envelope: E): Promise<E> {
  if (envelope.evidence === null) return envelope;
  return (await gate.deps.pending.outcome(envelope.evidence.artifact_id)) === null ? envelope : { ...envelope, evidence: null };
}

/** The screen's fingerprint now: the act's (`known`), else a ui_screenshot's; a failed screenshot is its envelope. */
async function fingerprintNow(
  gate: InProcessClient,
  known: string | undefined,
  stop: AbortSignal | undefined,
): Promise<{ ok: true; fingerprint: string } | (Envelope & { ok: false })> {
  if (known !== undefined) return { ok: true, fingerprint: known };
  const shot = await callUnder(gate, "ui_screenshot", {}, stop);
  return shot.ok ? { ok: true, fingerprint: shot.data.fingerprint } : { ...shot, ok: false };
}

/** A screenshot of the screen the flow failed on, unless the step's own evidence already shows it. */
async function failureEvidence(gate: InProcessClient, record: StepRecord): Promise<FlowFailure["evidence"]> {
  if (record.outcome === "device_fault") return null;
  if (record.expectation === undefined && record.envelope?.evidence) return record.envelope.evidence;
  const shot = await gate.call("ui_screenshot", {});
  return shot.evidence;
}

function failureScreen(record: StepRecord): Partial<FlowFailure> {
  const out: Partial<FlowFailure> = {};
  if (record.expected !== undefined) out.expected = record.expected;
  if (record.screen !== undefined) {
    out.screen_offers = describeScreen(record.screen);
    out.screen = record.screen;
  }
  return out;
}

/** The answer as reports keep it: an opened link (`data.url`) without its userinfo, query or fragment (redactUrl). */
function reportedEnvelope(envelope: Envelope): Envelope {
  const url = envelope.data["url"];
  return typeof url === "string" ? { ...envelope, data: { ...envelope.data, url: redactUrl(url) } } : envelope;
}

function fail(run: FlowRun, failure: FlowFailure): void {
  if (run.outcome !== "passed") return; // the first failure decides
  run.outcome = failure.outcome;
  run.exit_code = exitCodeOf(failure.outcome);
  run.failure = failure;
}

function skippedStep(step: FlowStep, index: number): StepRecord {
  return {
    index,
    tool: step.tool,
    args: reportedArguments(step),
    ...(step.expect === undefined ? {} : { expect: step.expect, expected: describeExpectation(step.expect) }),
    outcome: "skipped",
    envelope: null,
    duration_ms: 0,
    evidence_id: null,
  };
}

/** The text a ui_type_text step types, if it is one. */
function typedText(step: FlowStep): string | undefined {
  const text = step.tool === "ui_type_text" ? step.args?.["text"] : undefined;
  return typeof text === "string" && text !== "" ? text : undefined;
}

/** The step's arguments as reports show them: redacted as the audit log keeps them (redactArguments), a typed text as typed
 * (maskSecrets redacts a secret one once the run has ended). */
function reportedArguments(step: FlowStep): Record<string, unknown> {
  const text = typedText(step);
  return { ...redactArguments(step.args ?? {}), ...(text === undefined ? {} : { text }) };
}

/** An act's new screen, from its answer. */
function screenOf(envelope: Envelope): ScreenSummary | undefined {
  return envelope.ok && "screen" in envelope.data ? envelope.data["screen"] as ScreenSummary : undefined;
}

/**
 * Once the run has ended: every secret text (from the environment, typed into a password field, or never typed: a step
 * that did not run) kept in the record as its length only: the typed `text`, the expectations and their words.
 */
function maskSecrets(flow: FlowFile, run: FlowRun, secrets: Set<string>): void {
  run.steps.forEach((record, i) => {
    const text = typedText(flow.steps[i]!);
    if (text !== undefined && record.envelope === null) secrets.add(text);
  });
  if (secrets.size === 0) return;
  run.steps.forEach((record, i) => {
    const step = flow.steps[i]!;
    const text = typedText(step);
    if (text !== undefined && secrets.has(text)) record.args = redactArguments(step.args ?? {});
    if (step.expect === undefined) return;
    record.expect = maskTyped(step.expect, secrets);
    record.expected = describeExpectation(step.expect, secrets);
    if (run.failure?.step === record.index) run.failure.expected = record.expected;
  });
}

/**
 * One call under the run's stop (a signal's name as reason), seen by the call as the harness stopping so the audit
 * line says "shutdown"; the listener on the run's signal is removed when the call ends (a long flow kept one per call).
 */
async function callUnder<N extends ToolName>(
  gate: InProcessClient,
  name: N,
  args: Record<string, unknown>,
  stop: AbortSignal | undefined,
): Promise<ToolEnvelope<ToolData<N>>> {
  if (stop === undefined) return gate.call(name, args);
  const cancel = new AbortController();
  const abort = () => cancel.abort(new StopRequested(typeof stop.reason === "string" ? stop.reason : "stop requested"));
  if (stop.aborted) abort();
  else stop.addEventListener("abort", abort, { once: true });
  try {
    return await gate.call(name, args, { cancel: cancel.signal });
  } finally {
    stop.removeEventListener("abort", abort);
  }
}

/** The tools a flow needs that the harness does not serve, or an empty list. */
export function unservedTools(flow: FlowFile, tools: readonly AnyToolHandler[]): ToolName[] {
  const served = new Set(tools.map((t) => t.name));
  const needed: ToolName[] = ["ui_session_open", "ui_session_close", OBSERVE_TOOL_FOR_EXPECT, ...flow.steps.map((s) => s.tool)];
  if (flow.steps.some((s) => s.expect?.fingerprint !== undefined)) needed.push("ui_screenshot");
  return [...new Set(needed)].filter((name) => !served.has(name));
}
