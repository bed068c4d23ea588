/**
 * Loopback TCP servers for doctor tests, on port 0, closed after the test: one that answers every
 * connection with fixed bytes and closes (an adb server of another version, or not adb at all), and
 * one that accepts and never says anything (a hung server), and a tiny HTTP server with a fixed answer.
 */
import { createServer as createHttpServer } from "node:http";
import { connect, createServer, type Socket } from "node:net";
import type { TestContext } from "node:test";

export async function tcpServer(t: TestContext, answer: string | null): Promise<{ port: number; connections: () => number }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    if (answer !== null) socket.once("data", () => socket.end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { port: address.port, connections: () => connections };
}

/** Whether something accepts connections on the loopback port right now. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect({ host: "127.0.0.1", port });
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}

/** A loopback HTTP server answering every request with this status and JSON/text body; closed after the test. */
export async function httpServer(t: TestContext, status: number, body: string): Promise<string> {
  const server = createHttpServer((_request, response) => {
    response.writeHead(status, { "content-type": body.startsWith("{") ? "application/json" : "text/plain" });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return `http://127.0.0.1:${address.port}`;
}
