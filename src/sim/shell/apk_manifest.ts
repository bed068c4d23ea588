/**
 * What a streamed install tells the simulated package manager: the package name, versionCode and
 * versionName of an APK, read from its own binary AndroidManifest.xml (the zip's local file entry,
 * stored or deflated; Android's binary XML: string pool, then the `<manifest>` start element's
 * attributes), and the app's label (`<application android:label>` written as a string) and first
 * `<activity android:name>` when there are. Null for bytes that are not an APK with a readable manifest: the install still answers
 * Success, as it did for test bytes, and records nothing.
 */
import { inflateRawSync } from "node:zlib";

export interface ApkManifest {
  packageName: string;
  versionCode: number;
  versionName: string;
  /** `<application android:label>` when written as a string. */
  label?: string;
  /** The first activity with an intent filter of the MAIN action and the LAUNCHER category. */
  activity?: string;
  /** Whether a launcher opens it: a launcher activity, or an app APK that declares no activity. */
  launchable: boolean;
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
  let out: Partial<ApkManifest> | null = null;
  let activity: string | undefined;
  let activities = false;
  let instrumentation = false;
  let main = false; // the current intent filter's MAIN action and LAUNCHER category: both make a launcher activity
  let launcher = false;
  let at = xml.readUInt16LE(2); // the document chunk's header size
  while (at + 8 <= xml.length) {
    const type = xml.readUInt16LE(at);
    const size = xml.readUInt32LE(at + 4);
    if (type === 0x0001) strings = stringPool(xml.subarray(at, at + size));
    const element = type === 0x0102 ? strings[xml.readUInt32LE(at + 20)] : undefined;
    if (element === "manifest" && out === null) {
      out = {};
      for (const { name, text, dataType, data } of attributes(xml, at, strings)) {
        if (name === "package" && text !== undefined) out.packageName = text;
        if (name === "versionName" && text !== undefined) out.versionName = text;
        if (name === "versionCode") out.versionCode = dataType >= 0x10 && dataType <= 0x11 ? data : Number(text ?? 0);
      }
    } else if (out !== null && element !== undefined) {
      const text = (name: string) => attributes(xml, at, strings).find((a) => a.name === name && a.dataType === 0x03)?.text;
      if (element === "application") out.label = text("label") || undefined;
      if (element === "activity" || element === "activity-alias") (activity = text("name")), (activities = true);
      if (element === "service" || element === "receiver" || element === "provider") activity = undefined;
      if (element === "instrumentation") instrumentation = true;
      if (element === "intent-filter") (main = false), (launcher = false);
      if (element === "action" && text("name") === "android.intent.action.MAIN") main = true;
      if (element === "category" && text("name") === "android.intent.category.LAUNCHER") launcher = true;
      if (main && launcher && out.activity === undefined) out.activity = activity;
    }
    if (size <= 0) break;
    at += size;
  }
  if (out?.packageName === undefined) return null;
  if (out.label === undefined) delete out.label;
  if (out.activity === undefined) delete out.activity;
  // An app without activities (a minimal APK) opens on a placeholder; one whose activities has no launcher, or an
  // instrumentation, is not launchable, as on a device.
  const launchable = out.activity !== undefined || (!activities && !instrumentation);
  return { versionCode: 0, versionName: "", ...out, launchable } as ApkManifest;
}

function attributes(xml: Buffer, at: number, strings: string[]): { name?: string; text?: string; dataType: number; data: number }[] {
  const attributeStart = xml.readUInt16LE(at + 24);
  const attributeSize = xml.readUInt16LE(at + 26);
  const count = xml.readUInt16LE(at + 28);
  return Array.from({ length: count }, (_, i) => {
    const a = at + 16 + attributeStart + i * attributeSize;
    const name = strings[xml.readUInt32LE(a + 4)];
    const raw = xml.readUInt32LE(a + 8);
    const dataType = xml.readUInt8(a + 15);
    const data = xml.readUInt32LE(a + 16);
    const text = raw !== 0xffffffff ? strings[raw] : dataType === 0x03 ? strings[data] : undefined;
    return { ...(name === undefined ? {} : { name }), ...(text === undefined ? {} : { text }), dataType, data };
  });
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
