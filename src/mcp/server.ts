/**
 * Builds the MCP server: publishes exactly the tools that contracts/ declares available (name, title,
 * description, annotations, strict input schema, the envelope with the tool's data as output schema),
 * answers every call through runOperation (so even refused arguments come back as our envelope; tool_calls.ts
 * dispatches by own name and refuses non-object arguments), and serves artifact:// and, when given,
 * doctor://report (resource_reads.ts answers every read: -32002 for anything not served).
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { inputJsonSchema, outputJsonSchema } from "../../contracts/catalog.ts";
import type { ToolEnvelope } from "../../contracts/envelope.ts";
import { AVAILABLE_TOOL_NAMES, TOOL_CONTRACT_BY_NAME, type ToolData, type ToolName } from "../../contracts/tools.ts";
import type { DoctorReport } from "../doctor/types.ts";
import { HarnessError } from "../errors.ts";
import type { AnyToolHandler } from "../ports/operation.ts";
import { SERVED_TOOLS_ON_DEMAND } from "../tools/on_demand.ts";
import { VERSION } from "../version.ts";
import { registerArtifactResources } from "./artifact_resources.ts";
import { registerDoctorResource } from "./doctor_resource.ts";
import { answerResourceReads } from "./resource_reads.ts";
import { toToolResult } from "./response.ts";
import { StopRequested } from "./operation_deadline.ts";
import { type OperationDeps, runOperation } from "./run_operation.ts";
import { answerTools, type RequestExtra, type ServedTool } from "./tool_calls.ts";

export const SERVER_NAME = "android-mcp-harness";

const INSTRUCTIONS = "Observe with ui_get_tree; name elements only by the selectors it returns (never coordinates). " +
  "Every answer is one envelope {ok, operation_id, tool, data, evidence, error{code,message}}.";

/** One answered call: the arguments as sent and the envelope, its `data` typed by the tool (narrow on `tool`). */
export type AnsweredCall = { [N in ToolName]: { tool: N; args: Record<string, unknown>; envelope: ToolEnvelope<ToolData<N>> } }[ToolName];

/** Sees every answered call (e.g. `serve --record`); the client's answer waits for it. */
export type AnswerListener = (call: AnsweredCall) => Promise<void>;

/** What a server offers beyond the tools: `doctorReport` computes the `doctor://report` resource on each
 * read; `onAnswer` sees every answered tool call. */
export interface HarnessResources {
  doctorReport?: () => Promise<DoctorReport>;
  onAnswer?: AnswerListener;
}

export function createHarnessServer(
  deps: OperationDeps,
  tools: readonly AnyToolHandler[] = SERVED_TOOLS_ON_DEMAND,
  resources: HarnessResources = {},
): McpServer {
  checkServedMatchesContract(tools);
  const server = new McpServer({ name: SERVER_NAME, version: VERSION }, { instructions: INSTRUCTIONS });
  answerTools(
    server,
    tools.map((tool): ServedTool => ({
      published: publishedTool(tool.name),
      call: async (args, extra) => {
        const answer = await runOperation(tool, args, deps, {
          cancel: cancellationOf(server, extra.signal),
          progress: progressSender(extra),
        });
        // The envelope is the one runOperation typed by this tool's name; TS cannot follow that through the served union.
        await resources.onAnswer?.({ tool: tool.name, args, envelope: answer.envelope } as AnsweredCall);
        return toToolResult(answer.envelope, answer.content);
      },
    })),
  );
  const readers = [registerArtifactResources(server, deps.ports.evidence, deps.pending)];
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
 * One declared tool's tools/list entry: its contract metadata, the strict input schema (refused arguments
 * still reach the handler and come back as our envelope: INVALID_SELECTOR, …) and the output schema.
 */
export function publishedTool(name: ToolName): Tool {
  const contract = TOOL_CONTRACT_BY_NAME[name];
  return {
    name,
    title: contract.title,
    description: contract.description,
    inputSchema: { type: "object", ...inputJsonSchema(name) },
    annotations: { ...contract.annotations },
    execution: { taskSupport: "forbidden" }, // as the SDK's registerTool published it: no MCP tasks
    outputSchema: { type: "object", ...outputJsonSchema(name) },
  };
}

/** MCP progress notifications for this request, counted up; undefined when the client sent no progress token. */
function progressSender(extra: RequestExtra): ((message: string) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined || extra.sendNotification === undefined) return undefined;
  let progress = 0;
  return (message) => {
    void extra.sendNotification!({ method: "notifications/progress", params: { progressToken: token, progress: ++progress, message } })
      .catch(() => {});
  };
}

function checkServedMatchesContract(tools: readonly AnyToolHandler[]): void {
  const served = tools.map((t) => t.name).join(",");
  const declared = AVAILABLE_TOOL_NAMES.join(",");
  if (served !== declared) {
    throw new HarnessError(
      "INTERNAL_ERROR",
      `The served tools [${served}] differ from the tools contracts/tools.ts declares available [${declared}]. Change the contract first, then the tool list.`,
    );
  }
}
