/**
 * Answers `tools/call` in place of the SDK's handler, which looks tools up in a plain object (so `constructor`
 * or `__proto__` was "disabled", not unknown), validates `params` with zod (an array or null `arguments` gave a
 * raw zod dump) and copies the arguments (dropping a `__proto__` key before our strict check could see it).
 * Here: a name that is not one of the served tools (own names only) or arguments that are not a JSON object are
 * JSON-RPC -32602 (what MCP prescribes for unknown tools) with one short sentence; otherwise the raw arguments
 * go to the tool's handler untouched. Registered on the protocol layer itself, under the Server class's
 * tools/call wrapper, whose zod validation is the dump this replaces; our results are always valid envelopes.
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/shared/protocol.d.ts"
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { type CallToolResult, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { protocolError } from "./protocol_error.ts";
import { quote } from "./quote.ts";

/** What the SDK hands a request handler that a tool uses: the cancellation signal, the progress token, a notifier. */
export interface RequestExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification?: (notification: { method: "notifications/progress"; params: { progressToken: string | number; progress: number; message?: string } }) => Promise<void>;
}

export type ToolCallHandler = (args: Record<string, unknown>, extra: RequestExtra) => Promise<CallToolResult>;

/** The request as it arrived: `params` is not parsed, so nothing in it is copied or dropped. */
const RawToolCall = z.object({ method: z.literal("tools/call"), params: z.unknown() });

export function answerToolCalls(server: McpServer, handlers: ReadonlyMap<string, ToolCallHandler>): void {
  const names = [...handlers.keys()].join(", ");
  server.server.removeRequestHandler("tools/call");
  Protocol.prototype.setRequestHandler.call(server.server, RawToolCall, async (request, extra) => {
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
      throw protocolError(ErrorCode.InvalidParams,
        `Arguments for ${name} must be a JSON object, not ${describe(args)}; send {} when there are none.`);
    }
    return handler(args ?? {}, extra as RequestExtra);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
