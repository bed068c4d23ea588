/**
 * Runs one tool call as one operation: validate the arguments, read the session they name (once, into
 * the operation context), find the device, take its lock as the tool's declared device access says
 * (EMULATOR_BUSY at once if held), run the handler on exactly that device (the observer bound to the
 * locked serial) within the deadline (OPERATION_TIMEOUT: the handler's signal is aborted and the lock
 * released), append one audit line, answer with the envelope. Never throws.
 * Once the lock is taken, the device handle (the session the call names, else the device's warm driver) is
 * resolved here, once, and handed down in the context (OperationContext.device): `session_id` is read here alone.
 */
import type { Envelope, Evidence, ToolEnvelope } from "../../contracts/envelope.ts";
import { redactArguments } from "../../contracts/tool_inputs.ts";
import { type ToolData, type ToolName, TOOLS } from "../../contracts/tools.ts";
import { HarnessError, toHarnessError } from "../errors.ts";
import type { Clock } from "../ports/clock.ts";
import type { AuditLog, AuditOutcome, DeviceLease, DeviceLock } from "../ports/evidence.ts";
import type { Logger } from "../ports/logger.ts";
import type { ActStage, OperationContext, ToolHandler, ToolOutcome, ToolPorts } from "../ports/operation.ts";
import { failureEnvelope, successEnvelope } from "./envelope.ts";
import type { ExtraContent } from "./response.ts";
import { startDeadline } from "./operation_deadline.ts";
import { parseToolInput } from "./tool_input.ts";

export interface OperationDeps {
  ports: ToolPorts;
  lock: DeviceLock;
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
  /** ANDROID_MCP_ACTION_TIMEOUT in milliseconds. */
  actionTimeoutMs: number;
  newOperationId: () => string;
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
  let evidence: Evidence | null = null;
  let answer: OperationAnswer<ToolData<N>>;
  try {
    const args = parseToolInput(tool.name, rawArgs);
    const gate: Gate = { tool: tool.name, operationId, deps, call, sessionId: sessionIdOf(args) };
    const outcome: ToolOutcome<ToolData<N>> = await withLockAndDeadline(gate, (ctx, ports) => tool.run(args, ctx, ports), (ref) => {
      evidence = ref;
    });
    answer = { envelope: successEnvelope(operationId, tool.name, outcome.data, evidence), content: outcome.content ?? [] };
  } catch (thrown) {
    if (!(thrown instanceof HarnessError)) deps.logger.error(`${tool.name} ${operationId}: ${describe(thrown)}`);
    answer = { envelope: failureEnvelope(operationId, tool.name, thrown, evidence), content: [] };
  }
  await appendAudit(deps, answer.envelope, rawArgs, deps.clock.now() - started);
  return answer;
}

interface Gate {
  tool: ToolName;
  operationId: string;
  deps: OperationDeps;
  call: CallOptions;
  /** The session the call names: the session-aware lock lets it through while that session holds the device. */
  sessionId: string | undefined;
}

/** The `session_id` argument of a tool that takes one. */
function sessionIdOf(args: object): string | undefined {
  return "session_id" in args && typeof args.session_id === "string" ? args.session_id : undefined;
}

async function withLockAndDeadline<T>(
  gate: Gate,
  work: (ctx: OperationContext, ports: ToolPorts) => Promise<T>,
  attachEvidence: (ref: Evidence) => void,
): Promise<T> {
  const { tool, operationId, deps, call, sessionId } = gate;
  const deadline = startDeadline(tool, { clock: deps.clock, timeoutMs: deps.actionTimeoutMs, cancel: call.cancel });
  const access = TOOLS[tool].device;
  let acted: ActStage | null = null;
  const ctx: OperationContext = {
    operationId,
    device: undefined,
    signal: deadline.signal,
    remainingMs: deadline.remainingMs,
    attachEvidence: (ref) => {
      if (!deadline.signal.aborted) attachEvidence(ref); // abandoned work does not name evidence
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
    if (access === "none") return work(ctx, deps.ports);
    // A call naming an open session is on that session's device (the session holds it; a device gone since
    // fails its first command with EMULATOR_UNAVAILABLE): no `adb devices` on each act of a session.
    const udid = (sessionId === undefined ? null : deps.ports.ui.udidOf(sessionId)) ??
      await deps.ports.observer.resolveUdid({ timeoutMs: ctx.remainingMs(), signal: ctx.signal });
    const acquired = await deps.lock.acquire({ adbServer: deps.ports.observer.adbServer, udid }, {
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
    const device = deps.ports.ui.handle(udid, sessionId, acquired);
    return work({ ...ctx, device }, { ...deps.ports, observer: deps.ports.observer.bind(udid) });
  };
  try {
    return await Promise.race([locked(), deadline.expired]);
  } catch (error) {
    throw acted !== null && error === deadline.signal.reason ? actUnconfirmed(tool, acted, error) : error;
  } finally {
    deadline.dispose();
    await lease?.release().catch((error: unknown) => deps.logger.warn(`releasing the device lock failed: ${describe(error)}`));
  }
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

async function appendAudit(deps: OperationDeps, envelope: Envelope, rawArgs: unknown, durationMs: number): Promise<void> {
  try {
    await deps.audit.append({
      ts: new Date(deps.clock.now()).toISOString(),
      operation_id: envelope.operation_id,
      tool: envelope.tool,
      arguments: redactArguments(rawArgs, argumentNamesOf(envelope.tool)),
      outcome: auditOutcome(envelope),
      evidence_id: envelope.evidence?.artifact_id ?? null,
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
