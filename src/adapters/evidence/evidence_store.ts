/**
 * The evidence store: PNG screenshots in the artifacts directory, named by evidence_id.ts. A PNG is
 * decoded first and refused when undecodable or one flat colour; it is written with exclusive
 * create, so two captures in the same microsecond (or from two processes) get distinct files (`-2`,
 * `-3`, …). `resolve` serves only ids of the issued form (no separator, so the file is in the directory)
 * naming a file the harness could have written: a regular file with one link (not a symlink, FIFO, directory
 * or hard link to another file someone planted: read without following or blocking), owned by the server's user
 * (another user's swapped PNG is not served), at most
 * MAX_EVIDENCE_BYTES, starting with the PNG signature; `listRecent` lists only those. Throws
 * EVIDENCE_WRITE_FAILED; `resolve` returns null instead. `reservePng` claims an id with an empty placeholder for a PNG
 * taken behind an answer (neither served nor listed: no PNG signature), `savePngAs` fills it (or removes it on failure).
 */
import { join } from "node:path";
import { HarnessError } from "../../errors.ts";
import type { Clock } from "../../ports/clock.ts";
import type { EvidenceRef, EvidenceStore, FileSystem } from "../../ports/evidence.ts";
import { evidenceId, isEvidenceId } from "./evidence_id.ts";
import { checkScreenshotShowsSomething } from "../../png/mod.ts";

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
const EVIDENCE_FILE = { maxBytes: MAX_EVIDENCE_BYTES, singleLink: true, ownedByUs: true } as const;

function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((byte, i) => bytes[i] === byte);
}

export function createEvidenceStore(options: EvidenceStoreOptions): EvidenceStore {
  const { directory, fs } = options;
  const nowMicros = options.nowMicros ??
    (() => Math.floor(options.clock.now()) * 1000 + Math.floor((performance.now() % 1) * 1000));
  const ref = (id: string): EvidenceRef => ({ artifact_id: id, path: join(directory, id), uri: `artifact://${id}` });
  const writeFailed = (error: Error) =>
    new HarnessError(
      "EVIDENCE_WRITE_FAILED",
      `Cannot write the screenshot to "${directory}" (${error.message}); free disk space or set ANDROID_MCP_ARTIFACTS_DIR to a writable directory.`,
    );
  /** Writes the bytes under a new id at this moment (exclusive create: a taken name gets the next `-N`). */
  const writeUnder = async (tool: string, bytes: Uint8Array): Promise<EvidenceRef> => {
    const micros = nowMicros();
    try {
      await fs.makeDirectory(directory);
      for (let collision = 0; collision < MAX_COLLISIONS; collision++) {
        const id = evidenceId(micros, tool, collision);
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
      checkScreenshotShowsSomething(png);
      return await writeUnder(tool, png);
    },
    // An empty placeholder claims the name (exclusive create, as savePng): resolve and listRecent skip it (no PNG signature).
    reservePng: (tool) => writeUnder(tool, new Uint8Array()),
    async savePngAs(reserved, capture) {
      try {
        const png = await capture;
        checkScreenshotShowsSomething(png);
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
      try {
        const bytes = await fs.readRegularFile(path, EVIDENCE_FILE);
        return isPng(bytes) ? { path, bytes } : null;
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
        const head = await fs.readRegularFile(join(directory, id), { ...EVIDENCE_FILE, firstBytes: PNG_SIGNATURE.length }).catch(() =>
          null
        );
        if (head !== null && isPng(head)) listed.push(ref(id));
      }
      return listed;
    },
  };
}
