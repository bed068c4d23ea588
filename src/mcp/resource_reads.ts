/**
 * Answers `resources/read` in place of the SDK's handler, which parsed the URI first (-32603 "Invalid URL" for a
 * string no URL parser accepts) and answered an unmatched one with -32602. Here the raw `params.uri` goes to the
 * first reader that claims it; a URI no reader claims, or one its reader does not serve, is -32002 "resource not
 * found" (what MCP gives an unknown resource); a missing or non-string uri is -32602.
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { ErrorCode, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { protocolError } from "./protocol_error.ts";
import { quote } from "./quote.ts";

/** JSON-RPC code the MCP specification gives to an unknown resource. */
export const RESOURCE_NOT_FOUND = -32002;

/** A reader's answer for a URI it claims but does not serve: the sentence the -32002 error says. */
export interface Refusal {
  refused: string;
}

export function isRefusal(answer: ReadResourceResult | Refusal): answer is Refusal {
  return typeof (answer as { refused?: unknown }).refused === "string";
}

export interface ResourceReader {
  /** What it serves, for the not-found message ("artifact://<id>"). */
  readonly serves: string;
  claims(uri: string): boolean;
  /** The resource, or a refusal message (it is not one this reader serves). */
  read(uri: string): Promise<ReadResourceResult | Refusal>;
}

const RawResourceRead = z.object({ method: z.literal("resources/read"), params: z.unknown() });

export function answerResourceReads(server: McpServer, readers: readonly ResourceReader[]): void {
  server.server.removeRequestHandler("resources/read");
  server.server.setRequestHandler(RawResourceRead, async (request) => {
    const params = request.params;
    const raw = typeof params === "object" && params !== null ? (params as Record<string, unknown>)["uri"] : undefined;
    if (typeof raw !== "string") {
      throw protocolError(ErrorCode.InvalidParams, "resources/read needs params.uri, a string such as artifact://<id>.");
    }
    const uri: string = raw;
    const reader = readers.find((r) => r.claims(uri));
    const answer: ReadResourceResult | Refusal = reader === undefined
      ? {
        refused: `No resource ${quote(uri, 120)}: this server serves ${
          readers.map((r) => r.serves).join(" and ")
        }. List resources to see them.`,
      }
      : await reader.read(uri);
    if (isRefusal(answer)) throw protocolError(RESOURCE_NOT_FOUND, answer.refused, { uri: uri.slice(0, 200) });
    return answer;
  });
}
