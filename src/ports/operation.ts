/**
 * What one operation is to the code below the gate: its context (id, deadline signal, the device handle the gate
 * resolved, evidence slot, progress), the ports a handler may use, and a tool's handler typed by its
 * declaration in contracts/tools.ts (validated arguments in, `data` as declared out; only HarnessError thrown).
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ActToolName, ToolData, ToolInput, ToolName } from "../../contracts/tools.ts";
import type { AppPackages } from "./app_packages.ts";
import type { Clock } from "./clock.ts";
import type { DeviceObserver, WaitOptions } from "./device.ts";
import type { EvidenceRef, EvidenceStore } from "./evidence.ts";
import type { ScreenRecordings } from "./screen_recording.ts";
import type { DeviceHandle, UiSessions } from "./ui_sessions.ts";

export interface OperationContext {
  readonly operationId: string;
  /** Aborted when the operation's time limit passes; pass it to every port call. */
  readonly signal: AbortSignal;
  /**
   * The device as this operation holds it, resolved once by the gate after it took the device lock: the UI session the
   * call names (its `session_id`, read by the gate alone) or the device's warm driver. Undefined for a tool of no device.
   */
  readonly device: DeviceHandle | undefined;
  /** Milliseconds left before OPERATION_TIMEOUT; give it to port calls as their `timeoutMs`. */
  remainingMs(): number;
  /** Ties a saved PNG to this operation: it goes into the envelope, also on failure. */
  attachEvidence(ref: EvidenceRef): void;
  /**
   * Names a reserved PNG as this operation's evidence and has the gate run `take` (which stores it) behind the
   * answer, under the capture's own time limit: the answer does not wait for it; the next operation on the device
   * does, and one that fails is said in that answer (src/mcp/pending_evidence.ts). Ignored once the limit passed.
   */
  captureLater(ref: EvidenceRef, take: (wait: WaitOptions) => Promise<void>): void;
  /** An MCP progress notification, when the client asked for them (a no-op otherwise). */
  progress(message: string): void;
  /**
   * Says the act's gesture went to the device (`sent`) or was answered by it (`done`): the time limit passing
   * after that is answered ACT_UNCONFIRMED (the act took place; read the screen), never OPERATION_TIMEOUT's "Retry".
   */
  noteActed(stage: ActStage): void;
}

/** How far an act got: its gesture sent and not yet answered, or answered (the settle read, evidence and facts follow). */
export type ActStage = "sent" | "done";

/** The ports tools use; built once by the composition module (real adapters) or by tests (fakes). */
export interface ToolPorts {
  observer: DeviceObserver;
  evidence: EvidenceStore;
  /** UI sessions through Appium: the act tools' hands; ui_get_tree reads through a held session. */
  ui: UiSessions;
  clock: Clock;
  /** Installing and removing apps (app_install, app_uninstall). */
  apps: AppPackages;
  /** Screen recordings, one a device (screen_record). */
  recordings: ScreenRecordings;
}

export interface ToolOutcome<D> {
  data: D;
  /** Extra MCP content after the envelope text (an image, a resource link). */
  content?: CallToolResult["content"];
}

/** A tool's handler: one per declared tool (src/tools/mod.ts holds them in a record the compiler checks). */
export interface ToolHandler<N extends ToolName> {
  name: N;
  run(args: ToolInput<N>, ctx: OperationContext, ports: ToolPorts): Promise<ToolOutcome<ToolData<N>>>;
  /** Loads what `run` needs, awaited by the gate before the operation's clock starts (a handler loaded on the first
   * call: src/tools/on_demand.ts); absent for a handler that is loaded already. */
  ready?(): Promise<void>;
}

/**
 * The handler of a tool declared with device access `act`: made only by device/act.ts's `defineActTool`, which runs
 * every act inside the pipeline (driver, page source before, act, settle, evidence, new summary); `pipeline` marks it.
 */
export interface ActToolHandler<N extends ToolName> extends ToolHandler<N> {
  readonly pipeline: "act";
}

/**
 * Every declared tool's handler, by name: a declared tool without one, one without a declaration, or an act tool
 * whose handler is not made by defineActTool does not compile.
 */
export type ToolHandlers = { [N in ToolName]: N extends ActToolName ? ActToolHandler<N> : ToolHandler<N> };

/** A handler of any declared tool (the served list holds one per available name; its `run` may load the handler
 * first: src/tools/on_demand.ts). */
export type AnyToolHandler = { [N in ToolName]: ToolHandler<N> }[ToolName];
