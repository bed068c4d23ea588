/**
 * The real SocketProbe over node:net: connects, writes the request, collects the reply until the peer
 * closes or `maxBytes` arrived, and always destroys the socket. The deadline and the caller's signal end
 * it as "timeout" / "aborted"; ECONNREFUSED is "refused"; any other socket error "unreachable".
 */
import { connect } from "node:net";
import type { SocketAnswer, SocketProbe } from "../ports/socket_probe.ts";

export function createTcpSocketProbe(): SocketProbe {
  return {
    exchange: (host, port, request, options) =>
      new Promise<SocketAnswer>((resolve) => {
        const chunks: Buffer[] = [];
        let received = 0;
        let done = false;
        const socket = connect({ host, port });
        const finish = (answer: SocketAnswer) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", onAbort);
          socket.destroy();
          resolve(answer);
        };
        const reply = () => finish({ kind: "reply", bytes: new Uint8Array(Buffer.concat(chunks)) });
        const onAbort = () => finish({ kind: "failure", reason: "aborted", message: "cancelled" });
        const timer = setTimeout(
          () => finish({ kind: "failure", reason: "timeout", message: `no answer within ${options.timeoutMs} ms` }),
          options.timeoutMs,
        );
        if (options.signal?.aborted) onAbort();
        else options.signal?.addEventListener("abort", onAbort, { once: true });
        socket.on("connect", () => socket.write(request));
        socket.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          received += chunk.length;
          if (received >= options.maxBytes) reply();
        });
        socket.on("end", reply);
        socket.on("close", reply);
        socket.on("error", (error: NodeJS.ErrnoException) =>
          finish({
            kind: "failure",
            reason: error.code === "ECONNREFUSED" ? "refused" : "unreachable",
            message: error.code ?? error.message,
          }));
      }),
  };
}
