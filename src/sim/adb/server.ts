/**
 * The fake adb server: the real adb client↔server protocol on 127.0.0.1 (port 0 by default) over one
 * or more simulated devices. Host services (version 41, devices[-l], features, tport/transport,
 * get-state, wait-for, forward/killforward/list-forward, kill — acknowledged, never obeyed) and, once
 * a transport is chosen, device services: shell v2 (exit codes, stderr), legacy shell, exec (binary
 * safe, streamed install), sync. The real `adb` 29 works against it through ADB_SERVER_SOCKET.
 */
import { createServer, type Socket } from "node:net";
import type { ScenarioDevice } from "../scenario_device.ts";
import { DeviceShell } from "../shell/device_shell.ts";
import type { ShellOutcome } from "../shell/outcome.ts";
import { deviceList, selectDevice, type Target } from "./device_selection.ts";
import { PortForwards } from "./port_forwards.ts";
import { SocketClosed, SocketReader } from "./socket_reader.ts";
import { serveSync } from "./sync_service.ts";
import {
  fail, lengthPrefixed, OKAY, okayWith, readRequest, SHELL_STDERR, SHELL_STDOUT, shellExit, shellPackets, transportId,
} from "./wire.ts";

export const ADB_SERVER_VERSION = 41;
const DEFAULT_FEATURES = ["shell_v2", "cmd", "stat_v2"];

export interface AdbServerOptions {
  host?: string;
  port?: number;
  /** Device-side TCP ports the sim serves, mapped to loopback ports (e.g. {6790: uia2Port}). */
  devicePorts?: Readonly<Record<number, number>>;
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
  const context: Context = { devices: list, shells, forwards, devicePorts: options.devicePorts ?? {}, state };
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
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

interface Context {
  devices: ScenarioDevice[];
  shells: Map<ScenarioDevice, DeviceShell>;
  forwards: PortForwards;
  devicePorts: Readonly<Record<number, number>>;
  state: { kills: number };
}

function featuresOf(device: ScenarioDevice): string {
  return (device.android.adbFeatures ?? DEFAULT_FEATURES).join(",");
}

/** `host:…`, `host-serial:S:…`, `host-transport-id:N:…`, `host-usb:…`, `host-local:…` → target + command. */
function splitHostRequest(request: string): { target: Target; command: string } | null {
  const serial = /^host-serial:(.+?):((?:features|get-state|get-serialno|get-devpath|forward|killforward|killforward-all|list-forward|wait-for|reconnect|disconnect)(?:[:-].*)?)$/.exec(request);
  if (serial !== null) return { target: { kind: "serial", serial: serial[1]! }, command: serial[2]! };
  const byId = /^host-transport-id:(\d+):(.*)$/.exec(request);
  if (byId !== null) return { target: { kind: "id", id: Number(byId[1]) }, command: byId[2]! };
  const plain = /^host(?:-usb|-local)?:(.*)$/.exec(request);
  if (plain !== null) return { target: { kind: "any" }, command: plain[1]! };
  return null;
}

async function serveConnection(socket: Socket, ctx: Context): Promise<void> {
  const reader = new SocketReader(socket);
  try {
    for (;;) {
      const request = await readRequest(reader);
      const host = splitHostRequest(request);
      if (host === null) {
        socket.end(fail(`unknown host service '${request}'`));
        return;
      }
      const bound = await hostService(socket, reader, ctx, host.target, host.command);
      if (bound === "closed") return;
      if (bound !== "continue") {
        await deviceService(socket, reader, ctx, bound);
        return;
      }
    }
  } catch (error) {
    if (!(error instanceof SocketClosed)) socket.destroy();
  }
}

/** Answers a host request; returns a device when the socket is now bound to it (tport/transport). */
async function hostService(
  socket: Socket,
  reader: SocketReader,
  ctx: Context,
  target: Target,
  command: string,
): Promise<ScenarioDevice | "closed" | "continue"> {
  const { devices } = ctx;
  const reply = (bytes: Buffer): "closed" => {
    socket.end(bytes);
    return "closed";
  };
  if (command === "version") return reply(okayWith(ADB_SERVER_VERSION.toString(16).padStart(4, "0")));
  if (command === "kill") {
    ctx.state.kills += 1;
    return reply(OKAY);
  }
  if (command === "devices" || command === "devices-l") return reply(okayWith(deviceList(devices, command === "devices-l")));
  if (command === "track-devices" || command === "track-devices-l") {
    socket.write(Buffer.concat([OKAY, lengthPrefixed(deviceList(devices, command.endsWith("-l")))]));
    await reader.untilClosed();
    return "closed";
  }
  if (command === "host-features") return reply(okayWith(DEFAULT_FEATURES.join(",")));
  if (command === "list-forward") {
    return reply(okayWith(ctx.forwards.list().map((f) => `${f.serial} ${f.local} ${f.remote}\n`).join("")));
  }
  if (command === "reconnect-offline") return reply(okayWith("reconnecting 0 offline devices\n"));

  const tport = /^(tport|transport)(?::serial:|:|-)?(.*)$/.exec(command);
  if (tport !== null && (command.startsWith("tport:") || command.startsWith("transport"))) {
    const how = tport[2]!;
    const pick: Target = how === "any" || how === "usb" || how === "local" || how === ""
      ? { kind: "any" }
      : how.startsWith("id:") ? { kind: "id", id: Number(how.slice(3)) } : { kind: "serial", serial: how };
    const sel = selectDevice(devices, pick);
    if ("error" in sel) return reply(fail(sel.error));
    socket.write(tport[1] === "tport" ? Buffer.concat([OKAY, transportId(sel.id)]) : OKAY);
    return sel.device;
  }

  const waitFor = /^wait-for-(\w+)-(\w+)$/.exec(command);
  if (waitFor !== null) {
    const wanted = waitFor[2] === "any" ? null : waitFor[2];
    for (;;) {
      const sel = selectDevice(devices, target, true);
      if (!("error" in sel) && (wanted === null || sel.device.connectionState() === wanted)) return reply(Buffer.concat([OKAY, OKAY]));
      if (reader.closed) return "closed";
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const accept = command === "get-state";
  const sel = selectDevice(devices, target, accept);
  if ("error" in sel) return reply(fail(sel.error));
  const device = sel.device;
  if (command === "features") return reply(okayWith(featuresOf(device)));
  if (command === "get-state") return reply(okayWith(device.connectionState()));
  if (command === "get-serialno") return reply(okayWith(device.serial));
  if (command === "get-devpath") return reply(okayWith("unknown"));

  const forward = /^forward:(norebind:)?([^;]+);(.+)$/.exec(command);
  if (forward !== null) {
    try {
      const port = await ctx.forwards.add(device.serial, forward[2]!, forward[3]!, (p) => ctx.devicePorts[p], forward[1] !== undefined);
      device.log.push({ source: "adb", command: `forward ${forward[2]} ${forward[3]}` });
      const resolved = forward[2] === "tcp:0" ? lengthPrefixed(String(port)) : Buffer.alloc(0);
      return reply(Buffer.concat([OKAY, OKAY, resolved]));
    } catch (error) {
      return reply(Buffer.concat([OKAY, fail((error as Error).message)]));
    }
  }
  const kill = /^killforward:(.+)$/.exec(command);
  if (kill !== null) {
    device.log.push({ source: "adb", command: `forward --remove ${kill[1]}` });
    return reply(ctx.forwards.remove(kill[1]!) ? Buffer.concat([OKAY, OKAY]) : Buffer.concat([OKAY, fail(`listener '${kill[1]}' not found`)]));
  }
  if (command === "killforward-all") {
    ctx.forwards.removeAll(device.serial);
    return reply(Buffer.concat([OKAY, OKAY]));
  }
  return reply(fail(`unknown host service '${command}'`));
}

async function deviceService(socket: Socket, reader: SocketReader, ctx: Context, device: ScenarioDevice): Promise<void> {
  const request = await readRequest(reader);
  if (request.startsWith("host:")) {
    // adb 29 sends `host:forward:…` / `host:killforward:…` on a socket already bound by tport.
    await hostService(socket, reader, ctx, { kind: "serial", serial: device.serial }, request.slice("host:".length));
    return;
  }
  if (device.countServiceRequest()) {
    // The device drops off the bus mid-call: the connection dies before the service answers.
    socket.destroy();
    return;
  }
  const shell = ctx.shells.get(device)!;
  const v2 = /^shell,v2,([^:]*):(.*)$/s.exec(request);
  if (v2 !== null) return runShellService(socket, reader, shell.run(v2[2]!), "v2");
  const legacy = /^shell(?:,[^:]*)?:(.*)$/s.exec(request);
  if (legacy !== null) return runShellService(socket, reader, shell.run(legacy[1]!), "raw");
  const exec = /^exec:(.*)$/s.exec(request);
  if (exec !== null) return runShellService(socket, reader, shell.run(exec[1]!), "raw");
  if (request === "sync:") {
    socket.write(OKAY);
    return serveSync(device, socket, reader);
  }
  device.log.push({ source: "adb", command: request });
  socket.end(fail(`closed`));
}

async function runShellService(socket: Socket, reader: SocketReader, outcome: ShellOutcome, mode: "v2" | "raw"): Promise<void> {
  socket.write(OKAY);
  const stdout = (data: Uint8Array | string) => {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    if (bytes.length === 0) return;
    if (mode === "v2") for (const p of shellPackets(SHELL_STDOUT, bytes)) socket.write(p);
    else socket.write(bytes);
  };
  const finish = (code: number) => {
    if (mode === "v2") socket.end(shellExit(code));
    else socket.end();
  };
  switch (outcome.kind) {
    case "exit":
      stdout(outcome.stdout);
      if (outcome.stderr !== "") {
        if (mode === "v2") for (const p of shellPackets(SHELL_STDERR, Buffer.from(outcome.stderr, "utf8"))) socket.write(p);
        else socket.write(outcome.stderr);
      }
      return finish(outcome.code);
    case "hang":
      await reader.untilClosed();
      return;
    case "install":
      await reader.skip(outcome.bytes);
      stdout("Success\n");
      return finish(0);
    case "block": {
      stdout(outcome.stdout);
      const ended = await Promise.race([outcome.ended, reader.untilClosed().then(() => null)]);
      if (ended === null) return;
      stdout(ended);
      return finish(0);
    }
  }
}
