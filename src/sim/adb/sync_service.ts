/**
 * The `sync:` service over the device's small file system (`device.files`): STAT (v1, 16 bytes),
 * STA2/LST2 (v2, 72 bytes, error 2 = ENOENT), LIST (v1 dents), RECV (DATA ≤64 KiB … DONE, or FAIL),
 * SEND (DATA … DONE → OKAY) and QUIT. Directories are the parents of stored files plus /sdcard.
 */
import type { Socket } from "node:net";
import type { ScenarioDevice } from "../scenario_device.ts";
import type { SocketReader } from "./socket_reader.ts";
import { syncPacket } from "./wire.ts";

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const MAX_DATA = 64 * 1024;
const ENOENT = 2;

interface Entry {
  mode: number;
  size: number;
}

function lookup(device: ScenarioDevice, rawPath: string): Entry | null {
  const path = rawPath.replace(/\/+$/, "") || "/";
  const file = device.files.get(path);
  if (file !== undefined) return { mode: S_IFREG | 0o660, size: file.length };
  const isDir = ["/", "/sdcard", "/data/local/tmp", "/storage/emulated/0"].includes(path) ||
    [...device.files.keys()].some((k) => k.startsWith(path + "/"));
  return isDir ? { mode: S_IFDIR | 0o771, size: 3452 } : null;
}

function stat2(id: string, entry: Entry | null): Buffer {
  const b = Buffer.alloc(72);
  b.write(id, 0, "ascii");
  const now = BigInt(Math.floor(Date.now() / 1000));
  if (entry === null) {
    b.writeUInt32LE(ENOENT, 4);
    return b;
  }
  b.writeUInt32LE(0, 4); // error
  b.writeBigUInt64LE(64773n, 8); // dev
  b.writeBigUInt64LE(131073n, 16); // ino
  b.writeUInt32LE(entry.mode, 24);
  b.writeUInt32LE(1, 28); // nlink
  b.writeUInt32LE(0, 32); // uid root
  b.writeUInt32LE(9997, 36); // gid everybody
  b.writeBigUInt64LE(BigInt(entry.size), 40);
  b.writeBigInt64LE(now, 48);
  b.writeBigInt64LE(now, 56);
  b.writeBigInt64LE(now, 64);
  return b;
}

function stat1(entry: Entry | null): Buffer {
  const b = Buffer.alloc(16);
  b.write("STAT", 0, "ascii");
  if (entry !== null) {
    b.writeUInt32LE(entry.mode, 4);
    b.writeUInt32LE(entry.size, 8);
    b.writeUInt32LE(Math.floor(Date.now() / 1000), 12);
  }
  return b;
}

function dents(device: ScenarioDevice, dir: string): Buffer[] {
  const prefix = dir.replace(/\/+$/, "") + "/";
  const names = new Set<string>();
  for (const key of device.files.keys()) if (key.startsWith(prefix)) names.add(key.slice(prefix.length).split("/")[0]!);
  const out: Buffer[] = [];
  for (const name of [...names].sort()) {
    const entry = lookup(device, prefix + name)!;
    const nameBytes = Buffer.from(name, "utf8");
    const b = Buffer.alloc(20);
    b.write("DENT", 0, "ascii");
    b.writeUInt32LE(entry.mode, 4);
    b.writeUInt32LE(entry.size, 8);
    b.writeUInt32LE(Math.floor(Date.now() / 1000), 12);
    b.writeUInt32LE(nameBytes.length, 16);
    out.push(b, nameBytes);
  }
  out.push(Buffer.concat([Buffer.from("DONE"), Buffer.alloc(16)]));
  return out;
}

/** The longest path a sync request may name (adbd refuses a longer one). */
const MAX_PATH = 1024;

/** FAIL with `message`, then the connection ends and whatever the client still sends is dropped unread. */
function refuse(socket: Socket, reader: SocketReader, message: string): void {
  const bytes = Buffer.from(message, "utf8");
  socket.write(syncPacket("FAIL", bytes.length, bytes));
  socket.end();
  void reader.untilClosed();
}

export async function serveSync(device: ScenarioDevice, socket: Socket, reader: SocketReader): Promise<void> {
  for (;;) {
    const head = await reader.read(8);
    const id = head.toString("ascii", 0, 4);
    const length = head.readUInt32LE(4);
    if (id === "QUIT") {
      socket.end();
      return;
    }
    if (length > MAX_PATH) return refuse(socket, reader, "path too long"); // adbd's limit and text
    const path = (await reader.read(length)).toString("utf8");
    device.log.push({ source: "adb", command: `sync ${id} ${path}` });
    switch (id) {
      case "STAT":
        socket.write(stat1(lookup(device, path)));
        break;
      case "STA2":
      case "LST2":
        socket.write(stat2(id, lookup(device, path)));
        break;
      case "LIST":
        for (const b of dents(device, path)) socket.write(b);
        break;
      case "RECV": {
        const file = device.files.get(path);
        if (file === undefined) {
          const message = Buffer.from(`remote object '${path}' does not exist`, "utf8");
          socket.write(syncPacket("FAIL", message.length, message));
          break;
        }
        for (let at = 0; at < file.length; at += MAX_DATA) {
          const chunk = file.subarray(at, at + MAX_DATA);
          socket.write(syncPacket("DATA", chunk.length, chunk));
        }
        socket.write(syncPacket("DONE", 0));
        break;
      }
      case "SEND": {
        const target = path.replace(/,\d+$/, "");
        const parts: Buffer[] = [];
        let received = 0;
        for (;;) {
          const h = await reader.read(8);
          const kind = h.toString("ascii", 0, 4);
          const n = h.readUInt32LE(4);
          if (kind === "DONE") break;
          if (kind !== "DATA") throw new Error(`unexpected sync packet ${kind} during SEND`);
          if (n > MAX_DATA) return refuse(socket, reader, "oversize data message");
          parts.push(await reader.read(n));
          received += n;
          // Refused as soon as it passes the storage, not after the whole push was held.
          const full = device.files.refusal(target, received);
          if (full !== null) return refuse(socket, reader, full);
        }
        const bytes = new Uint8Array(Buffer.concat(parts));
        const refused = device.files.refusal(target, bytes.length);
        if (refused !== null) {
          // A full device: adbd answers the SEND with FAIL and its reason (the client prints "remote …").
          const message = Buffer.from(refused, "utf8");
          socket.write(syncPacket("FAIL", message.length, message));
          socket.end();
          return;
        }
        device.files.set(target, bytes);
        socket.write(syncPacket("OKAY", 0));
        break;
      }
      default: {
        const message = Buffer.from(`unknown sync request '${id}'`, "utf8");
        socket.write(syncPacket("FAIL", message.length, message));
        socket.end();
        return;
      }
    }
  }
}
