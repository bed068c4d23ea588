/**
 * Runs one tool call as one operation: validate the arguments, read the session they name (once, into
 * the operation context), find the device, take its lock as the tool's declared device access says
 * (EMULATOR_BUSY at once if held), run the handler on exactly that device (the observer bound to the
 * locked serial) within the deadline (OPERATION_TIMEOUT: the handler's signal is aborted and the lock
 * released), append one audit line, answer with the envelope. Never throws.
 * Once the lock is taken, the device handle (the session the call names, else the device's warm driver) is
 * resolved here, once, and handed down in the context (OperationContext.device): `session_id` is read here alone.
 * Evidence behind the answer (pending_evidence.ts): before the lock, the call waits for the device's captures still
 * under way and says one that failed (`previous_evidence_error`); an act's capture started after its answer holds the
 * operation's lock, and its audit line waits, until the PNG is stored (or said failed), so nothing else touches the
 * device in between.
 */
import type { Envelope, Evidence, PreviousEvidenceError, ToolEnvelope } from "../../contracts/envelope.ts";
import { redactArguments } from "../../contracts/tool_inputs.ts";
import { type ToolData, type ToolName, TOOLS } from "../../contracts/tools.ts";
import { HarnessError, toHarnessError } from "../errors.ts";
import type { Clock } from "../ports/clock.ts";
import type { OnlineDevices, ResolvedDevice, WaitOptions } from "../ports/device.ts";
import type { AuditLog, AuditOutcome, DeviceLease, DeviceLock, EvidenceRef } from "../ports/evidence.ts";
import type { Logger } from "../ports/logger.ts";
import type { ActStage, OperationContext, ToolHandler, ToolOutcome, ToolPorts } from "../ports/operation.ts";
import { failureEnvelope, successEnvelope } from "./envelope.ts";
import type { ExtraContent } from "./response.ts";
import { startDeadline } from "./operation_deadline.ts";
import { parseToolInput } from "./tool_input.ts";
import { EVIDENCE_CAPTURE_LIMIT_MS, type EvidenceFailure, type PendingEvidence } from "./pending_evidence.ts";

export interface OperationDeps {
  ports: ToolPorts;
  lock: DeviceLock;
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
  /** ANDROID_MCP_ACTION_TIMEOUT in milliseconds. */
  actionTimeoutMs: number;
  newOperationId: () => string;
  /** Evidence captures still under way after their answers (one per server: the gate, artifact reads, a stop). */
  pending: PendingEvidence;
}

export interface OperationAnswer<D = Record<string, unknown>> {
  /** On success `data` is the tool's declared data; on failure it is empty. */
  envelope: ToolEnvelope<D>;
  content: ExtraContent;
}

export interface CallOptions {
  /** The client's cancellation of this request; the work is aborted as on a timeout. */
  cancel?: AbortSignal;
  /** Sends an MCP progress notification (only when the client gave a progress token). */
  progress?: (message: string) => void;
}

export async function runOperation<N extends ToolName>(
  tool: ToolHandler<N>,
  rawArgs: unknown,
  deps: OperationDeps,
  call: CallOptions = {},
): Promise<OperationAnswer<ToolData<N>>> {
  const operationId = deps.newOperationId();
  const started = deps.clock.now();
  const state: OperationState = { evidence: null };
  let answer: OperationAnswer<ToolData<N>>;
  try {
    // The handler's code loads first (once, on a server's first call), before the deadline starts; a failed load is
    // this call's INTERNAL_ERROR, said in its envelope and audit line.
    await tool.ready?.();
    const args = parseToolInput(tool.name, rawArgs);
    const gate: Gate = { tool: tool.name, operationId, deps, call, sessionId: sessionIdOf(args), asked: deviceOf(args) };
    const outcome: ToolOutcome<ToolData<N>> = await withLockAndDeadline(gate, (ctx, ports) => tool.run(args, ctx, ports), state);
    answer = { envelope: successEnvelope(operationId, tool.name, outcome.data, state.evidence), content: outcome.content ?? [] };
  } catch (thrown) {
    if (!(thrown instanceof HarnessError)) deps.logger.error(`${tool.name} ${operationId}: ${describe(thrown)}`);
    answer = { envelope: failureEnvelope(operationId, tool.name, thrown, state.evidence), content: [] };
  }
  if (state.previous !== undefined) answer.envelope.previous_evidence_error = previousEvidenceError(state.previous);
  const durationMs = deps.clock.now() - started;
  const capture = state.capture;
  if (capture === undefined) {
    await appendAudit(deps, answer.envelope, rawArgs, durationMs);
    return answer;
  }
  // The answer goes now; the audit line (with the capture's fate) and the lock's release follow the stored PNG.
  const done = capture.stored.then(async (failure) => {
    await appendAudit(deps, answer.envelope, rawArgs, durationMs, failure);
    await capture.release();
    return failure;
  });
  deps.pending.track(capture.device, capture.ref.artifact_id, done);
  return answer;
}

/** What the gate learns of one operation while it runs: the evidence to name, a capture behind the answer, a past failure to say. */
interface OperationState {
  evidence: Evidence | null;
  capture?: {
    device: string;
    ref: EvidenceRef;
    /** Settles when the PNG is stored (null) or could not be (never rejects). */
    stored: Promise<EvidenceFailure | null>;
    /** Releases the operation's device lock (held until then). */
    release: () => Promise<void>;
  };
  /** A capture of an earlier operation on this device that failed, said in this answer. */
  previous?: EvidenceFailure;
}

/** The envelope's `previous_evidence_error`: a sentence no agent reads as "the act failed". */
function previousEvidenceError(failure: EvidenceFailure): PreviousEvidenceError {
  return {
    artifact_id: failure.artifact_id,
    code: failure.code,
    message: `The evidence screenshot ${failure.artifact_id} of the earlier ${failure.tool} (operation ${failure.operation_id}) ` +
      `could not be stored: ${failure.message} That act took place; do not repeat it.`,
  };
}

interface Gate {
  tool: ToolName;
  operationId: string;
  deps: OperationDeps;
  call: CallOptions;
  /** The session the call names: the session-aware lock lets it through while that session holds the device. */
  sessionId: string | undefined;
  /** The device the call names (its `device`: a serial or a name), read here alone. */
  asked: string | undefined;
}

/** The `device` argument of a tool that takes one. */
function deviceOf(args: object): string | undefined {
  return "device" in args && typeof args.device === "string" ? args.device : undefined;
}

/** The `session_id` argument of a tool that takes one. */
function sessionIdOf(args: object): string | undefined {
  return "session_id" in args && typeof args.session_id === "string" ? args.session_id : undefined;
}

async function withLockAndDeadline<T>(
  gate: Gate,
  work: (ctx: OperationContext, ports: ToolPorts) => Promise<T>,
  state: OperationState,
): Promise<T> {
  const { tool, operationId, deps, call, sessionId } = gate;
  const deadline = startDeadline(tool, { clock: deps.clock, timeoutMs: deps.actionTimeoutMs, cancel: call.cancel });
  const access = TOOLS[tool].device;
  let acted: ActStage | null = null;
  let device: string | undefined;
  let capture: { ref: EvidenceRef; stored: Promise<EvidenceFailure | null> } | undefined;
  const ctx: OperationContext = {
    operationId,
    device: undefined,
    signal: deadline.signal,
    remainingMs: deadline.remainingMs,
    attachEvidence: (ref) => {
      if (!deadline.signal.aborted) state.evidence = ref; // abandoned work does not name evidence
    },
    captureLater: (ref, take) => {
      if (deadline.signal.aborted || device === undefined || capture !== undefined) return;
      state.evidence = ref;
      capture = { ref, stored: captureBehind(gate, ref, take) };
    },
    progress: (message) => {
      if (!deadline.signal.aborted) call.progress?.(message);
    },
    noteActed: (stage) => {
      if (!deadline.signal.aborted && acted !== "done") acted = stage;
    },
  };
  let lease: DeviceLease | undefined;
  const locked = async () => {
    if (access === "none") {
      // ui_session_close touches no device, but its session is in use until an act's evidence in it is stored.
      const held = sessionId === undefined ? null : deps.ports.ui.udidOf(sessionId);
      if (held !== null) state.previous = await deps.pending.settle(deviceKey({ adbServer: deps.ports.observer.adbServer, udid: held }));
      return work(ctx, deps.ports);
    }
    const { udid, devices } = await deviceOfCall(gate, { timeoutMs: ctx.remainingMs(), signal: ctx.signal });
    const address = { adbServer: deps.ports.observer.adbServer, udid };
    // An earlier act's evidence still being captured keeps the device (and its lock) until its PNG is stored.
    state.previous = await deps.pending.settle(deviceKey(address));
    if (deadline.signal.aborted) throw deadline.signal.reason;
    device = deviceKey(address);
    const acquired = await deps.lock.acquire(address, {
      operationId,
      tool,
      access,
      ...(sessionId === undefined ? {} : { sessionId }),
    });
    if (deadline.signal.aborted) {
      await acquired.release(); // the limit passed while acquiring: nobody else would release it
      throw deadline.signal.reason;
    }
    lease = acquired;
    // The device handle, resolved once here from the session the call names (or the device's warm driver) and handed down.
    const handle = deps.ports.ui.handle(udid, sessionId, acquired);
    const observer = devices === null ? deps.ports.observer.bind(udid) : deps.ports.observer.bind(udid, devices);
    return work({ ...ctx, device: handle }, { ...deps.ports, observer });
  };
  try {
    return await Promise.race([locked(), deadline.expired]);
  } catch (error) {
    throw acted !== null && error === deadline.signal.reason ? actUnconfirmed(tool, acted, error) : error;
  } finally {
    deadline.dispose();
    const release = async () => {
      await lease?.release().catch((error: unknown) => deps.logger.warn(`releasing the device lock failed: ${describe(error)}`));
    };
    if (capture === undefined || device === undefined) await release();
    else state.capture = { device, ...capture, release };
  }
}

/**
 * The serial a call is on (issue 26). A call naming an open session is on that session's device (the session holds it;
 * a device gone since fails its first command with EMULATOR_UNAVAILABLE): no `adb devices` on each act of a session,
 * and a `device` beside it must be that one. Otherwise its `device`, else the server's, else the only online one
 * (resolve_device.ts); a tool declared `needsDevice` (what it removes cannot be undone) must name its device while
 * more than one is online.
 */
async function deviceOfCall(gate: Gate, wait: WaitOptions): Promise<ResolvedDevice> {
  const { deps, sessionId, asked, tool } = gate;
  const observer = deps.ports.observer;
  const held = sessionId === undefined ? null : deps.ports.ui.udidOf(sessionId);
  if (held !== null) {
    const meant = asked === undefined ? held : (await observer.resolveDevice({ ...wait, device: asked })).udid;
    if (meant !== held) {
      throw new HarnessError(
        "INVALID_ARGUMENT",
        `UI session ${sessionId} is on device ${held}, not on "${asked}" (${meant}): drop "device" to act in the session, ` +
          "or drop session_id to act on the other device.",
        { session_id: sessionId, session_device: held, device: asked },
      );
    }
    return { udid: held, devices: null };
  }
  const unnamed = asked === undefined && (TOOLS[tool] as { needsDevice?: true }).needsDevice === true;
  let resolved: ResolvedDevice;
  try {
    resolved = await observer.resolveDevice({ ...wait, device: asked });
  } catch (error) {
    // Several online and none bound: for a tool that cannot be undone, its own refusal (the same listing).
    const online = error instanceof HarnessError ? error.details?.["online"] : undefined;
    if (unnamed && Array.isArray(online) && online.length > 1) throw mustNameDevice(tool, online as OnlineDevices["online"]);
    throw error;
  }
  const online = resolved.devices?.online ?? [];
  if (unnamed && online.length > 1) throw mustNameDevice(tool, online);
  return resolved;
}

/** A tool declared `needsDevice` called without `device` while several devices are online. */
function mustNameDevice(tool: ToolName, online: OnlineDevices["online"]): HarnessError {
  return new HarnessError(
    "INVALID_ARGUMENT",
    `${tool} cannot be undone, and ${online.length} devices are online (${online.map((d) => d.udid).join(", ")}): ` +
      'pass "device" (the serial of the one you mean) to choose; nothing was changed.',
    { online },
  );
}

/** The device as the pending captures know it: the lock's key (adb server and serial). */
function deviceKey(address: { adbServer: string; udid: string }): string {
  return `${address.adbServer} ${address.udid}`;
}

/**
 * Starts an act's evidence capture behind its answer, under its own time limit (EVIDENCE_CAPTURE_LIMIT_MS, at most half
 * the action limit, so the next call, which waits for it, keeps half of its own; no call's deadline or cancellation
 * cuts it: the screen it shows is already settled).
 */
function captureBehind(gate: Gate, ref: EvidenceRef, take: (wait: WaitOptions) => Promise<void>): Promise<EvidenceFailure | null> {
  const timeoutMs = Math.min(EVIDENCE_CAPTURE_LIMIT_MS, gate.deps.actionTimeoutMs / 2);
  return take({ timeoutMs }).then(() => null, (error: unknown) => {
    const failure = toHarnessError(error);
    return { artifact_id: ref.artifact_id, tool: gate.tool, operation_id: gate.operationId, code: failure.code, message: failure.message };
  });
}

/**
 * The time limit passed after the act's gesture went to the device: the act took place (or most likely did), so the
 * answer must not read as "cancelled … Retry" (a retry would flip a switch back). A client's cancellation or the
 * harness stopping stays OPERATION_TIMEOUT with `details.cancelled` (nobody reads that answer).
 */
function actUnconfirmed(tool: ToolName, stage: ActStage, timeout: unknown): unknown {
  if (!(timeout instanceof HarnessError) || timeout.details?.["cancelled"] !== undefined) return timeout;
  const seconds = timeout.details?.["timeout_s"];
  const unconfirmed = stage === "sent"
    ? "the device's answer to the gesture and the screen it led to"
    : "the screen it led to (the settle read, the evidence screenshot or the device's facts)";
  return new HarnessError(
    "ACT_UNCONFIRMED",
    `The ${tool} act was sent to the device${stage === "sent" ? " (most likely it took place)" : " and took place"}, ` +
      `but ${unconfirmed} could not be read within ${String(seconds)} s (ANDROID_MCP_ACTION_TIMEOUT). Do not repeat it: ` +
      "read the screen with ui_get_tree and go on from what it shows (raise the limit if the device is slow).",
    { act: stage, unconfirmed: stage === "sent" ? "gesture" : "screen", timeout_s: seconds as number },
  );
}

/** The argument names a tool declares (none for a name that is no tool): any other key is audited as a length. */
function argumentNamesOf(tool: string): ReadonlySet<string> {
  const input = (TOOLS as Record<string, { input?: { shape?: Record<string, unknown> } }>)[tool]?.input;
  return new Set(Object.keys(input?.shape ?? {}));
}

async function appendAudit(
  deps: OperationDeps,
  envelope: Envelope,
  rawArgs: unknown,
  durationMs: number,
  evidenceFailure: EvidenceFailure | null = null,
): Promise<void> {
  try {
    await deps.audit.append({
      ts: new Date(deps.clock.now()).toISOString(),
      operation_id: envelope.operation_id,
      tool: envelope.tool,
      arguments: redactArguments(rawArgs, argumentNamesOf(envelope.tool)),
      outcome: auditOutcome(envelope),
      evidence_id: envelope.evidence?.artifact_id ?? null,
      ...(evidenceFailure === null ? {} : { evidence_error: { code: evidenceFailure.code, message: evidenceFailure.message } }),
      duration_ms: Math.round(durationMs),
    });
  } catch (error) {
    deps.logger.warn(`audit line for ${envelope.operation_id} not written: ${toHarnessError(error).message}`);
  }
}

/**
 * The audit line's outcome (docs/contract.md): "ok", the error code, or what cut the call off: "cancelled" (the
 * client's notifications/cancelled) or "shutdown" (SIGTERM/SIGINT/SIGHUP or stdin EOF while it ran).
 */
export function auditOutcome(envelope: Envelope): AuditOutcome {
  if (envelope.error === null) return "ok";
  const by = envelope.error.details?.["cancelled"];
  if (envelope.error.code === "OPERATION_TIMEOUT" && (by === "client" || by === "shutdown")) {
    return by === "client" ? "cancelled" : "shutdown";
  }
  return envelope.error.code;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
