/**
 * `adb forward tcp:LOCAL tcp:REMOTE` as the real adb server does it: listen on 127.0.0.1:LOCAL
 * (0 = any free port, reported back) and tunnel each connection to the device-side port, which for
 * the sim is a loopback port given by the caller (e.g. the UiAutomator2 server for tcp:6790).
 * A device port nobody serves closes the connection at once, like a refused connect on the device.
 * Refusals are the real server's texts: `cannot bind listener: bad port number '70000'` / `: Permission denied`.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";

/** The C library's text for a failed bind, which is what the real server reports (never Node's message). */
function strerror(code: string | undefined): string {
  switch (code) {
    case "EADDRINUSE":
      return "Address already in use";
    case "EACCES":
      return "Permission denied";
    case "EADDRNOTAVAIL":
      return "Cannot assign requested address";
    default:
      return "Operation not permitted";
  }
}

export interface ForwardEntry {
  serial: string;
  local: string;
  remote: string;
  server: Server;
}

export class PortForwards {
  readonly #entries = new Map<string, ForwardEntry>();
  readonly #sockets = new Set<Socket>();

  list(): ForwardEntry[] {
    return [...this.#entries.values()];
  }

  /** Starts listening; resolves with the bound local port or rejects with adb's error text. */
  async add(
    serial: string,
    local: string,
    remote: string,
    devicePort: (port: number) => number | undefined,
    noRebind: boolean,
  ): Promise<number> {
    const localPort = /^tcp:(\d+)$/.exec(local);
    const remotePort = /^tcp:(\d+)$/.exec(remote);
    if (localPort === null) throw new Error(`cannot bind listener: unsupported local spec '${local}'`);
    if (Number(localPort[1]) > 65535) throw new Error(`cannot bind listener: bad port number '${Number(localPort[1])}'`);
    if (remotePort === null) throw new Error(`unsupported remote spec '${remote}'`);
    const existing = this.#entries.get(local);
    if (existing !== undefined) {
      if (noRebind) throw new Error("cannot rebind existing socket");
      existing.remote = remote;
      existing.serial = serial;
      return Number(localPort[1]);
    }
    // deno-lint-ignore prefer-const -- the listener callback reads it before the bind below assigns it
    let entry: ForwardEntry | undefined;
    const server = createServer((client) => {
      const remoteNow = /^tcp:(\d+)$/.exec(entry?.remote ?? remote);
      this.#tunnel(client, remoteNow === null ? undefined : devicePort(Number(remoteNow[1])));
    });
    const port = await new Promise<number>((resolve, reject) => {
      server.once("error", (e: NodeJS.ErrnoException) => reject(new Error(`cannot bind listener: ${strerror(e.code)}`)));
      server.listen(Number(localPort[1]), "127.0.0.1", () => resolve((server.address() as { port: number }).port));
    });
    entry = { serial, local: `tcp:${port}`, remote, server };
    this.#entries.set(entry.local, entry);
    return port;
  }

  remove(local: string): boolean {
    const entry = this.#entries.get(local);
    if (entry === undefined) return false;
    entry.server.close();
    this.#entries.delete(local);
    return true;
  }

  removeAll(serial?: string): void {
    for (const e of this.list()) if (serial === undefined || e.serial === serial) this.remove(e.local);
  }

  close(): void {
    this.removeAll();
    for (const s of this.#sockets) s.destroy();
  }

  #tunnel(client: Socket, target: number | undefined): void {
    this.#sockets.add(client);
    client.on("close", () => this.#sockets.delete(client));
    if (target === undefined) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: "127.0.0.1", port: target });
    this.#sockets.add(upstream);
    upstream.on("close", () => {
      this.#sockets.delete(upstream);
      client.destroy();
    });
    client.on("close", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
