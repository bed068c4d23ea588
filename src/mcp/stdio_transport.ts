/**
 * The MCP stdio transport with bounded frames (newline-delimited JSON-RPC). The SDK's own closes itself when
 * 10 MiB arrive without a newline (one big argument stopped the server) and drops malformed lines silently.
 * Here a line over MAX_FRAME_BYTES is skipped as it streams (only its first and last 256 bytes are kept, to
 * find its id) and answered with -32600 naming the limit; a line that is not JSON gets -32700, JSON that is
 * not a JSON-RPC message -32600 (with its id when it has a usable one). Serving always goes on. Valid messages
 * are handed on exactly as JSON.parse made them (nothing copied or dropped, `__proto__` keys included).
 */
import type { Readable, Writable } from "node:stream";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/shared/transport.d.ts"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** No legitimate request comes near it: the largest argument (typed text) is 2,000 characters. */
export const MAX_FRAME_BYTES = 1024 * 1024;
const KEPT_EDGE_BYTES = 256;
const NEWLINE = 0x0a;

type RequestId = string | number;

export interface BoundedStdioOptions {
  maxFrameBytes?: number;
  /** Told about every refused line, in one sentence for stderr (what it was and what it was answered). */
  onRefused?: (sentence: string) => void;
}

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #max: number;
  readonly #onRefused: (reason: string) => void;
  #parts: Buffer[] = [];
  #size = 0;
  /** Set while an oversized line streams by: its first bytes, its last bytes, its length. */
  #skipping: { head: Buffer; tail: Buffer; bytes: number } | null = null;
  #started = false;

  constructor(stdin: Readable, stdout: Writable, options: BoundedStdioOptions = {}) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#max = options.maxFrameBytes ?? MAX_FRAME_BYTES;
    this.#onRefused = options.onRefused ?? (() => {});
  }

  start(): Promise<void> {
    if (this.#started) throw new Error("BoundedStdioTransport already started");
    this.#started = true;
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("error", this.#onStreamError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(JSON.stringify(message) + "\n")) resolve();
      else this.#stdout.once("drain", resolve);
    });
  }

  close(): Promise<void> {
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("error", this.#onStreamError);
    if (this.#stdin.listenerCount("data") === 0) this.#stdin.pause();
    this.#parts = [];
    this.#skipping = null;
    this.onclose?.();
    return Promise.resolve();
  }

  readonly #onStreamError = (error: Error) => this.onerror?.(error);

  readonly #onData = (chunk: Buffer | string) => {
    let data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    while (data.length > 0) {
      const newline = data.indexOf(NEWLINE);
      const piece = newline === -1 ? data : data.subarray(0, newline);
      this.#take(piece);
      if (newline === -1) return;
      this.#endLine();
      data = data.subarray(newline + 1);
    }
  };

  #take(piece: Buffer): void {
    if (this.#skipping !== null) {
      this.#skipping.bytes += piece.length;
      this.#skipping.tail = lastBytes(Buffer.concat([this.#skipping.tail, piece]));
      return;
    }
    if (this.#size + piece.length <= this.#max) {
      if (piece.length > 0) this.#parts.push(Buffer.from(piece)); // copied: the chunk's buffer may be reused
      this.#size += piece.length;
      return;
    }
    const sofar = Buffer.concat([...this.#parts, piece]);
    this.#skipping = { head: Buffer.from(sofar.subarray(0, KEPT_EDGE_BYTES)), tail: lastBytes(sofar), bytes: sofar.length };
    this.#parts = [];
    this.#size = 0;
  }

  #endLine(): void {
    const skipped = this.#skipping;
    if (skipped !== null) {
      this.#skipping = null;
      const id = idAtEdges(skipped.head.toString("latin1"), skipped.tail.toString("latin1"));
      const megabytes = (this.#max / (1024 * 1024)).toFixed(this.#max % (1024 * 1024) === 0 ? 0 : 1);
      this.#refuse(
        ErrorCode.InvalidRequest,
        `Invalid Request: the message is ${skipped.bytes} bytes, over the ${megabytes} MiB limit of one frame; no argument of this server needs more than a few kilobytes.`,
        id,
        `a line on stdin of ${skipped.bytes} bytes, over the ${megabytes} MiB limit of one frame`,
        { limit_bytes: this.#max, received_bytes: skipped.bytes },
      );
      return;
    }
    const line = Buffer.concat(this.#parts).toString("utf8").replace(/\r$/, "");
    this.#parts = [];
    this.#size = 0;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const why = (error as Error).message.split("\n")[0]!.slice(0, 160);
      this.#refuse(
        ErrorCode.ParseError,
        "Parse error: the line is not JSON; send one JSON-RPC 2.0 message per line.",
        undefined,
        `a line on stdin that is not JSON (${why})`,
      );
      return;
    }
    if (!JSONRPCMessageSchema.safeParse(value).success) {
      this.#refuse(
        ErrorCode.InvalidRequest,
        'Invalid Request: not a JSON-RPC 2.0 message (an object with jsonrpc "2.0" and a method, or a result or error with the id of a request).',
        usableId(value),
        "a line on stdin that is JSON but not a JSON-RPC message",
      );
      return;
    }
    this.onmessage?.(value as JSONRPCMessage);
  }

  /** Answers the line with a JSON-RPC error (with its id when it has one) and tells onRefused what it was. */
  #refuse(code: number, message: string, id: RequestId | undefined, what: string, data?: Record<string, unknown>): void {
    const answered = `JSON-RPC ${code}${id === undefined ? "" : ` for id ${JSON.stringify(id).slice(0, 80)}`}`;
    this.#onRefused(`answered ${what} with ${answered}; MCP clients send one JSON-RPC message per line.`);
    const error = data === undefined ? { code, message } : { code, message, data };
    void this.send((id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error }) as JSONRPCMessage);
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return Buffer.from(buffer.subarray(Math.max(0, buffer.length - KEPT_EDGE_BYTES)));
}

const ID_VALUE = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,100}")`;
/** `{"jsonrpc":"2.0","id":…` or `{"id":…` at the very start: a top-level key. */
const ID_AT_HEAD = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`);
/** `…,"id":3}` at the very end: the last top-level key (a nested one would be followed by more braces). */
const ID_AT_TAIL = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID_VALUE}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*\r?$`);

/** The id of an oversized request, from the only places a top-level key can be told apart: its edges. */
function idAtEdges(head: string, tail: string): RequestId | undefined {
  const found = ID_AT_HEAD.exec(head)?.[1] ?? ID_AT_TAIL.exec(tail)?.[1];
  if (found === undefined) return undefined;
  return found.startsWith('"') ? (JSON.parse(found) as string) : Number(found);
}

function usableId(value: unknown): RequestId | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const id = (value as Record<string, unknown>)["id"];
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : undefined;
}
