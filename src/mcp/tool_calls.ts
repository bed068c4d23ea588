/**
 * Answers `tools/list` and `tools/call` through the SDK's public API: tools/list with a request handler
 * (the published entries as given), tools/call as the protocol's `fallbackRequestHandler`, which receives
 * the raw JSON-RPC request. The SDK's own tools/call path validates `params` with zod first (an array or null
 * `arguments` gave a raw zod dump, a `__proto__` key was dropped from a copy); here a name that is not one of
 * the served tools (own names only) or arguments that are not a JSON object are JSON-RPC -32602 (what MCP
 * prescribes for unknown tools) with one short sentence, and the raw arguments reach the tool untouched.
 * Any other method without a handler is -32601 "Method not found", as the SDK answers it.
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { type CallToolResult, ErrorCode, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { protocolError } from "./protocol_error.ts";
import { quote } from "./quote.ts";

/** What the SDK hands a request handler that a tool uses: the cancellation signal, the progress token, a notifier. */
export interface RequestExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification?: (
    notification: { method: "notifications/progress"; params: { progressToken: string | number; progress: number; message?: string } },
  ) => Promise<void>;
}

export type ToolCallHandler = (args: Record<string, unknown>, extra: RequestExtra) => Promise<CallToolResult>;

export interface ServedTool {
  /** The tools/list entry. */
  published: Tool;
  call: ToolCallHandler;
}

export function answerTools(server: McpServer, tools: readonly ServedTool[]): void {
  const handlers = new Map(tools.map((tool) => [tool.published.name, tool.call]));
  const names = [...handlers.keys()].join(", ");
  server.server.registerCapabilities({ tools: { listChanged: false } }); // the catalog is closed: the list never changes
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((tool) => tool.published) }));
  server.server.fallbackRequestHandler = async (request, extra) => {
    if (request.method !== "tools/call") throw protocolError(ErrorCode.MethodNotFound, "Method not found");
    const params = request.params;
    const name = isObject(params) ? params["name"] : undefined;
    if (typeof name !== "string") {
      throw protocolError(ErrorCode.InvalidParams, `The tool name must be a string (params.name); this server's tools are ${names}.`);
    }
    const handler = handlers.get(name);
    if (handler === undefined) {
      throw protocolError(ErrorCode.InvalidParams, `Unknown tool ${quote(name)}: this server's tools are ${names}.`);
    }
    const args = (params as Record<string, unknown>)["arguments"];
    if (args !== undefined && !isObject(args)) {
      throw protocolError(
        ErrorCode.InvalidParams,
        `Arguments for ${name} must be a JSON object, not ${describe(args)}; send {} when there are none.`,
      );
    }
    return handler(args ?? {}, extra);
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
