/**
 * The `artifact://{id}` resource template: reads an evidence PNG by the id the harness issued and lists the
 * recent ones. Only ids of the exact issued form naming a regular file in the artifacts directory are served
 * or listed (EvidenceStore decides); any other request — traversal, another scheme, a planted symlink or FIFO,
 * a string no URL parser accepts — is JSON-RPC -32002 "resource not found", as the docs promise. resources/read
 * is answered here on the raw request: the SDK's handler parsed the URI first (-32603 "Invalid URL") and
 * answered an unmatched one with -32602.
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { ErrorCode, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import type { EvidenceStore } from "../ports/evidence.ts";
import { protocolError } from "./protocol_error.ts";
import { quote } from "./quote.ts";

/** JSON-RPC code the MCP specification gives to an unknown resource. */
export const RESOURCE_NOT_FOUND = -32002;
const RECENT_LIMIT = 50;
const SCHEME = "artifact://";

/** The request as it arrived (`params.uri` unparsed). */
const RawResourceRead = z.object({ method: z.literal("resources/read"), params: z.unknown() });

export function registerArtifactResources(server: McpServer, evidence: EvidenceStore): void {
  const template = new ResourceTemplate(`${SCHEME}{id}`, {
    list: async () => ({
      resources: (await evidence.listRecent(RECENT_LIMIT)).map((ref) => ({
        uri: ref.uri,
        name: ref.artifact_id,
        mimeType: "image/png",
      })),
    }),
  });
  const read = (uri: string) => readArtifact(evidence, uri);
  server.registerResource(
    "artifact",
    template,
    { title: "Evidence screenshot", description: "A PNG the harness saved as evidence, by the id an envelope gave.", mimeType: "image/png" },
    (uri) => read(uri.href),
  );
  server.server.removeRequestHandler("resources/read");
  server.server.setRequestHandler(RawResourceRead, async (request) => {
    const uri = typeof request.params === "object" && request.params !== null ? (request.params as Record<string, unknown>)["uri"] : undefined;
    if (typeof uri !== "string") throw protocolError(ErrorCode.InvalidParams, "resources/read needs params.uri, a string such as artifact://<id>.");
    return read(uri);
  });
}

async function readArtifact(evidence: EvidenceStore, uri: string): Promise<ReadResourceResult> {
  const found = uri.startsWith(SCHEME) ? await evidence.resolve(uri.slice(SCHEME.length)) : null;
  if (found === null) {
    throw protocolError(RESOURCE_NOT_FOUND,
      `No evidence ${quote(uri, 120)}: only artifact://<id> with an id an envelope returned is served. List resources to see the recent ones.`,
      { uri: uri.slice(0, 200) });
  }
  return { contents: [{ uri, mimeType: "image/png", blob: Buffer.from(found.bytes).toString("base64") }] };
}
