/**
 * What a tool is to the server: its contract name and a handler that receives validated arguments, the
 * operation's context (id, deadline signal, evidence slot) and the ports it may use. Handlers return
 * plain data (the envelope's `data`) and optional extra MCP content; they throw only HarnessError.
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolInput, ToolName } from "../../contracts/tool_inputs.ts";
import type { DeviceObserver } from "../ports/device.ts";
import type { Clock } from "../ports/clock.ts";
import type { EvidenceRef, EvidenceStore } from "../ports/evidence.ts";
import type { UiSessions } from "../ports/ui_sessions.ts";

export interface OperationContext {
  readonly operationId: string;
  /** Aborted when the operation's time limit passes; pass it to every port call. */
  readonly signal: AbortSignal;
  /** Milliseconds left before OPERATION_TIMEOUT; give it to port calls as their `timeoutMs`. */
  remainingMs(): number;
  /** Ties a saved PNG to this operation: it goes into the envelope, also on failure. */
  attachEvidence(ref: EvidenceRef): void;
  /** An MCP progress notification, when the client asked for them (a no-op otherwise). */
  progress(message: string): void;
}

/** The ports tools use; built once by the composition module (real adapters) or by tests (fakes). */
export interface ToolPorts {
  observer: DeviceObserver;
  evidence: EvidenceStore;
  /** UI sessions through Appium: the act tools' hands; ui_get_tree reads through a held session. */
  ui: UiSessions;
  clock: Clock;
}

export interface ToolOutcome {
  data: Record<string, unknown>;
  /** Extra MCP content after the envelope text (an image, a resource link). */
  content?: CallToolResult["content"];
}

export interface ToolDefinition<N extends ToolName = ToolName> {
  name: N;
  /** False for a tool that touches no device (ui_session_close): runOperation neither resolves nor locks one. */
  needsDevice?: false;
  run(args: ToolInput<N>, ctx: OperationContext, ports: ToolPorts): Promise<ToolOutcome>;
}

/** Keeps the argument type tied to the name while the list holds tools of every name. */
export function defineTool<N extends ToolName>(tool: ToolDefinition<N>): ToolDefinition {
  return tool as unknown as ToolDefinition;
}
