/**
 * APKs built in a test, with no Android SDK: a zip (stored or deflated entries, a central directory) holding an
 * AndroidManifest.xml in Android's binary XML (AXML: the document chunk, a UTF-16 string pool, the resource map of
 * the android: attributes, the namespace and the elements). Enough for `aapt dump badging` to read the package,
 * its version, the application label and the launchable activity (tests/adapters/apk_file.test.ts checks it).
 */
import { deflateRawSync } from "node:zlib";

export interface ApkSpec {
  package: string;
  versionCode?: number;
  versionName?: string;
  /** `<application android:label>` as a string. */
  label?: string;
  /** An activity with the MAIN action and the LAUNCHER category. */
  launcherActivity?: string;
  /** Activities without an intent filter (none of them launchable), written before the launcher one. */
  activities?: string[];
}

const ANDROID_NS = "http://schemas.android.com/apk/res/android";
/** The android: attributes written, in the resource map's order (android.R.attr ids). */
const ATTRIBUTE_IDS = [["label", 0x01010001], ["name", 0x01010003], ["versionCode", 0x0101021b], ["versionName", 0x0101021c]] as const;
const TYPE_STRING = 0x03;
const TYPE_INT_DEC = 0x10;
const NONE = 0xffffffff;

interface Attribute {
  android: boolean;
  name: string;
  value: string | number;
}
interface Element {
  name: string;
  attributes: Attribute[];
  children: Element[];
}

/** The manifest of `spec` in binary XML. */
export function binaryManifest(spec: ApkSpec): Uint8Array {
  const manifestAttributes: Attribute[] = [
    ...(spec.versionCode === undefined ? [] : [{ android: true, name: "versionCode", value: spec.versionCode }]),
    ...(spec.versionName === undefined ? [] : [{ android: true, name: "versionName", value: spec.versionName }]),
    { android: false, name: "package", value: spec.package },
  ];
  const plain: Element[] = (spec.activities ?? []).map((name) => ({
    name: "activity",
    attributes: [{ android: true, name: "name", value: name }],
    children: [],
  }));
  const activity: Element[] = spec.launcherActivity === undefined ? plain : [...plain, {
    name: "activity",
    attributes: [{ android: true, name: "name", value: spec.launcherActivity }],
    children: [{
      name: "intent-filter",
      attributes: [],
      children: [
        { name: "action", attributes: [{ android: true, name: "name", value: "android.intent.action.MAIN" }], children: [] },
        { name: "category", attributes: [{ android: true, name: "name", value: "android.intent.category.LAUNCHER" }], children: [] },
      ],
    }],
  }];
  const application: Element = {
    name: "application",
    attributes: spec.label === undefined ? [] : [{ android: true, name: "label", value: spec.label }],
    children: activity,
  };
  return axml({ name: "manifest", attributes: manifestAttributes, children: [application] });
}

function axml(root: Element): Uint8Array {
  const strings: string[] = ATTRIBUTE_IDS.map(([name]) => name);
  const index = (s: string) => {
    const at = strings.indexOf(s);
    return at !== -1 ? at : strings.push(s) - 1;
  };
  index("android");
  index(ANDROID_NS);
  const body: Buffer[] = [];
  let line = 1;
  const walk = (e: Element) => {
    const attrs = e.attributes.map((a) => {
      const out = Buffer.alloc(20);
      out.writeUInt32LE(a.android ? index(ANDROID_NS) : NONE, 0);
      out.writeUInt32LE(index(a.name), 4);
      out.writeUInt32LE(typeof a.value === "string" ? index(a.value) : NONE, 8);
      out.writeUInt16LE(8, 12);
      out.writeUInt8(typeof a.value === "string" ? TYPE_STRING : TYPE_INT_DEC, 15);
      out.writeUInt32LE(typeof a.value === "string" ? index(a.value) : a.value, 16);
      return out;
    });
    const start = Buffer.alloc(36);
    start.writeUInt16LE(0x0102, 0);
    start.writeUInt16LE(16, 2);
    start.writeUInt32LE(36 + 20 * attrs.length, 4);
    start.writeUInt32LE(line++, 8);
    start.writeUInt32LE(NONE, 12);
    start.writeUInt32LE(NONE, 16);
    start.writeUInt32LE(index(e.name), 20);
    start.writeUInt16LE(20, 24);
    start.writeUInt16LE(20, 26);
    start.writeUInt16LE(attrs.length, 28);
    body.push(start, ...attrs);
    for (const child of e.children) walk(child);
    body.push(node(0x0103, line++, NONE, index(e.name)));
  };
  const namespaceStart = node(0x0100, 0, index("android"), index(ANDROID_NS));
  walk(root);
  const namespaceEnd = node(0x0101, line, index("android"), index(ANDROID_NS));
  const resourceMap = Buffer.alloc(8 + 4 * ATTRIBUTE_IDS.length);
  resourceMap.writeUInt16LE(0x0180, 0);
  resourceMap.writeUInt16LE(8, 2);
  resourceMap.writeUInt32LE(resourceMap.length, 4);
  ATTRIBUTE_IDS.forEach(([, id], i) => resourceMap.writeUInt32LE(id, 8 + 4 * i));
  const chunks = [stringPool(strings), resourceMap, namespaceStart, ...body, namespaceEnd];
  const total = 8 + chunks.reduce((n, c) => n + c.length, 0);
  const header = Buffer.alloc(8);
  header.writeUInt16LE(0x0003, 0);
  header.writeUInt16LE(8, 2);
  header.writeUInt32LE(total, 4);
  return new Uint8Array(Buffer.concat([header, ...chunks]));
}

/** A namespace or end-element node: line, comment, then two string indexes. */
function node(type: number, line: number, a: number, b: number): Buffer {
  const out = Buffer.alloc(24);
  out.writeUInt16LE(type, 0);
  out.writeUInt16LE(16, 2);
  out.writeUInt32LE(24, 4);
  out.writeUInt32LE(line, 8);
  out.writeUInt32LE(NONE, 12);
  out.writeUInt32LE(a, 16);
  out.writeUInt32LE(b, 20);
  return out;
}

function stringPool(strings: string[]): Buffer {
  const data = Buffer.concat(strings.map((s) => {
    const out = Buffer.alloc(2 + s.length * 2 + 2);
    out.writeUInt16LE(s.length, 0);
    out.write(s, 2, "utf16le");
    return out;
  }));
  const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
  const header = Buffer.alloc(28 + 4 * strings.length);
  header.writeUInt16LE(0x0001, 0);
  header.writeUInt16LE(28, 2);
  header.writeUInt32LE(header.length + padded.length, 4);
  header.writeUInt32LE(strings.length, 8);
  header.writeUInt32LE(0, 12);
  header.writeUInt32LE(0, 16); // UTF-16
  header.writeUInt32LE(header.length, 20);
  header.writeUInt32LE(0, 24);
  let offset = 0;
  strings.forEach((s, i) => {
    header.writeUInt32LE(offset, 28 + 4 * i);
    offset += 2 + s.length * 2 + 2;
  });
  return Buffer.concat([header, padded]);
}

export interface ZipEntry {
  name: string;
  data: Uint8Array;
  /** Deflated (method 8) instead of stored. */
  deflate?: boolean;
}

/** A zip of the entries: local headers, then the central directory and its end record. */
export function zip(entries: ZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const stored = Buffer.from(entry.data);
    const body = entry.deflate === true ? deflateRawSync(stored) : stored;
    const crc = crc32(stored);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.deflate === true ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(stored.length, 22);
    local.writeUInt16LE(name.length, 26);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(entry.deflate === true ? 8 : 0, 10);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(body.length, 20);
    record.writeUInt32LE(stored.length, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    central.push(record, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** A minimal APK of `spec`: its manifest (deflated, as build tools write it) and a classes.dex placeholder. */
export function buildApk(spec: ApkSpec): Uint8Array {
  return zip([
    { name: "AndroidManifest.xml", data: binaryManifest(spec), deflate: true },
    { name: "classes.dex", data: new TextEncoder().encode("dex\n035\0") },
  ]);
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
