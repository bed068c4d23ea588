/**
 * The simulated adb server's socket reader holds at most about HIGH_WATER bytes that no read asked for yet
 * (a client streaming ahead is slowed by TCP, not buffered whole), and still delivers every byte in order,
 * also to a read longer than HIGH_WATER.
 */
import assert from "node:assert/strict";
import { createConnection, createServer, type Socket } from "node:net";
import { test } from "node:test";
import { HIGH_WATER, SocketReader } from "../../src/sim/adb/socket_reader.ts";

async function pair(): Promise<{ reader: SocketReader; client: Socket; close(): void }> {
  let accepted!: (s: Socket) => void;
  const serverSide = new Promise<Socket>((resolve) => (accepted = resolve));
  const server = createServer((s) => accepted(s));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const client = await new Promise<Socket>((resolve, reject) => {
    const s: Socket = createConnection({ port, host: "127.0.0.1" }, () => resolve(s));
    s.once("error", reject);
  });
  const socket = await serverSide;
  return {
    reader: new SocketReader(socket),
    client,
    close: () => {
      client.destroy();
      socket.destroy();
      server.close();
    },
  };
}

function pattern(n: number): Buffer {
  const bytes = Buffer.alloc(n); // filled in place: an Array of 32 M numbers cost seconds of CPU
  for (let i = 0; i < n; i++) bytes[i] = i % 251;
  return bytes;
}

test("a client that streams 32 MB ahead of the reads is held at the high-water mark, and every byte still arrives in order", async () => {
  const { reader, client, close } = await pair();
  try {
    const total = 32 * 1024 * 1024;
    const data = pattern(total);
    client.write(data);
    await new Promise((resolve) => setTimeout(resolve, 300)); // let TCP deliver what it will
    assert.ok(reader.buffered <= HIGH_WATER + 256 * 1024, `held ${reader.buffered} bytes ahead of the reads`);
    const head = await reader.read(4);
    assert.deepEqual([...head], [0, 1, 2, 3]);
    const long = await reader.read(HIGH_WATER * 3); // longer than the mark: resumes until it has them
    assert.ok(long.equals(data.subarray(4, 4 + HIGH_WATER * 3)));
    await reader.skip(total - 4 - HIGH_WATER * 3 - 10);
    assert.ok((await reader.read(10)).equals(data.subarray(total - 10)));
  } finally {
    close();
  }
});
