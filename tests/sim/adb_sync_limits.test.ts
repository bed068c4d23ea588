/**
 * The fake adb server's sync service bounds what a client makes it hold, as adbd does: a request whose
 * path length is over 1024 bytes is FAIL "path too long" at once (before, a claimed 2 GB path was
 * buffered as it streamed), a DATA packet over 64 KiB is FAIL, and a push past the device's storage is
 * FAIL "No space left on device" as soon as it passes (before, only after the whole push was held).
 */
import assert from "node:assert/strict";
import { createConnection, type Socket } from "node:net";
import { test } from "node:test";
import { startAdbServer } from "../../src/sim/adb/server.ts";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";

const frame = (s: string) => Buffer.from(s.length.toString(16).padStart(4, "0") + s, "latin1");
const packet = (id: string, n: number, data: Buffer = Buffer.alloc(0)) => {
  const head = Buffer.alloc(8);
  head.write(id, 0, "ascii");
  head.writeUInt32LE(n, 4);
  return Buffer.concat([head, data]);
};

/** A sync connection to the server's one device; resolves with everything received once `until` matches. */
async function syncSession(port: number, send: (socket: Socket) => void, until: RegExp): Promise<string> {
  const socket = createConnection(port, "127.0.0.1");
  let got = "";
  try {
    return await new Promise<string>((resolve, reject) => {
      socket.on("data", (d) => {
        got += d.toString("latin1");
        if (until.test(got)) resolve(got);
      });
      socket.on("error", reject);
      socket.on("close", () => resolve(got));
      socket.write(Buffer.concat([frame("host:tport:any"), frame("sync:")]));
      send(socket);
    });
  } finally {
    socket.destroy();
  }
}

test(
  "sync: a path over 1024 bytes, an oversize DATA packet and a push past the storage are refused as they arrive",
  { timeout: 60_000 },
  async () => {
    const server = await startAdbServer(new ScenarioDevice(structuredClone(resolveScenario("settings"))));
    try {
      const longPath = await syncSession(server.port, (s) => {
        s.write(packet("STA2", 0x7fffffff));
        s.write(Buffer.alloc(4096, 0x61)); // the path never ends: only its length says 2 GB
      }, /FAIL/);
      assert.match(longPath, /FAIL.{4}path too long/s);

      const oversize = await syncSession(server.port, (s) => {
        s.write(packet("SEND", 16, Buffer.from("/sdcard/x.bin,33")));
        s.write(packet("DATA", 0x7fffffff));
      }, /FAIL/);
      assert.match(oversize, /FAIL.{4}oversize data message/s);

      const full = await syncSession(server.port, (s) => {
        s.write(packet("SEND", 16, Buffer.from("/sdcard/y.bin,33")));
        const chunk = packet("DATA", 64 * 1024, Buffer.alloc(64 * 1024, 1));
        for (let i = 0; i < 1100; i++) s.write(chunk); // 68.75 MiB, no DONE: the FAIL must come before the end
      }, /FAIL/);
      assert.match(full, /No space left on device/);
    } finally {
      await server.stop();
    }
  },
);
