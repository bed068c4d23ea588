/**
 * The frames section: raw JSON-RPC lines no SDK client would send, written to `serve --device sim` (the
 * simulated device started inside the server, as a user would run it) over real stdio: random bytes, cut-off
 * JSON, JSON that is not JSON-RPC, bad versions and ids, unknown methods, notifications with garbage, invalid
 * UTF-8, 200,000-deep nesting, lines over the 1 MiB frame limit. Invariants: the server never exits; every
 * frame with a usable id gets exactly one answer (an error or a result) and no stack trace; a health check
 * after every batch answers; stdout carries nothing but JSON-RPC lines.
 */
import fc from "fast-check";
import { makeServeHome } from "../../tests/support/mcp_e2e.ts";
import { type RawAnswer, spawnRawServe } from "../../tests/support/raw_stdio.ts";
import { STACK_TRACE } from "./invariants.ts";
import type { Tally } from "./tally.ts";

export interface FramesOptions {
  frames: number;
  /** How many of them are over the frame limit (each costs a few MB of writing). */
  oversized: number;
  seed: number;
}

interface Frame {
  bytes: string | Uint8Array;
  /** The id an answer must carry, when the frame has a usable one. */
  expectId?: string | number;
  kind: string;
}

let nextId = 0;
const freshId = () => `frame-${++nextId}`;

const request = (method: string, params?: unknown) => ({
  jsonrpc: "2.0",
  id: freshId(),
  method,
  ...(params === undefined ? {} : { params }),
});

const frameArb: fc.Arbitrary<() => Frame> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }).map((text) => () => ({ bytes: text.replaceAll("\n", " "), kind: "random text" })),
  fc.tuple(fc.constantFrom("tools/call", "tools/list", "resources/read", "initialize"), fc.nat()).map(([method, cut]) => () => {
    const line = JSON.stringify(request(method, { name: "app_list", arguments: { filter: "com" } }));
    return { bytes: line.slice(0, cut % line.length), kind: "cut-off JSON" };
  }),
  fc.json({ maxDepth: 3 }).map((json) => () => ({ bytes: json.replaceAll("\n", " "), kind: "JSON, not JSON-RPC" })),
  fc.constantFrom("1.0", 2, null, "2.0 ").map((version) => () => {
    const id = freshId();
    return { bytes: JSON.stringify({ jsonrpc: version, id, method: "tools/list" }), expectId: id, kind: "wrong jsonrpc version" };
  }),
  fc.constantFrom<unknown>({ x: 1 }, [1], true, 1.5, null).map((id) => () => ({
    bytes: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" }),
    kind: "unusable id",
  })),
  fc.constantFrom("tools/execute", "shell", "__proto__", "constructor", "resources/write", "").map((method) => () => {
    const r = request(method);
    return { bytes: JSON.stringify(r), expectId: r.id, kind: "unknown method" };
  }),
  fc.anything({ maxDepth: 2 }).map((params) => () => {
    const r = request("tools/call", params);
    return { bytes: JSON.stringify(r) ?? "", expectId: r.id, kind: "tools/call with any params" };
  }),
  fc.anything({ maxDepth: 2 }).map((params) => () => ({
    bytes: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params }),
    kind: "notification with garbage",
  })),
  fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => () => ({
    bytes: Uint8Array.from(bytes.filter((b) => b !== 0x0a)),
    kind: "bytes",
  })),
  fc.constantFrom(1_000, 200_000).map((depth) => () => {
    const id = freshId();
    return {
      bytes: `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"ui_tap","arguments":{"selector":${"[".repeat(depth)}${
        "]".repeat(depth)
      }}}}`,
      expectId: id,
      kind: "deep nesting",
    };
  }),
);

export async function runFrames(options: FramesOptions, tally: Tally): Promise<void> {
  const started = performance.now();
  const before = { calls: tally.callsMade, inputs: tally.inputsTried };
  const home = makeServeHome();
  const server = await spawnRawServe(["--device", "sim"], home.env);
  const check = (answer: RawAnswer, what: string) => {
    if (answer.error !== undefined && STACK_TRACE.test(answer.error.message)) {
      tally.violation("stack traces", `frames: ${what}: ${answer.error.message}`);
    }
    if (answer.error === undefined && answer.result === undefined) {
      tally.violation("untyped answers", `frames: ${what}: ${JSON.stringify(answer).slice(0, 200)}`);
    }
  };
  try {
    const frames = fc.sample(frameArb, { numRuns: options.frames, seed: options.seed }).map((make) => make());
    for (let i = 0; i < options.oversized; i++) {
      const id = freshId();
      const size = i % 4 === 3 ? 11 * 1024 * 1024 : 1536 * 1024;
      frames.splice(Math.floor((i + 1) * frames.length / (options.oversized + 1)), 0, {
        bytes: JSON.stringify({
          method: "tools/call",
          params: { name: "app_list", arguments: { filter: "a".repeat(size) } },
          jsonrpc: "2.0",
          id,
        }),
        expectId: id,
        kind: "oversized",
      });
    }
    for (const [index, frame] of frames.entries()) {
      if (server.exited()) {
        tally.violation("crashes", `frames: serve exited after ${index} frames (the last: ${frame.kind})\n${server.stderr().slice(-600)}`);
        return;
      }
      tally.inputsTried++;
      tally.callsMade++;
      await server.write(frame.bytes);
      await server.write("\n");
      if (frame.expectId !== undefined) {
        try {
          check(await server.answer((a) => a.id === frame.expectId, 20_000), frame.kind);
        } catch (error) {
          tally.violation(
            server.exited() ? "crashes" : "hangs",
            `frames: no answer to a ${frame.kind} frame: ${(error as Error).message.slice(0, 300)}`,
          );
        }
      }
      if (index % 25 === 24 || index === frames.length - 1) {
        try {
          const health = await server.request(freshId(), "tools/list", undefined, 20_000);
          if (!Array.isArray(health.result?.["tools"])) {
            tally.violation("untyped answers", `frames: health check answered ${JSON.stringify(health).slice(0, 200)}`);
          }
        } catch (error) {
          tally.violation(
            server.exited() ? "crashes" : "hangs",
            `frames: health check after frame ${index}: ${(error as Error).message.slice(0, 300)}`,
          );
        }
      }
    }
    const byId = new Map<unknown, number>();
    for (const a of server.answers) if (a.id !== undefined && a.id !== null) byId.set(a.id, (byId.get(a.id) ?? 0) + 1);
    for (const [id, count] of byId) {
      if (count > 1) tally.violation("untyped answers", `frames: ${count} answers for id ${JSON.stringify(id)}`);
    }
    for (const line of server.strayLines) {
      tally.violation("untyped answers", `frames: stdout carried a line that is not JSON: ${line.slice(0, 120)}`);
    }
    for (const a of server.answers) check(a, "answer");
  } finally {
    await server.close();
    home.remove();
    tally.section("frames", tally.callsMade - before.calls, tally.inputsTried - before.inputs, (performance.now() - started) / 1000);
  }
}
