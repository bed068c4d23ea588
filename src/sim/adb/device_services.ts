/**
 * The device services a bound adb socket carries: `shell,v2,…:` (stdout/stderr/exit packets),
 * legacy `shell:` (raw, exit code lost), `exec:` (raw, binary safe; streamed installs consume their
 * bytes), `sync:`; and `host:forward…` sent on a socket already bound by tport (adb 29 does that).
 */
import type { Socket } from "node:net";
import type { ScenarioDevice } from "../scenario_device.ts";
import type { ShellOutcome } from "../shell/outcome.ts";
import { type HostContext, hostService } from "./host_services.ts";
import type { SocketReader } from "./socket_reader.ts";
import type { AnswerDelays } from "../latency.ts";
import { serveSync } from "./sync_service.ts";
import { fail, OKAY, readRequest, SHELL_STDERR, SHELL_STDOUT, shellExit, shellPackets } from "./wire.ts";

/** Larger streamed installs are consumed without being read (no real APK the harness streams comes near it). */
const APK_READ_LIMIT = 64 * 1024 * 1024;

export async function deviceService(socket: Socket, reader: SocketReader, ctx: HostContext, device: ScenarioDevice): Promise<void> {
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
  const run = async (command: string, mode: "v2" | "raw") => {
    const outcome = shell.run(command);
    await ctx.delays.adb(command, outcome.kind === "exit" ? outcome.stdout.length : 0); // the device's own time
    return runShellService(socket, reader, device, outcome, mode, ctx.delays);
  };
  const v2 = /^shell,v2,([^:]*):(.*)$/s.exec(request);
  if (v2 !== null) return run(v2[2]!, "v2");
  const legacy = /^shell(?:,[^:]*)?:(.*)$/s.exec(request);
  if (legacy !== null) return run(legacy[1]!, "raw");
  const exec = /^exec:(.*)$/s.exec(request);
  if (exec !== null) return run(exec[1]!, "raw");
  if (request === "sync:") {
    socket.write(OKAY);
    return serveSync(device, socket, reader);
  }
  device.log.push({ source: "adb", command: request });
  socket.end(fail(`closed`));
}

async function runShellService(
  socket: Socket,
  reader: SocketReader,
  device: ScenarioDevice,
  outcome: ShellOutcome,
  mode: "v2" | "raw",
  delays: AnswerDelays,
): Promise<void> {
  socket.write(OKAY);
  let dropped = false;
  const stdout = (data: Uint8Array | string) => {
    if (dropped) return;
    // The offline-mid-output fault may cut the stream here: partial stdout, then the connection dies.
    const passed = device.passOutput(typeof data === "string" ? Buffer.from(data, "utf8") : data);
    if (passed.bytes.length > 0) {
      if (mode === "v2") { for (const p of shellPackets(SHELL_STDOUT, passed.bytes)) socket.write(p); }
      else socket.write(passed.bytes);
    }
    if (passed.drop) {
      dropped = true;
      socket.end(); // what was written goes out; no exit status follows
    }
  };
  const finish = (code: number) => {
    if (dropped) return;
    if (mode === "v2") socket.end(shellExit(code));
    else socket.end();
  };
  switch (outcome.kind) {
    case "exit":
      stdout(outcome.stdout);
      if (outcome.stderr !== "" && !dropped) {
        if (mode === "v2") { for (const p of shellPackets(SHELL_STDERR, Buffer.from(outcome.stderr, "utf8"))) socket.write(p); }
        else socket.write(outcome.stderr);
      }
      return finish(outcome.code);
    case "hang":
      await reader.untilClosed();
      return;
    case "install": {
      // The package manager reads the APK's own manifest: the package (and its version) is installed from then on.
      const apk = outcome.bytes <= APK_READ_LIMIT ? await reader.read(outcome.bytes) : (await reader.skip(outcome.bytes), null);
      const manifest = apk === null ? null : device.installApk(apk);
      if (manifest !== null) {
        device.log.push({
          source: "adb",
          command: `installed ${[manifest.packageName, manifest.versionName].filter((w) => w !== "").join(" ")} (${outcome.bytes} bytes)`,
        });
      }
      await delays.install(outcome.bytes); // the bytes over USB, then the package manager's verify and dexopt
      stdout("Success\n");
      return finish(0);
    }
    case "block": {
      if (outcome.started !== undefined) {
        await delays.instrumentation(); // the instrumentation's process starts; its server answers from then on
        outcome.started();
      }
      stdout(outcome.stdout);
      const ended = await Promise.race([outcome.ended, reader.untilClosed().then(() => null)]);
      if (ended === null) return outcome.hangUp?.();
      stdout(ended);
      return finish(0);
    }
  }
}
