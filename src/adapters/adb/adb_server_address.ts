/**
 * Which adb server a harness talks to, as one canonical string, so a device is named by server and
 * serial (the device lock's key). No ADB_SERVER_SOCKET means adb's default `tcp:127.0.0.1:5037`; the
 * local spellings of it (`tcp:5037`, `tcp:localhost:5037`) give the same string; any other socket is
 * kept as given (host lower-cased). Pure.
 */
export const DEFAULT_ADB_SERVER = "tcp:127.0.0.1:5037";

export function adbServerAddress(serverSocket: string | undefined): string {
  if (serverSocket === undefined || serverSocket.trim() === "") return DEFAULT_ADB_SERVER;
  const socket = serverSocket.trim();
  const portOnly = /^tcp:(\d{1,5})$/.exec(socket);
  if (portOnly !== null) return `tcp:127.0.0.1:${Number(portOnly[1])}`;
  const hostPort = /^tcp:(.+):(\d{1,5})$/.exec(socket);
  if (hostPort === null) return socket;
  const host = hostPort[1]!.toLowerCase();
  const local = host === "localhost" || host === "127.0.0.1";
  return `tcp:${local ? "127.0.0.1" : host}:${Number(hostPort[2])}`;
}
