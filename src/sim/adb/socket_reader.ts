/**
 * Sequential reads from a TCP socket for the adb wire protocol: `read(n)` resolves with exactly n
 * bytes, `skip(n)` discards n bytes without keeping them (streamed installs of many MB), and both
 * reject with SocketClosed when the peer goes away first. What the peer sends ahead of the reads is held up
 * to HIGH_WATER bytes (plus one chunk); beyond that the socket is paused, so a client that streams data the
 * protocol does not ask for yet is slowed by TCP instead of filling the simulator's memory.
 */
import type { Socket } from "node:net";

export class SocketClosed extends Error {
  constructor() {
    super("the client closed the connection");
  }
}

/** Bytes held ahead of the reads before the socket is paused. */
export const HIGH_WATER = 1024 * 1024;

export class SocketReader {
  readonly #socket: Socket;
  #chunks: Buffer[] = [];
  #buffered = 0;
  #closed = false;
  #wake: (() => void) | null = null;

  constructor(socket: Socket) {
    this.#socket = socket;
    socket.on("data", (chunk: Buffer) => {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
      if (this.#buffered > HIGH_WATER) socket.pause();
      this.#notify();
    });
    const close = () => {
      this.#closed = true;
      this.#notify();
    };
    socket.on("end", close);
    socket.on("close", close);
    socket.on("error", close);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Bytes received and not yet read. */
  get buffered(): number {
    return this.#buffered;
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  async #waitFor(n: number): Promise<void> {
    while (this.#buffered < n) {
      if (this.#closed) throw new SocketClosed();
      if (this.#socket.isPaused()) this.#socket.resume(); // a read longer than HIGH_WATER still gets its bytes
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  #take(n: number, keep: boolean): Buffer {
    const parts: Buffer[] = [];
    let need = n;
    while (need > 0) {
      const head = this.#chunks[0]!;
      if (head.length <= need) {
        this.#chunks.shift();
        if (keep) parts.push(head);
        need -= head.length;
      } else {
        if (keep) parts.push(head.subarray(0, need));
        this.#chunks[0] = head.subarray(need);
        need = 0;
      }
    }
    this.#buffered -= n;
    if (this.#buffered <= HIGH_WATER && this.#socket.isPaused()) this.#socket.resume();
    return keep ? Buffer.concat(parts) : Buffer.alloc(0);
  }

  async read(n: number): Promise<Buffer> {
    await this.#waitFor(n);
    return this.#take(n, true);
  }

  /** Discards n bytes as they arrive. */
  async skip(n: number): Promise<void> {
    let left = n;
    while (left > 0) {
      await this.#waitFor(1);
      const step = Math.min(left, this.#buffered);
      this.#take(step, false);
      left -= step;
    }
  }

  /** Resolves when the peer closes (or at once if it has). */
  async untilClosed(): Promise<void> {
    while (!this.#closed) {
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#chunks = [];
      this.#buffered = 0;
      if (this.#socket.isPaused()) this.#socket.resume();
    }
  }
}
