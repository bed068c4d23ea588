/**
 * Android's binary XML (AXML) as an APK's AndroidManifest.xml holds it, read just far enough for app_install:
 * the `<manifest>` element's `package`, `versionCode` and `versionName`, and the `<application>` element's
 * `label` when it is a plain string (a `@string/…` reference needs resources.arsc: left out). Chunks: the
 * document header (0x0003), the string pool (0x0001, UTF-8 or UTF-16), the resource map (0x0180: the
 * `android:` attribute ids, which name an attribute whose string a shrinker emptied) and the start elements
 * (0x0102). Pure; throws a plain Error saying what is wrong (the caller turns it into the refusal).
 */

export interface ManifestFacts {
  packageName: string;
  /** Absent when the manifest declares none (Android reads it as 0). */
  versionCode?: number;
  versionName?: string;
  /** The application's label when it is written as a string, not a resource reference. */
  label?: string;
}

const CHUNK_XML = 0x0003;
const CHUNK_STRING_POOL = 0x0001;
const CHUNK_RESOURCE_MAP = 0x0180;
const CHUNK_START_ELEMENT = 0x0102;
const TYPE_STRING = 0x03;
const TYPE_INT_DEC = 0x10;
const TYPE_INT_HEX = 0x11;
/** android:label, android:versionCode, android:versionName (android.R.attr). */
const ATTRIBUTE_IDS: Record<number, string> = { 0x01010001: "label", 0x0101021b: "versionCode", 0x0101021c: "versionName" };

export function readBinaryManifest(xml: Uint8Array): ManifestFacts {
  const view = new DataView(xml.buffer, xml.byteOffset, xml.byteLength);
  if (xml.length < 8 || view.getUint16(0, true) !== CHUNK_XML) throw new Error("AndroidManifest.xml is not compiled binary XML");
  let strings: string[] = [];
  let ids: number[] = [];
  let facts: Partial<ManifestFacts> | null = null;
  let at = view.getUint16(2, true);
  while (at + 8 <= xml.length) {
    const type = view.getUint16(at, true);
    const size = view.getUint32(at + 4, true);
    if (size < 8 || at + size > xml.length) throw new Error("AndroidManifest.xml has a cut or malformed chunk");
    if (type === CHUNK_STRING_POOL) strings = stringPool(view, at);
    if (type === CHUNK_RESOURCE_MAP) ids = Array.from({ length: (size - 8) / 4 }, (_, i) => view.getUint32(at + 8 + i * 4, true));
    if (type === CHUNK_START_ELEMENT) {
      const element = strings[view.getUint32(at + 20, true)];
      const attributes = element === "manifest" || element === "application" ? readAttributes(view, at, strings, ids) : null;
      if (element === "manifest" && facts === null) {
        facts = {};
        const code = attributes!.get("versionCode");
        const pkg = attributes!.get("package");
        if (pkg?.kind === "string") facts.packageName = pkg.text;
        if (code?.kind === "int") facts.versionCode = code.value;
        if (code?.kind === "string" && /^\d+$/.test(code.text)) facts.versionCode = Number(code.text);
        const name = attributes!.get("versionName");
        if (name?.kind === "string") facts.versionName = name.text;
      } else if (element === "application" && facts !== null) {
        const label = attributes!.get("label");
        if (label?.kind === "string" && label.text !== "") facts.label = label.text;
        break;
      }
    }
    at += size;
  }
  if (facts === null) throw new Error("AndroidManifest.xml has no <manifest> element");
  if (facts.packageName === undefined || facts.packageName === "") throw new Error("its <manifest> element names no package");
  return facts as ManifestFacts;
}

type Value = { kind: "string"; text: string } | { kind: "int"; value: number } | { kind: "other" };

/** A start element's attributes by name (the resource map's id first: a shrunk APK may leave the name empty). */
function readAttributes(view: DataView, at: number, strings: string[], ids: number[]): Map<string, Value> {
  const start = view.getUint16(at + 24, true);
  const size = view.getUint16(at + 26, true);
  const count = view.getUint16(at + 28, true);
  const out = new Map<string, Value>();
  for (let i = 0; i < count; i++) {
    const a = at + 16 + start + i * size;
    if (a + 20 > view.byteLength) throw new Error("AndroidManifest.xml has a cut attribute");
    const nameIndex = view.getUint32(a + 4, true);
    const name = ATTRIBUTE_IDS[ids[nameIndex] ?? -1] ?? strings[nameIndex];
    if (name === undefined) continue;
    const raw = view.getUint32(a + 8, true);
    const dataType = view.getUint8(a + 15);
    const data = view.getUint32(a + 16, true);
    const text = dataType === TYPE_STRING ? strings[data] : raw !== 0xffffffff ? strings[raw] : undefined;
    out.set(
      name,
      dataType === TYPE_INT_DEC || dataType === TYPE_INT_HEX
        ? { kind: "int", value: data }
        : text !== undefined
        ? { kind: "string", text }
        : { kind: "other" },
    );
  }
  return out;
}

function stringPool(view: DataView, at: number): string[] {
  const headerSize = view.getUint16(at + 2, true);
  const count = view.getUint32(at + 8, true);
  const utf8 = (view.getUint32(at + 16, true) & 0x100) !== 0;
  const stringsStart = at + view.getUint32(at + 20, true);
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let p = stringsStart + view.getUint32(at + headerSize + i * 4, true);
    if (utf8) {
      p += (bytes[p]! & 0x80) !== 0 ? 2 : 1; // the length in UTF-16 units, then in bytes
      let length = bytes[p]!;
      if ((length & 0x80) !== 0) (length = ((length & 0x7f) << 8) | bytes[p + 1]!), (p += 2);
      else p += 1;
      out.push(new TextDecoder("utf-8").decode(bytes.subarray(p, p + length)));
    } else {
      let units = view.getUint16(p, true);
      if ((units & 0x8000) !== 0) (units = ((units & 0x7fff) << 16) | view.getUint16(p + 2, true)), (p += 2);
      p += 2;
      out.push(new TextDecoder("utf-16le").decode(bytes.subarray(p, p + units * 2)));
    }
  }
  return out;
}
