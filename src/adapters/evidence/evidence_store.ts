/**
 * The evidence store: PNG screenshots in the artifacts directory, named by evidence_id.ts. A PNG is
 * decoded first and refused when undecodable or one flat colour; it is written with exclusive
 * create, so two captures in the same microsecond (or from two processes) get distinct files (`-2`,
 * `-3`, …). `resolve` serves only ids of the issued form (no separator, so the file is in the directory)
 * naming a file the harness could have written: a regular file with one link (not a symlink, FIFO, directory
 * or hard link to another file someone planted: read without following or blocking), owned by the server's user
 * (another user's swapped PNG is not served), at most
 * MAX_EVIDENCE_BYTES, starting with the PNG signature; `listRecent` lists only those. Throws
 * EVIDENCE_WRITE_FAILED; `resolve` returns null instead. A screen recording (`.mp4`) passes the same checks, with its own
 * signature (an `ftyp` box first) and size limit (MAX_VIDEO_BYTES). `reservePng` claims an id with an empty placeholder for a PNG
 * taken behind an answer (neither served nor listed: no PNG signature), `savePngAs` fills it (or removes it on failure).
 */
import { join } from "node:path";
import { HarnessError } from "../../errors.ts";
import type { Clock } from "../../ports/clock.ts";
import type { EvidenceRef, EvidenceStore, FileSystem } from "../../ports/evidence.ts";
import { evidenceId, type EvidenceKind, isEvidenceId } from "./evidence_id.ts";

export interface EvidenceStoreOptions {
  /** Absolute path of the artifacts directory (state_directories.ts chooses it). */
  directory: string;
  fs: FileSystem;
  clock: Clock;
  /** Microseconds since the epoch; default: the clock's milliseconds plus a sub-millisecond part. */
  nowMicros?: () => number;
}

const MAX_COLLISIONS = 1000;
/** No screenshot the harness writes comes near this (a 4K RGBA screen is ~33 MB raw, far less as PNG). */
export const MAX_EVIDENCE_BYTES = 32 * 1024 * 1024;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** A screen recording: 180 s of a real device's 4 Mbit/s, or of the simulated device's uncompressed frames, is far less. */
export const MAX_VIDEO_BYTES = 256 * 1024 * 1024;
const EVIDENCE_FILE = { maxBytes: MAX_EVIDENCE_BYTES, singleLink: true, ownedByUs: true } as const;
const VIDEO_FILE = { ...EVIDENCE_FILE, maxBytes: MAX_VIDEO_BYTES } as const;
/** What each kind of evidence is served as, how large it may be and how it begins (the bytes read to list it). */
const KINDS = {
  png: { mimeType: "image/png", limits: EVIDENCE_FILE, signatureBytes: PNG_SIGNATURE.length, is: isPng },
  mp4: { mimeType: "video/mp4", limits: VIDEO_FILE, signatureBytes: 8, is: isMp4 },
} as const;

const kindOf = (id: string): EvidenceKind => (id.endsWith(".mp4") ? "mp4" : "png");

function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((byte, i) => bytes[i] === byte);
}

/** An ISO media file: its first box is `ftyp`. */
function isMp4(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && String.fromCharCode(bytes[4]!, bytes[5]!, bytes[6]!, bytes[7]!) === "ftyp";
}

/**
 * A whole MP4 as a finished `screenrecord` leaves it: `ftyp` first, then boxes that end exactly at the file's end
 * (a size of 1 is a 64-bit size after the type), one of them `moov` (the muxer writes it last, at the stop). A file
 * killed mid-write (an `mdat` of size 0, "to the end", and no `moov`) or cut short by a read is not.
 */
export function isCompleteMp4(bytes: Uint8Array): boolean {
  if (!isMp4(bytes)) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let moov = false;
  for (let at = 0; at < bytes.length;) {
    if (at + 8 > bytes.length) return false;
    let size = view.getUint32(at);
    if (size === 1) {
      if (at + 16 > bytes.length) return false;
      size = Number(view.getBigUint64(at + 8));
    } else if (size === 0) size = bytes.length - at; // to the end of the file
    if (size < 8 || at + size > bytes.length) return false;
    if (String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!) === "moov") moov = true;
    at += size;
  }
  return moov;
}

export function createEvidenceStore(options: EvidenceStoreOptions): EvidenceStore {
  const { directory, fs } = options;
  const nowMicros = options.nowMicros ??
    (() => Math.floor(options.clock.now()) * 1000 + Math.floor((performance.now() % 1) * 1000));
  const ref = (id: string): EvidenceRef => ({ artifact_id: id, path: join(directory, id), uri: `artifact://${id}` });
  const writeFailed = (error: Error) =>
    new HarnessError(
      "EVIDENCE_WRITE_FAILED",
      `Cannot write the evidence (a screenshot or a screen recording) to "${directory}" (${error.message}); free disk space or set ANDROID_MCP_ARTIFACTS_DIR to a writable directory.`,
    );
  /** Writes the bytes under a new id at this moment (exclusive create: a taken name gets the next `-N`). */
  const writeUnder = async (tool: string, bytes: Uint8Array, kind: EvidenceKind = "png"): Promise<EvidenceRef> => {
    const micros = nowMicros();
    try {
      await fs.makeDirectory(directory);
      for (let collision = 0; collision < MAX_COLLISIONS; collision++) {
        const id = evidenceId(micros, tool, collision, kind);
        try {
          await fs.writeNewFile(join(directory, id), bytes);
          return ref(id);
        } catch (error) {
          if ((error as { code?: string }).code !== "EEXIST") throw error;
        }
      }
      throw new Error(`${MAX_COLLISIONS} files already use this timestamp`);
    } catch (error) {
      throw writeFailed(error as Error);
    }
  };

  return {
    directory,
    async savePng(tool, png) {
      await checkShowsSomething(png);
      return await writeUnder(tool, png);
    },
    async saveVideo(tool, mp4) {
      if (!isCompleteMp4(mp4) || mp4.length > MAX_VIDEO_BYTES) {
        throw new HarnessError(
          "EVIDENCE_WRITE_FAILED",
          mp4.length > MAX_VIDEO_BYTES
            ? `The screen recording is ${mp4.length} bytes, more than the ${MAX_VIDEO_BYTES} kept; record for a shorter time.`
            : "The device gave no complete MP4 for the screen recording (it was cut off or never written); record again.",
        );
      }
      return await writeUnder(tool, mp4, "mp4");
    },
    // An empty placeholder claims the name (exclusive create, as savePng): resolve and listRecent skip it (no PNG signature).
    reservePng: (tool) => writeUnder(tool, new Uint8Array()),
    async savePngAs(reserved, capture) {
      try {
        const png = await capture;
        await checkShowsSomething(png);
        await fs.replaceFile(reserved.path, png).catch((error: Error) => {
          throw writeFailed(error);
        });
      } catch (error) {
        await fs.removeFile(reserved.path).catch(() => {});
        throw error;
      }
    },
    async resolve(id) {
      if (!isEvidenceId(id)) return null;
      const path = join(directory, id);
      const kind = KINDS[kindOf(id)];
      try {
        const bytes = await fs.readRegularFile(path, kind.limits);
        return kind.is(bytes) ? { path, bytes, mimeType: kind.mimeType } : null;
      } catch {
        return null;
      }
    },
    async listRecent(limit) {
      let names: string[];
      try {
        names = await fs.listNames(directory);
      } catch {
        return [];
      }
      const listed: EvidenceRef[] = [];
      for (const id of names.filter(isEvidenceId).sort().reverse()) {
        if (listed.length >= limit) break;
        const kind = KINDS[kindOf(id)];
        const head = await fs.readRegularFile(join(directory, id), { ...kind.limits, firstBytes: kind.signatureBytes }).catch(() => null);
        if (head !== null && kind.is(head)) listed.push(ref(id));
      }
      return listed;
    },
  };
}

/** The PNG checks load with the first screenshot stored, not when a server starts (the decoder and its zlib port). */
async function checkShowsSomething(png: Uint8Array): Promise<void> {
  const { checkScreenshotShowsSomething } = await import("../../png/mod.ts");
  checkScreenshotShowsSomething(png);
}
