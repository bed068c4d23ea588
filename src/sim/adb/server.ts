/**
 * The fake adb server: the real adb client↔server protocol on 127.0.0.1 (port 0 by default) over one
 * or more simulated devices. Host services (version 41, devices[-l], features, tport/transport,
 * get-state, wait-for, forward/killforward/list-forward, kill — acknowledged, never obeyed) and, once
 * a transport is chosen, device services: shell v2 (exit codes, stderr), legacy shell, exec (binary
 * safe, streamed install), sync. The real `adb` 29 works against it through ADB_SERVER_SOCKET.
 */
import { type AnswerDelays, NO_DELAYS } from "../latency.ts";
import { createServer, type Socket } from "node:net";
import type { ScenarioDevice } from "../scenario_device.ts";
import { DeviceShell } from "../shell/device_shell.ts";
import type { Target } from "./device_selection.ts";
import { deviceService } from "./device_services.ts";
import { type HostContext, hostService } from "./host_services.ts";
import { PortForwards } from "./port_forwards.ts";
import { SocketClosed, SocketReader } from "./socket_reader.ts";
import { fail, readRequest } from "./wire.ts";

export { ADB_SERVER_VERSION } from "./host_services.ts";

export interface AdbServerOptions {
  host?: string;
  port?: number;
  /** Device-side TCP ports the sim serves, mapped to loopback ports (e.g. {6790: uia2Port}). */
  devicePorts?: Readonly<Record<number, number>>;
  /** Per device, its own device ports (several devices each with its own UiAutomator2 server); `devicePorts` for the rest. */
  devicePortsOf?: ReadonlyMap<ScenarioDevice, Readonly<Record<number, number>>>;
  /**
   * Device ports served only while an `am instrument -w` runs on the device (the UiAutomator2 server lives in its
   * instrumentation): a forwarded connection before it starts, or after it ended, is closed at once.
   */
  instrumentedPorts?: readonly number[];
  /** Waits before each shell/exec answer (the latency profile); none by default. */
  delays?: AnswerDelays;
}

export interface AdbServer {
  port: number;
  /** `tcp:127.0.0.1:PORT`, the value for ADB_SERVER_SOCKET. */
  socketSpec: string;
  forwards: PortForwards;
  /** Number of `host:kill` requests acknowledged (and ignored). */
  readonly killRequests: number;
  stop(): Promise<void>;
}

export async function startAdbServer(devices: ScenarioDevice | ScenarioDevice[], options: AdbServerOptions = {}): Promise<AdbServer> {
  const list = Array.isArray(devices) ? devices : [devices];
  const shells = new Map(list.map((d) => [d, new DeviceShell(d)]));
  const forwards = new PortForwards();
  const sockets = new Set<Socket>();
  const state = { kills: 0 };
  const context: HostContext = {
    devices: list,
    shells,
    forwards,
    devicePorts: options.devicePorts ?? {},
    devicePortsOf: options.devicePortsOf ?? new Map(),
    instrumentedPorts: options.instrumentedPorts ?? [],
    state,
    delays: options.delays ?? NO_DELAYS,
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    serveConnection(socket, context).catch(() => socket.destroy());
  });
  const host = options.host ?? "127.0.0.1";
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve((server.address() as { port: number }).port));
  });
  return {
    port,
    socketSpec: `tcp:${host}:${port}`,
    forwards,
    get killRequests() {
      return state.kills;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        forwards.close();
        for (const shell of shells.values()) shell.close();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `host:…`, `host-serial:S:…`, `host-transport-id:N:…`, `host-usb:…`, `host-local:…` → target + command. */
function splitHostRequest(request: string): { target: Target; command: string } | null {
  const serial =
    /^host-serial:(.+?):((?:features|get-state|get-serialno|get-devpath|forward|killforward|killforward-all|list-forward|wait-for|reconnect|disconnect)(?:[:-].*)?)$/
      .exec(request);
  if (serial !== null) return { target: { kind: "serial", serial: serial[1]! }, command: serial[2]! };
  const byId = /^host-transport-id:(\d+):(.*)$/.exec(request);
  if (byId !== null) return { target: { kind: "id", id: Number(byId[1]) }, command: byId[2]! };
  const plain = /^host(?:-usb|-local)?:(.*)$/.exec(request);
  if (plain !== null) return { target: { kind: "any" }, command: plain[1]! };
  return null;
}

async function serveConnection(socket: Socket, ctx: HostContext): Promise<void> {
  const reader = new SocketReader(socket);
  try {
    // One host request per connection; tport/transport binds it to a device for one device service.
    const request = await readRequest(reader);
    const host = splitHostRequest(request);
    if (host === null) {
      socket.end(fail(`unknown host service '${request}'`));
      return;
    }
    const bound = await hostService(socket, reader, ctx, host.target, host.command);
    if (bound !== "closed") await deviceService(socket, reader, ctx, bound);
  } catch (error) {
    if (!(error instanceof SocketClosed)) socket.destroy();
  }
}
