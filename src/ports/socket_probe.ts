/**
 * Port: a raw TCP exchange — connect, send bytes, read until the peer closes or `maxBytes` arrived,
 * within a deadline — answered as data, never thrown. `doctor` asks an adb server `host:version` this
 * way, because running `adb` to find out would start a daemon when none runs.
 */
export type SocketAnswer =
  | { kind: "reply"; bytes: Uint8Array }
  | { kind: "failure"; reason: "refused" | "timeout" | "aborted" | "unreachable"; message: string };

export interface SocketProbe {
  exchange(
    host: string,
    port: number,
    request: Uint8Array,
    options: { timeoutMs: number; signal?: AbortSignal; maxBytes: number },
  ): Promise<SocketAnswer>;
}
