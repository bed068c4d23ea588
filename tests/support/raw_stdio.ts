/**
 * A raw JSON-RPC line client of the compiled `serve` over real stdio, for frames no SDK client would send
 * (malformed JSON, oversized lines, wrong shapes): write bytes, read answers by id. The child is killed by its
 * PID in `close()` (also after a failure). Used by the transport tests and the campaign.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { harnessCommand } from "./mcp_client.ts";

export interface RawAnswer {
  jsonrpc: "2.0";
  id?: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface RawServer {
  child: ChildProcessWithoutNullStreams;
  /** Writes bytes as they are (add the newline yourself); resolves when the pipe took them. */
  write(bytes: string | Uint8Array): Promise<void>;
  /** Sends one request line with this id and waits for its answer. */
  request(id: number | string, method: string, params?: unknown, timeoutMs?: number): Promise<RawAnswer>;
  /** The next answer matching `predicate` (already received or still to come). */
  answer(predicate: (a: RawAnswer) => boolean, timeoutMs?: number): Promise<RawAnswer>;
  /** Every answer received so far, in order. */
  readonly answers: RawAnswer[];
  /** Lines on stdout that were not JSON (must stay empty: stdout belongs to the protocol). */
  readonly strayLines: string[];
  stderr(): string;
  exited(): boolean;
  close(): Promise<void>;
}

export async function spawnRawServe(args: string[], env: Record<string, string>): Promise<RawServer> {
  const [command, ...prefix] = harnessCommand();
  const child = spawn(command, [...prefix, "serve", ...args], { env: { PATH: process.env["PATH"] ?? "", ...env }, stdio: "pipe" });
  const answers: RawAnswer[] = [];
  const strayLines: string[] = [];
  const waiters = new Set<() => void>();
  let stderr = "";
  let pending = "";
  let exited = false;
  child.on("exit", () => {
    exited = true;
    for (const wake of waiters) wake();
  });
  child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString("utf8")));
  child.stdin.on("error", () => {});
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    let newline: number;
    while ((newline = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      try {
        answers.push(JSON.parse(line) as RawAnswer);
      } catch {
        strayLines.push(line);
      }
    }
    for (const wake of waiters) wake();
  });
  const write = (bytes: string | Uint8Array) =>
    new Promise<void>((resolve, reject) => child.stdin.write(bytes, (error) => (error ? reject(error) : resolve())));
  const answer = (predicate: (a: RawAnswer) => boolean, timeoutMs = 10_000) =>
    new Promise<RawAnswer>((resolve, reject) => {
      const check = () => {
        const found = answers.find(predicate);
        if (found !== undefined) {
          finish();
          resolve(found);
        } else if (exited) {
          finish();
          reject(new Error(`serve exited before answering; stderr:\n${stderr.slice(-2000)}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no answer within ${timeoutMs} ms; stderr:\n${stderr.slice(-2000)}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  const server: RawServer = {
    child,
    write,
    answer,
    answers,
    strayLines,
    async request(id, method, params, timeoutMs) {
      await write(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }) + "\n");
      return answer((a) => a.id === id, timeoutMs);
    },
    stderr: () => stderr,
    exited: () => exited,
    async close() {
      if (!exited) child.kill("SIGKILL");
      await new Promise((r) => (exited ? r(null) : child.once("exit", r)));
    },
  };
  const init = await server.request("init", "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw-test", version: "0" },
  }, 20_000);
  if (init.error !== undefined) throw new Error(`initialize failed: ${JSON.stringify(init.error)}`);
  await write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  return server;
}
