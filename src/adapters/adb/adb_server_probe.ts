/**
 * Asks an adb server its protocol version over a plain socket (`host:version` in the adb wire format), never
 * spawning anything: what `doctor` reports of the server. A live server answers at once (it says nothing to a connection that
 * asks nothing), so its first bytes end the probe, not the timeout.
 */
import type { SocketProbe } from "../../ports/socket_probe.ts";

export type ServerProbe =
  | { kind: "answers"; protocol: number }
  /** `refused`: nothing listens at that port (the others: the host cannot be reached). */
  | { kind: "none"; reason: string; refused: boolean }
  /** Accepts connections but says nothing: a stuck server. */
  | { kind: "silent"; reason: string }
  | { kind: "other"; reason: string };

const VERSION_REQUEST = new TextEncoder().encode("000chost:version");

/** The server's answer to `host:version` (`OKAY0004` + 4 hex digits, 41 for adb 29–35). Never starts one. */
export async function probeAdbServerAt(
  socket: SocketProbe,
  host: string,
  port: number,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<ServerProbe> {
  const answer = await socket.exchange(host, port, VERSION_REQUEST, { ...options, maxBytes: 12 });
  if (answer.kind === "failure") {
    if (answer.reason === "refused") return { kind: "none", reason: "nothing listens there", refused: true };
    if (answer.reason === "timeout") return { kind: "silent", reason: `no answer within ${options.timeoutMs} ms` };
    return { kind: "none", reason: answer.message, refused: false };
  }
  const text = new TextDecoder().decode(answer.bytes);
  const match = /^OKAY[0-9a-fA-F]{4}([0-9a-fA-F]{4})/.exec(text);
  if (match === null) return { kind: "other", reason: `it answered ${JSON.stringify(text.slice(0, 24))}, not adb's OKAY` };
  return { kind: "answers", protocol: parseInt(match[1]!, 16) };
}
