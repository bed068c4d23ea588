/**
 * The `artifact://{id}` resource template: reads an evidence PNG (or a screen recording's MP4, `video/mp4`) by the id the harness issued and lists the
 * recent ones. Only ids of the exact issued form naming a regular file in the artifacts directory are served
 * or listed (EvidenceStore decides); any other artifact:// URI — traversal, a planted symlink or FIFO, an id
 * never issued — is refused, which resource_reads.ts answers with -32002 "resource not found".
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
import { type McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { ErrorCode, type ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { EvidenceStore } from "../ports/evidence.ts";
import { ARTIFACT_READ_WAIT_MS, failedCaptureSentence, type PendingEvidence } from "./pending_evidence.ts";
import { protocolError } from "./protocol_error.ts";
import { quote } from "./quote.ts";
import { isRefusal, type Refusal, type ResourceReader } from "./resource_reads.ts";

export { RESOURCE_NOT_FOUND } from "./resource_reads.ts";
const RECENT_LIMIT = 50;
const SCHEME = "artifact://";

/** Registers the template (so resources/list lists the recent evidence) and returns its reader. */
export function registerArtifactResources(server: McpServer, evidence: EvidenceStore, pending: PendingEvidence): ResourceReader {
  const template = new ResourceTemplate(`${SCHEME}{id}`, {
    list: async () => ({
      resources: (await evidence.listRecent(RECENT_LIMIT)).map((ref) => ({
        uri: ref.uri,
        name: ref.artifact_id,
        mimeType: ref.artifact_id.endsWith(".mp4") ? "video/mp4" : "image/png",
      })),
    }),
  });
  const reader: ResourceReader = {
    serves: "artifact://<id> (evidence an envelope named)",
    claims: (uri) => uri.startsWith(SCHEME),
    read: (uri) => readArtifact(evidence, pending, uri),
  };
  server.registerResource(
    "artifact",
    template,
    {
      title: "Evidence screenshot or recording",
      description: "A PNG (or a screen recording's MP4) the harness saved as evidence, by the id an envelope gave.",
      mimeType: "image/png",
    },
    async (uri) => {
      const answer = await reader.read(uri.href);
      if (isRefusal(answer)) throw new Error(answer.refused); // not reached: resource_reads.ts answers reads
      return answer;
    },
  );
  return reader;
}

async function readArtifact(evidence: EvidenceStore, pending: PendingEvidence, uri: string): Promise<ReadResourceResult | Refusal> {
  const id = uri.slice(SCHEME.length);
  const state = await pending.awaitArtifact(id, ARTIFACT_READ_WAIT_MS);
  if (state === "pending") {
    throw protocolError(
      ErrorCode.InternalError,
      `The evidence ${quote(uri, 120)} is still being captured after ${ARTIFACT_READ_WAIT_MS / 1000} s; read it again in a moment.`,
      { code: "OPERATION_TIMEOUT", uri: uri.slice(0, 200) },
    );
  }
  const failure = state === "failed" ? await pending.outcome(id) : null;
  if (failure !== null) return { refused: failedCaptureSentence(failure) };
  const found = await evidence.resolve(id);
  if (found === null) {
    return {
      refused: `No evidence ${
        quote(uri, 120)
      }: only artifact://<id> with an id an envelope returned is served. List resources to see the recent ones.`,
    };
  }
  return { contents: [{ uri, mimeType: found.mimeType, blob: Buffer.from(found.bytes).toString("base64") }] };
}
