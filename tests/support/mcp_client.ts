/**
 * MCP clients for tests: an SDK Client linked in memory to a server object (contract tests), and an SDK
 * Client that spawns the compiled `main.js serve …` over real stdio (end-to-end). Both return `close()`,
 * which the test calls in a finally/after hook; the spawned process is killed by its PID if still alive.
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/inMemory.d.ts"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { fileURLToPath } from "node:url";
import { type Envelope, EnvelopeSchema } from "../../contracts/envelope.ts";
import { envelopeText } from "../../src/mcp/response.ts";

export interface Connected {
  client: Client;
  close(): Promise<void>;
}

export async function connectInMemory(server: McpServer): Promise<Connected> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "contract-test", version: "0" });
  await client.connect(clientSide);
  // The client keeps each tool's published output schema from here on and checks every answer's structuredContent against it.
  await client.listTools();
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The compiled entry point, found from this file (works in any --outDir). */
export const MAIN_JS = fileURLToPath(new URL("../../src/main.js", import.meta.url));

/**
 * How to start the harness: `node <MAIN_JS>` by default; ANDROID_MCP_HARNESS_CMD (split on spaces)
 * runs the same tests against another form, e.g. `deno run -A src/main.ts` or a single executable.
 */
export function harnessCommand(): [string, ...string[]] {
  const custom = process.env["ANDROID_MCP_HARNESS_CMD"]?.trim();
  if (custom) {
    const [command, ...rest] = custom.split(/\s+/);
    return [command!, ...rest];
  }
  return [process.execPath, MAIN_JS];
}

export interface SpawnedServer extends Connected {
  pid: number | null;
  stderr(): string;
}

/** `options.cwd`: the server's working directory (default: the test runner's); `runAs`: another uid/gid (root only, via setpriv). */
export async function spawnServe(
  args: string[],
  env: Record<string, string> = {},
  options: { cwd?: string; runAs?: { uid: number; gid: number } } = {},
): Promise<SpawnedServer> {
  const [harness, ...harnessArgs] = harnessCommand();
  const { runAs } = options;
  const [command, ...prefix] = runAs === undefined
    ? [harness, ...harnessArgs]
    : ["setpriv", `--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, "--clear-groups", harness, ...harnessArgs];
  const transport = new StdioClientTransport({
    command,
    args: [...prefix, "serve", ...args],
    env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "", ...env },
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "e2e-test", version: "0" });
  try {
    await client.connect(transport);
  } catch (error) {
    killPid(transport.pid);
    throw new Error(`serve did not start: ${(error as Error).message}\n${stderr}`);
  }
  const pid = transport.pid;
  // As in memory: the client checks every answer's structuredContent against the output schema tools/list gave.
  await client.listTools().catch(() => {}); // a server that stops at once (a refused start) is the test's to see
  return {
    client,
    pid,
    stderr: () => stderr,
    close: async () => {
      await client.close().catch(() => {});
      killPid(pid);
    },
  };
}

function killPid(pid: number | null): void {
  if (pid === null) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** The envelope of a tools/call result (structuredContent), checked against the strict schema (failures
 * too), told as the first text content (src/mcp/response.ts) and with `isError = !ok`. */
export function envelopeOf(result: unknown): Envelope {
  const r = result as { structuredContent?: unknown; content?: { type: string; text?: string }[]; isError?: boolean };
  const text = r.content?.[0];
  if (text?.type !== "text" || text.text === undefined) throw new Error(`No text content in ${JSON.stringify(result)}`);
  const structured = r.structuredContent as Envelope;
  if (text.text !== envelopeText(structured)) {
    throw new Error(`Text content does not tell structuredContent:\n${text.text}\n${JSON.stringify(structured)}`);
  }
  if (r.isError !== !structured.ok) throw new Error(`isError ${r.isError} but ok ${structured.ok}`);
  const checked = EnvelopeSchema.safeParse(structured);
  if (!checked.success) throw new Error(`Not a valid envelope (${checked.error.message}): ${text.text}`);
  return structured;
}
