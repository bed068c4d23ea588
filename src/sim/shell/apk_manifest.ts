/**
 * What a streamed install tells the simulated package manager: the package name, versionCode and
 * versionName of an APK, read from its own binary AndroidManifest.xml (the zip's local file entry,
 * stored or deflated; Android's binary XML: string pool, then the `<manifest>` start element's
 * attributes). Null for bytes that are not an APK with a readable manifest: the install still answers
 * Success, as it did for test bytes, and records nothing.
 */
import { inflateRawSync } from "node:zlib";

export interface ApkManifest {
  packageName: string;
  versionCode: number;
  versionName: string;
}

const LOCAL_HEADER = 0x04034b50;
const MANIFEST = "AndroidManifest.xml";

export function readApkManifest(apk: Uint8Array): ApkManifest | null {
  try {
    const xml = manifestEntry(Buffer.from(apk.buffer, apk.byteOffset, apk.byteLength));
    return xml === null ? null : manifestAttributes(xml);
  } catch {
    return null;
  }
}

/** The manifest's bytes from the first local file header that names it. */
function manifestEntry(zip: Buffer): Buffer | null {
  let at = 0;
  while (at + 30 <= zip.length && zip.readUInt32LE(at) === LOCAL_HEADER) {
    const flags = zip.readUInt16LE(at + 6);
    const method = zip.readUInt16LE(at + 8);
    const compressed = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extraLength = zip.readUInt16LE(at + 28);
    const name = zip.toString("utf8", at + 30, at + 30 + nameLength);
    const data = at + 30 + nameLength + extraLength;
    if ((flags & 0x08) !== 0 && compressed === 0) return null; // sizes only in a data descriptor: not what apksigner writes
    if (name === MANIFEST) {
      const body = zip.subarray(data, data + compressed);
      return method === 0 ? body : method === 8 ? inflateRawSync(body) : null;
    }
    at = data + compressed;
  }
  return null;
}

function manifestAttributes(xml: Buffer): ApkManifest | null {
  let strings: string[] = [];
  let at = xml.readUInt16LE(2); // the document chunk's header size
  while (at + 8 <= xml.length) {
    const type = xml.readUInt16LE(at);
    const size = xml.readUInt32LE(at + 4);
    if (type === 0x0001) strings = stringPool(xml.subarray(at, at + size));
    if (type === 0x0102 && strings[xml.readUInt32LE(at + 20)] === "manifest") {
      const attributeStart = xml.readUInt16LE(at + 24);
      const attributeSize = xml.readUInt16LE(at + 26);
      const count = xml.readUInt16LE(at + 28);
      const out: Partial<ApkManifest> = {};
      for (let i = 0; i < count; i++) {
        const a = at + 16 + attributeStart + i * attributeSize;
        const name = strings[xml.readUInt32LE(a + 4)];
        const raw = xml.readUInt32LE(a + 8);
        const dataType = xml.readUInt8(a + 15);
        const data = xml.readUInt32LE(a + 16);
        const text = raw !== 0xffffffff ? strings[raw] : dataType === 0x03 ? strings[data] : undefined;
        if (name === "package" && text !== undefined) out.packageName = text;
        if (name === "versionName" && text !== undefined) out.versionName = text;
        if (name === "versionCode") out.versionCode = dataType >= 0x10 && dataType <= 0x11 ? data : Number(text ?? 0);
      }
      return out.packageName === undefined ? null : { versionCode: 0, versionName: "", ...out } as ApkManifest;
    }
    if (size <= 0) return null;
    at += size;
  }
  return null;
}

function stringPool(chunk: Buffer): string[] {
  const headerSize = chunk.readUInt16LE(2);
  const count = chunk.readUInt32LE(8);
  const utf8 = (chunk.readUInt32LE(16) & 0x100) !== 0;
  const stringsStart = chunk.readUInt32LE(20);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let p = stringsStart + chunk.readUInt32LE(headerSize + i * 4);
    if (utf8) {
      p += (chunk[p]! & 0x80) !== 0 ? 2 : 1; // the length in UTF-16 units
      let bytes = chunk[p]!;
      if ((bytes & 0x80) !== 0) (bytes = ((bytes & 0x7f) << 8) | chunk[p + 1]!), (p += 2);
      else p += 1;
      out.push(chunk.toString("utf8", p, p + bytes));
    } else {
      let units = chunk.readUInt16LE(p);
      if ((units & 0x8000) !== 0) (units = ((units & 0x7fff) << 16) | chunk.readUInt16LE(p + 2)), (p += 4);
      else p += 2;
      out.push(chunk.toString("utf16le", p, p + units * 2));
    }
  }
  return out;
}
