/**
 * Builds the MCP server: publishes exactly the tools that contracts/ declares available (name, title,
 * description, annotations, strict input schema, the envelope as output schema), answers every call
 * through runOperation (so even refused arguments come back as our envelope; tool_calls.ts dispatches by
 * own name and refuses non-object arguments), and serves artifact:// and, when given, doctor://report
 * (resource_reads.ts answers every read: -32002 for anything not served).
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { inputJsonSchema } from "../../contracts/catalog.ts";
import { type Envelope, ENVELOPE_JSON_SCHEMA, EnvelopeSchema } from "../../contracts/envelope.ts";
import type { ToolName } from "../../contracts/tool_inputs.ts";
import { AVAILABLE_TOOL_NAMES, TOOL_CONTRACT_BY_NAME } from "../../contracts/tools.ts";
import type { DoctorReport } from "../doctor/types.ts";
import { HarnessError } from "../errors.ts";
import { SERVED_TOOLS, type ToolDefinition } from "../tools/mod.ts";
import { VERSION } from "../version.ts";
import { registerArtifactResources } from "./artifact_resources.ts";
import { registerDoctorResource } from "./doctor_resource.ts";
import { answerResourceReads } from "./resource_reads.ts";
import { toToolResult } from "./envelope.ts";
import { StopRequested } from "./operation_deadline.ts";
import { type OperationDeps, runOperation } from "./run_operation.ts";
import { answerToolCalls, type RequestExtra, type ToolCallHandler } from "./tool_calls.ts";

export const SERVER_NAME = "android-mcp-harness";

const INSTRUCTIONS = "Observe with ui_get_tree; name elements only by the selectors it returns (never coordinates). " +
  "Every answer is one envelope {ok, operation_id, tool, data, evidence, error{code,message}}.";

/** Sees every answered call (e.g. `serve --record`); the client's answer waits for it. */
export type AnswerListener = (tool: string, args: Record<string, unknown>, envelope: Envelope) => Promise<void>;

/** What a server offers beyond the tools: `doctorReport` computes the `doctor://report` resource on each
 * read; `onAnswer` sees every answered tool call. */
export interface HarnessResources {
  doctorReport?: () => Promise<DoctorReport>;
  onAnswer?: AnswerListener;
}

export function createHarnessServer(deps: OperationDeps, tools: readonly ToolDefinition[] = SERVED_TOOLS, resources: HarnessResources = {}): McpServer {
  checkServedMatchesContract(tools);
  const server = new McpServer({ name: SERVER_NAME, version: VERSION }, { instructions: INSTRUCTIONS });
  const handlers = new Map<string, ToolCallHandler>();
  for (const tool of tools) {
    const handler: ToolCallHandler = async (args, extra) => {
      const answer = await runOperation(tool, args, deps, { cancel: cancellationOf(server, extra.signal), progress: progressSender(extra) });
      await resources.onAnswer?.(tool.name, args, answer.envelope);
      return toToolResult(answer.envelope, answer.content);
    };
    registerContractTool(server, tool.name, handler);
    handlers.set(tool.name, handler);
  }
  answerToolCalls(server, handlers);
  const readers = [registerArtifactResources(server, deps.ports.evidence)];
  if (resources.doctorReport !== undefined) readers.push(registerDoctorResource(server, resources.doctorReport));
  answerResourceReads(server, readers);
  return server;
}

/**
 * The SDK aborts a request's signal both for the client's notifications/cancelled and when the connection closes
 * (stdin EOF, or serve closing it on a signal); the closed connection is known only once its close has run, a
 * moment later. The call's cancel signal says which: a StopRequested reason for the closed connection.
 */
function cancellationOf(server: McpServer, signal: AbortSignal): AbortSignal {
  const cancel = new AbortController();
  const decide = () =>
    queueMicrotask(() => cancel.abort(server.server.transport === undefined ? new StopRequested("the connection closed") : signal.reason));
  if (signal.aborted) decide();
  else signal.addEventListener("abort", decide, { once: true });
  return cancel.signal;
}

/**
 * Publishes one declared tool with its contract metadata. The client sees the strict input schema; the
 * SDK validates only loosely, so refused arguments reach the handler and come back as our envelope
 * (INVALID_SELECTOR, …) instead of the SDK's bare text.
 */
export function registerContractTool(server: McpServer, name: ToolName, handler: ToolCallHandler): void {
  const contract = TOOL_CONTRACT_BY_NAME[name];
  server.registerTool(
    name,
    {
      title: contract.title,
      description: contract.description,
      inputSchema: z.looseObject({}).meta({ ...inputJsonSchema(name), $schema: undefined }),
      outputSchema: publishedOutputSchema(),
      annotations: { ...contract.annotations },
    },
    handler,
  );
}

/** MCP progress notifications for this request, counted up; undefined when the client sent no progress token. */
function progressSender(extra: RequestExtra): ((message: string) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined || extra.sendNotification === undefined) return undefined;
  let progress = 0;
  return (message) => {
    void extra.sendNotification!({ method: "notifications/progress", params: { progressToken: token, progress: ++progress, message } }).catch(() => {});
  };
}

/** Validates strictly on the server; publishes the compact JSON form (twelve copies go into tools/list). */
function publishedOutputSchema() {
  return EnvelopeSchema.meta({ ...ENVELOPE_JSON_SCHEMA, $schema: undefined, properties: undefined, additionalProperties: undefined });
}

function checkServedMatchesContract(tools: readonly ToolDefinition[]): void {
  const served = tools.map((t) => t.name).join(",");
  const declared = AVAILABLE_TOOL_NAMES.join(",");
  if (served !== declared) {
    throw new HarnessError(
      "INTERNAL_ERROR",
      `The served tools [${served}] differ from the tools contracts/tools.ts declares available [${declared}]. Change the contract first, then the tool list.`,
    );
  }
}
