/**
 * The APK app_install names, checked before anything reaches the device and copied into a private temporary
 * folder (0700; the copy is what adb streams, named `app.apk` as adb requires, so the file cannot change between
 * its check and its install): an absolute path to a regular file this user can read (a symbolic link is followed
 * to what it names, which is then checked on the open descriptor: a FIFO is opened non-blocking and never read, a
 * directory, socket or device is refused), at most MAX_APK_BYTES (from its size before a byte is read, and again
 * while copying), an APK by its content: a zip whose central directory holds AndroidManifest.xml in compiled
 * binary XML naming a valid package (binary_manifest.ts). Every refusal is INVALID_ARGUMENT saying what to do.
 */
import { constants, type Stats } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { PACKAGE_NAME_PATTERN } from "../../../contracts/package_name.ts";
import { HarnessError } from "../../errors.ts";
import { nonRegularKind } from "../../file_kind.ts";
import type { WaitOptions } from "../../ports/device.ts";
import type { PreparedApk } from "../../ports/app_packages.ts";
import { readBinaryManifest } from "./binary_manifest.ts";

const MIB = 1024 * 1024;
/** The largest APK app_install takes (Google Play's own limit for one APK is far below it). */
export const MAX_APK_BYTES = 1024 * MIB;
/** The largest compiled manifest read (real ones are a few KB to a few hundred KB). */
const MAX_MANIFEST_BYTES = 8 * MIB;
const COPY_CHUNK = MIB;
const MANIFEST = "AndroidManifest.xml";

export async function prepareApk(path: string, wait: WaitOptions): Promise<PreparedApk> {
  if (!isAbsolute(path)) refuse(path, "is not an absolute path: give the APK's full path on the machine the harness runs on");
  let source;
  try {
    source = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") refuse(path, "does not exist on the machine the harness runs on: check the path");
    if (code === "EACCES" || code === "EPERM") refuse(path, "is not readable by the user the harness runs as: fix its permissions");
    refuse(path, `cannot be opened (${code ?? "unknown error"})`);
  }
  const folder = await mkdtemp(join(tmpdir(), "android-mcp-apk-"));
  const dispose = () => rm(folder, { recursive: true, force: true });
  try {
    const info = await source.stat();
    refuseUnlessRegular(path, info);
    const copy = join(folder, "app.apk");
    const bytes = await copyTo(source, copy, path, wait);
    const facts = await manifestOf(copy, bytes, path);
    return { path, file: copy, bytes, ...facts, dispose };
  } catch (error) {
    await dispose();
    throw error;
  } finally {
    await source.close();
  }
}

function refuseUnlessRegular(path: string, info: Stats): void {
  const kind = nonRegularKind(info);
  if (kind !== null) refuse(path, `is ${kind}: give the path of an .apk file`);
  if (info.size > MAX_APK_BYTES) tooLarge(path, info.size);
}

function tooLarge(path: string, size: number): never {
  refuse(path, `is ${size} bytes: an APK for app_install is at most ${MAX_APK_BYTES / MIB} MiB; install a larger one with adb install`);
}

type Handle = Awaited<ReturnType<typeof open>>;

/** Copies the open file into `to` (0600), chunk by chunk; refuses it when it grows past the limit meanwhile. */
async function copyTo(source: Handle, to: string, path: string, wait: WaitOptions): Promise<number> {
  const target = await open(to, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    const chunk = new Uint8Array(COPY_CHUNK);
    let total = 0;
    for (;;) {
      if (wait.signal?.aborted === true) throw wait.signal.reason;
      const { bytesRead } = await source.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) return total;
      total += bytesRead;
      if (total > MAX_APK_BYTES) tooLarge(path, total);
      await target.write(chunk, 0, bytesRead);
    }
  } finally {
    await target.close();
  }
}

/** The manifest's facts from the zip's central directory entry (not from a local header a zip may repeat). */
async function manifestOf(copy: string, size: number, path: string): Promise<Omit<PreparedApk, "path" | "file" | "bytes" | "dispose">> {
  const file = await open(copy, constants.O_RDONLY);
  const read = async (at: number, length: number) => {
    const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - at)));
    await file.read(buffer, 0, buffer.length, at);
    return buffer;
  };
  try {
    const head = await read(0, 4);
    if (head.length < 4 || head.readUInt32LE(0) !== 0x04034b50) notApk(path, "it is not a zip file");
    const tailStart = Math.max(0, size - (65_535 + 22));
    const tail = await read(tailStart, size - tailStart);
    let end = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) (end = i), (i = -1);
    }
    if (end === -1) notApk(path, "it is not a complete zip file (no end of central directory)");
    const entries = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryAt = tail.readUInt32LE(end + 16);
    if (directoryAt + directorySize > size) notApk(path, "its zip directory points past the end of the file");
    const directory = await read(directoryAt, directorySize);
    for (let at = 0, i = 0; i < entries && at + 46 <= directory.length; i++) {
      if (directory.readUInt32LE(at) !== 0x02014b50) notApk(path, "its zip directory is malformed");
      const nameLength = directory.readUInt16LE(at + 28);
      const name = directory.toString("utf8", at + 46, at + 46 + nameLength);
      if (name === MANIFEST) {
        const entry = {
          method: directory.readUInt16LE(at + 10),
          compressed: directory.readUInt32LE(at + 20),
          uncompressed: directory.readUInt32LE(at + 24),
          local: directory.readUInt32LE(at + 42),
        };
        return facts(await manifestBytes(read, entry, path), path);
      }
      at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    }
    return notApk(path, `its zip holds no ${MANIFEST}`);
  } finally {
    await file.close();
  }
}

interface ZipEntry {
  method: number;
  compressed: number;
  uncompressed: number;
  local: number;
}

async function manifestBytes(read: (at: number, length: number) => Promise<Buffer>, entry: ZipEntry, path: string): Promise<Buffer> {
  if (entry.uncompressed > MAX_MANIFEST_BYTES || entry.compressed > MAX_MANIFEST_BYTES) {
    notApk(path, `its ${MANIFEST} is larger than ${MAX_MANIFEST_BYTES / MIB} MiB`);
  }
  const local = await read(entry.local, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== 0x04034b50) notApk(path, `its zip entry for ${MANIFEST} is malformed`);
  const data = await read(entry.local + 30 + local.readUInt16LE(26) + local.readUInt16LE(28), entry.compressed);
  if (entry.method === 0) return data;
  if (entry.method !== 8) notApk(path, `its ${MANIFEST} is compressed with method ${entry.method} (Android reads stored or deflated)`);
  try {
    return inflateRawSync(data, { maxOutputLength: MAX_MANIFEST_BYTES });
  } catch {
    return notApk(path, `its ${MANIFEST} cannot be inflated`);
  }
}

function facts(xml: Buffer, path: string): Omit<PreparedApk, "path" | "file" | "bytes" | "dispose"> {
  let manifest;
  try {
    manifest = readBinaryManifest(xml);
  } catch (error) {
    return notApk(path, (error as Error).message);
  }
  if (!PACKAGE_NAME_PATTERN.test(manifest.packageName) || manifest.packageName.length > 255) {
    notApk(path, `its manifest names "${manifest.packageName.slice(0, 80)}", which is not a valid package name`);
  }
  return {
    packageName: manifest.packageName,
    ...(manifest.versionCode === undefined ? {} : { versionCode: manifest.versionCode }),
    ...(manifest.versionName === undefined ? {} : { versionName: manifest.versionName }),
  };
}

function notApk(path: string, why: string): never {
  refuse(path, `is not an APK: ${why}. Give the path of the .apk file your build made (e.g. app/build/outputs/apk/debug/app-debug.apk)`);
}

function refuse(path: string, what: string): never {
  const shown = path.length > 200 ? `${path.slice(0, 200)}… (${path.length} characters)` : path;
  throw new HarnessError("INVALID_ARGUMENT", `'path' ${shown} ${what}.`, { path: shown });
}
