/**
 * Bytes of the adb client↔server protocol: 4-hex-digit length-prefixed requests and strings, OKAY /
 * FAIL replies, the 8-byte transport id after `host:tport:`, shell protocol v2 packets
 * ([id][u32 LE length][data]; 1 stdout, 2 stderr, 3 exit) and sync packets ([4-char id][u32 LE]).
 */
import type { SocketReader } from "./socket_reader.ts";

export const OKAY = Buffer.from("OKAY");

export function hex4(n: number): string {
  return n.toString(16).padStart(4, "0");
}

/** A length-prefixed string (`0004` + `0029`). */
export function lengthPrefixed(text: string | Buffer): Buffer {
  const body = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  return Buffer.concat([Buffer.from(hex4(body.length)), body]);
}

export function okayWith(text: string): Buffer {
  return Buffer.concat([OKAY, lengthPrefixed(text)]);
}

export function fail(message: string): Buffer {
  return Buffer.concat([Buffer.from("FAIL"), lengthPrefixed(message)]);
}

export function transportId(id: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(id));
  return b;
}

export async function readRequest(reader: SocketReader): Promise<string> {
  const length = parseInt((await reader.read(4)).toString("ascii"), 16);
  if (!Number.isFinite(length)) throw new Error("malformed request length");
  return (await reader.read(length)).toString("utf8");
}

export const SHELL_STDOUT = 1;
export const SHELL_STDERR = 2;
export const SHELL_EXIT = 3;
const MAX_PACKET = 64 * 1024;

/** Shell protocol v2 packets for one stream (split into ≤64 KiB packets). */
export function shellPackets(id: number, data: Uint8Array): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < data.length; at += MAX_PACKET) {
    const chunk = data.subarray(at, at + MAX_PACKET);
    const head = Buffer.alloc(5);
    head.writeUInt8(id, 0);
    head.writeUInt32LE(chunk.length, 1);
    out.push(head, Buffer.from(chunk));
  }
  return out;
}

export function shellExit(code: number): Buffer {
  const b = Buffer.alloc(6);
  b.writeUInt8(SHELL_EXIT, 0);
  b.writeUInt32LE(1, 1);
  b.writeUInt8(code & 0xff, 5);
  return b;
}

export function syncPacket(id: string, lengthOrValue: number, body?: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.write(id, 0, "ascii");
  head.writeUInt32LE(lengthOrValue, 4);
  return body === undefined ? head : Buffer.concat([head, Buffer.from(body)]);
}
