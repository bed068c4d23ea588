/**
 * Which adb server a harness talks to, as one canonical string, so a device is named by server and serial
 * (the device lock's key) and two processes that reach the same server always meet. No ADB_SERVER_SOCKET
 * means adb's default `tcp:127.0.0.1:5037`. Every spelling of this machine is `127.0.0.1`: `localhost`
 * (any case, trailing dot, `*.localhost`), 127/8 in any inet_aton form (`127.1`, `0x7f.1`, `2130706433`),
 * `0.0.0.0`, `::1`, `::`, `::ffff:127.x.x.x`, and the names and addresses in `localHosts` (this machine's
 * host name and interface addresses). Other hosts are kept canonical (lower case, IPv6 compressed). Pure.
 */
export const DEFAULT_ADB_SERVER = "tcp:127.0.0.1:5037";

const LOOPBACK = "127.0.0.1";

export function adbServerAddress(serverSocket: string | undefined, localHosts: readonly string[] = []): string {
  if (serverSocket === undefined || serverSocket.trim() === "") return DEFAULT_ADB_SERVER;
  const socket = serverSocket.trim();
  const portOnly = /^tcp:(\d{1,5})$/.exec(socket);
  if (portOnly !== null) return `tcp:${LOOPBACK}:${Number(portOnly[1])}`;
  const hostPort = /^tcp:(.+):(\d{1,5})$/.exec(socket);
  if (hostPort === null) return socket;
  const host = canonicalHost(hostPort[1]!);
  const local = isThisMachine(host) || localHosts.some((name) => canonicalHost(name) === host);
  return `tcp:${local ? LOOPBACK : host}:${Number(hostPort[2])}`;
}

/** The WHATWG URL host form: IPv4 numbers in any base to dotted decimal, IPv6 compressed in brackets, names lower case. */
export function canonicalHost(raw: string): string {
  const bare = raw.trim();
  const bracketed = bare.includes(":") && !bare.startsWith("[") ? `[${bare}]` : bare;
  try {
    return new URL(`http://${bracketed}/`).hostname;
  } catch {
    return bracketed.toLowerCase();
  }
}

function isThisMachine(host: string): boolean {
  const name = host.replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(host) || host === "0.0.0.0") return true;
  if (host === "[::1]" || host === "[::]") return true;
  return /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host) || host === "[::ffff:0:0]";
}
