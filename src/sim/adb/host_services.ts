/**
 * The adb server's host services (`host:…`): version 41, devices[-l], track-devices, features,
 * tport/transport (binding the socket to a device), get-state/serialno, wait-for, forward,
 * killforward[-all], list-forward, and `kill` — acknowledged and counted, never obeyed.
 * Refusals use the real server's texts (see device_selection.ts).
 */
import type { AnswerDelays } from "../latency.ts";
import type { Socket } from "node:net";
import type { ScenarioDevice } from "../scenario_device.ts";
import type { DeviceShell } from "../shell/device_shell.ts";
import { deviceList, selectDevice, type Target } from "./device_selection.ts";
import type { PortForwards } from "./port_forwards.ts";
import type { SocketReader } from "./socket_reader.ts";
import { fail, lengthPrefixed, OKAY, okayWith, transportId } from "./wire.ts";

export const ADB_SERVER_VERSION = 41;
export const DEFAULT_FEATURES = ["shell_v2", "cmd", "stat_v2"];

export interface HostContext {
  devices: ScenarioDevice[];
  shells: Map<ScenarioDevice, DeviceShell>;
  forwards: PortForwards;
  devicePorts: Readonly<Record<number, number>>;
  /** A device's own device ports, before `devicePorts`. */
  devicePortsOf: ReadonlyMap<ScenarioDevice, Readonly<Record<number, number>>>;
  /** Device ports that answer only while an instrumentation runs (server.ts). */
  instrumentedPorts: readonly number[];
  state: { kills: number };
  /** The latency profile's wait before a device service answers (latency.ts). */
  delays: AnswerDelays;
}

/** The loopback port behind a device port, or undefined when nothing listens there on the device now. */
function servedPort(ctx: HostContext, device: ScenarioDevice, port: number): number | undefined {
  if (ctx.instrumentedPorts.includes(port) && (ctx.shells.get(device)?.instrumentations.count ?? 0) === 0) return undefined;
  return (ctx.devicePortsOf.get(device) ?? ctx.devicePorts)[port];
}

function featuresOf(device: ScenarioDevice): string {
  return (device.android.adbFeatures ?? DEFAULT_FEATURES).join(",");
}

/** Answers a host request; returns a device when the socket is now bound to it (tport/transport). */
export async function hostService(
  socket: Socket,
  reader: SocketReader,
  ctx: HostContext,
  target: Target,
  command: string,
): Promise<ScenarioDevice | "closed"> {
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
      : how.startsWith("id:")
      ? { kind: "id", id: Number(how.slice(3)) }
      : { kind: "serial", serial: how };
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

  // Like the real server (acquire_one_transport without accept_any_state): get-state of an offline
  // or unauthorized device is the same error as any other request.
  const sel = selectDevice(devices, target);
  if ("error" in sel) return reply(fail(sel.error));
  const device = sel.device;
  if (command === "features") return reply(okayWith(featuresOf(device)));
  if (command === "get-state") return reply(okayWith(device.connectionState()));
  if (command === "get-serialno") return reply(okayWith(device.serial));
  if (command === "get-devpath") return reply(okayWith("unknown"));

  const forward = /^forward:(norebind:)?([^;]+);(.+)$/.exec(command);
  if (forward !== null) {
    try {
      const port = await ctx.forwards.add(
        device.serial,
        forward[2]!,
        forward[3]!,
        (p) => servedPort(ctx, device, p),
        forward[1] !== undefined,
      );
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
    return reply(
      ctx.forwards.remove(kill[1]!) ? Buffer.concat([OKAY, OKAY]) : Buffer.concat([OKAY, fail(`listener '${kill[1]}' not found`)]),
    );
  }
  if (command === "killforward-all") {
    ctx.forwards.removeAll(device.serial);
    return reply(Buffer.concat([OKAY, OKAY]));
  }
  return reply(fail(`unknown host service '${command}'`));
}
