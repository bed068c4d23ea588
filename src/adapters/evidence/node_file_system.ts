/**
 * The real FileSystem port over node:fs/promises. Built only by the composition root (and by tests
 * that run the real store in a temporary directory). Errors keep node's `code` ("EEXIST", "ENOENT").
 * Directories are created one level at a time, never with `mkdir({recursive: true})`: under /proc and
 * similar file systems Node's recursive mkdir retries forever at 100 % CPU (`--artifacts /proc/nope`).
 * Files are created owner-only (0600): screenshots, reports and recordings can show what a user typed; directories
 * 0755 at most (never group- or world-writable, whatever the umask: another user must not plant files in them).
 * The audit log is appended to without following a link, and only when it is this user's own regular file.
 */
import { constants } from "node:fs";
import { chmod, link, lstat, mkdir, open, readdir, readFile, realpath, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { FileSystem, ReadLimits } from "../../ports/evidence.ts";

/** Every file the harness writes (evidence, audit, reports, recordings, locks) is its user's alone. */
const PRIVATE_FILE = 0o600;

export function createNodeFileSystem(): FileSystem {
  return {
    makeDirectory: makeDirectoryTree,
    makePrivateDirectory,
    writeNewFile: publishNewFile,
    replaceFile: async (path, bytes) => {
      const draft = join(dirname(path), `.${basename(path)}.${process.pid}-${++publishCounter}.draft`);
      try {
        await writeFile(draft, bytes, { flag: "wx", mode: PRIVATE_FILE });
        await rename(draft, path);
      } catch (error) {
        await unlink(draft).catch(() => {}); // also a draft a full disk cut half-way
        throw error;
      }
    },
    appendText: appendPrivateText,
    readBytes: async (path) => new Uint8Array(await readFile(path)),
    readRegularFile,
    fileIdentity: async (path) => {
      const info = await lstat(path).catch(() => null);
      // An inode freed by a delete is reused at once (tmpfs, ext4): the change time and size tell the new file apart.
      return info === null ? null : `${info.dev}:${info.ino}:${info.size}:${info.ctimeMs}`;
    },
    fileFacts: async (path) => {
      const info = await lstat(path).catch(() => null);
      if (info === null) return null;
      const uid = process.getuid?.();
      return { regular: info.isFile(), ownedByUs: uid === undefined || info.uid === uid, modifiedMs: info.mtimeMs };
    },
    isRegularFile: async (path) => (await lstat(path).catch(() => null))?.isFile() === true,
    readText: (path) => readFile(path, "utf8"),
    realPath: (path) => realpath(path),
    listNames: (directory) => readdir(directory),
    removeFile: (path) => unlink(path),
    isWritableDirectory: async (path) => {
      const probe = join(path, `.write-probe-${process.pid}-${Math.random().toString(36).slice(2)}`);
      try {
        await makeDirectoryTree(path);
        await writeFile(probe, "", { flag: "wx" });
        await rm(probe, { force: true });
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** mkdir -p that ends: each missing level once, from the nearest existing ancestor down; the first
 * refusal (ENOENT where the parent exists, EACCES, EROFS, ENOTDIR, …) is thrown as it is. */
async function makeDirectoryTree(path: string): Promise<void> {
  const missing: string[] = [];
  let dir = resolve(path);
  for (;;) {
    try {
      if ((await stat(dir)).isDirectory()) break;
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { code: "ENOTDIR", path: dir });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    missing.push(dir);
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const level of missing.reverse()) {
    try {
      await mkdir(level, { mode: 0o755 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error; // another process made it meanwhile
    }
  }
}

/** O_NOFOLLOW refuses a symlink, O_NONBLOCK makes opening a FIFO return at once; fstat then says what it is. */
async function readRegularFile(path: string, limits: ReadLimits = {}): Promise<Uint8Array> {
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  let handle;
  try {
    handle = await open(path, flags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw notRegular(path);
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw notRegular(path);
    if (limits.singleLink === true && info.nlink > 1) throw notRegular(path, `has ${info.nlink} hard links`);
    const uid = process.getuid?.();
    if (limits.ownedByUs === true && uid !== undefined && info.uid !== uid) throw notRegular(path, `belongs to user ${info.uid}`);
    if (limits.maxBytes !== undefined && info.size > limits.maxBytes) throw notRegular(path, `is larger than ${limits.maxBytes} bytes`);
    if (limits.firstBytes !== undefined) {
      const head = new Uint8Array(limits.firstBytes);
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      return head.subarray(0, bytesRead);
    }
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/**
 * Appends to this user's own regular file, creating it 0600: a symbolic link there is not followed (O_NOFOLLOW:
 * ELOOP), and a file of another user, with several links, or not regular, is refused (code "EUNSAFE") before a
 * byte is written; one of ours that others may read is narrowed to 0600 first. One write in append mode.
 */
async function appendPrivateText(path: string, text: string): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  let handle;
  try {
    handle = await open(path, flags, PRIVATE_FILE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw unsafe(`"${path}" is a symbolic link; remove it`);
    throw error;
  }
  try {
    const info = await handle.stat();
    const uid = process.getuid?.();
    if (!info.isFile() || info.nlink > 1) throw unsafe(`"${path}" is not a regular file of its own; remove it`);
    if (uid !== undefined && info.uid !== uid) throw unsafe(`"${path}" belongs to user ${info.uid}, not to this user (${uid}); remove it`);
    if (uid !== undefined && (info.mode & 0o077) !== 0) await handle.chmod(PRIVATE_FILE);
    await handle.appendFile(text, "utf8");
  } finally {
    await handle.close();
  }
}

function notRegular(path: string, why = "is not a regular file"): Error {
  return Object.assign(new Error(`"${path}" ${why}`), { code: "ENOTREGULAR" });
}

async function makePrivateDirectory(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error; // a file in the way: refused below
  });
  const info = await lstat(path);
  if (info.isSymbolicLink() || !info.isDirectory()) {
    throw unsafe(`"${path}" is a symbolic link or a file, not a directory of its own; remove it`);
  }
  const uid = process.getuid?.();
  if (uid === undefined) return; // Windows: the per-user profile directory is already private
  if (info.uid !== uid) throw unsafe(`"${path}" belongs to user ${info.uid}, not to this user (${uid}); remove it`);
  if ((info.mode & 0o077) !== 0) await chmod(path, 0o700);
}

function unsafe(message: string): Error {
  return Object.assign(new Error(message), { code: "EUNSAFE" });
}

let publishCounter = 0;

/**
 * Writes the bytes to a private sibling, then hard-links it to `path` (link fails with EEXIST when
 * `path` exists), so the file appears whole or not at all: another process reading a lock file
 * between "created" and "written" would otherwise see it empty and take it for stale.
 */
async function publishNewFile(path: string, bytes: Uint8Array | string): Promise<void> {
  const draft = join(dirname(path), `.${basename(path)}.${process.pid}-${++publishCounter}.draft`);
  try {
    await writeFile(draft, bytes, { flag: "wx", mode: PRIVATE_FILE });
    await link(draft, path);
  } finally {
    // Also when the write failed half-way (a full disk): no half-written draft stays behind.
    await unlink(draft).catch(() => {});
  }
}
