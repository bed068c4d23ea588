/**
 * The `artifact://{id}` resource template: reads an evidence PNG by the id the harness issued and lists
 * the recent ones. Only ids of the exact issued form that resolve inside the artifacts directory are
 * served (EvidenceStore.resolve decides); anything else, traversal included, is "resource not found".
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { EvidenceStore } from "../ports/evidence.ts";

/** JSON-RPC code the MCP specification gives to an unknown resource. */
export const RESOURCE_NOT_FOUND = -32002;
const RECENT_LIMIT = 50;

export function registerArtifactResources(server: McpServer, evidence: EvidenceStore): void {
  const template = new ResourceTemplate("artifact://{id}", {
    list: async () => ({
      resources: (await evidence.listRecent(RECENT_LIMIT)).map((ref) => ({
        uri: ref.uri,
        name: ref.artifact_id,
        mimeType: "image/png",
      })),
    }),
  });
  server.registerResource(
    "artifact",
    template,
    { title: "Evidence screenshot", description: "A PNG the harness saved as evidence, by the id an envelope gave.", mimeType: "image/png" },
    async (uri, variables) => {
      const id = variables["id"];
      const found = typeof id === "string" ? await evidence.resolve(id) : null;
      if (found === null) {
        throw new McpError(
          RESOURCE_NOT_FOUND,
          `No evidence ${JSON.stringify(uri.href)}: only artifact://<id> with an id an envelope returned is served. List resources to see the recent ones.`,
        );
      }
      return { contents: [{ uri: uri.href, mimeType: "image/png", blob: Buffer.from(found.bytes).toString("base64") }] };
    },
  );
}
