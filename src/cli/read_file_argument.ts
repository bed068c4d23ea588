/**
 * Reads a file a command-line argument names (flow FILE, --scenario, --screen, --screenshot, tree --file) and
 * nothing else, without ever blocking: a FIFO, socket, device or directory is refused at once (a FIFO is
 * opened non-blocking and never read). A symbolic link to a regular file is followed. Throws an Error whose
 * message says what the path is; its `code` is "ENOTREGULAR", or node's ("ENOENT", "EACCES", …). Also the
 * checks of the paths a command writes (--artifacts, --record), made before anything starts.
 */
import { constants } from "node:fs";
import { lstat, open, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { HarnessError } from "../errors.ts";

export async function readFileArgument(path: string): Promise<Uint8Array> {
  refuseUnlessRegular(path, await stat(path));
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    refuseUnlessRegular(path, await handle.stat()); // replaced between the two looks
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

function refuseUnlessRegular(path: string, info: import("node:fs").Stats): void {
  if (info.isFile()) return;
  const kind = info.isFIFO()
    ? "a FIFO (named pipe)"
    : info.isDirectory()
    ? "a directory"
    : info.isSocket()
    ? "a socket"
    : info.isCharacterDevice() || info.isBlockDevice()
    ? "a device"
    : "not a regular file";
  throw Object.assign(new Error(`${path} is ${kind}, not a regular file`), { code: "ENOTREGULAR" });
}

/** What went wrong, for a one-line message: the refusal's own words, else node's code. */
export function unreadableReason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code === "ENOTREGULAR" ? e.message : e.code ?? "unreadable";
}

/**
 * A directory argument (--artifacts) that already exists must be a directory (a FIFO, file or device is refused
 * at once, before anything starts); a missing one is left to its user, which creates it. Throws INVALID_ARGUMENT.
 */
export async function refuseNonDirectory(flag: string, path: string): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (info === null || info.isDirectory()) return;
  const kind = info.isFIFO() ? "a FIFO (named pipe)" : info.isFile() ? "a file" : "not a directory";
  throw new HarnessError("INVALID_ARGUMENT", `${flag}: ${path} is ${kind}, not a directory; name a directory (it is created if missing).`);
}

/**
 * A file argument the command will create (--record) is checked before anything starts: an existing path or a
 * missing directory is refused at once with the words the exclusive create would use (that create still decides).
 */
export async function refuseUncreatable(flag: string, path: string): Promise<void> {
  const existing = await lstat(path).catch(() => null);
  if (existing !== null) {
    throw new HarnessError(
      "INVALID_ARGUMENT",
      `${flag}: cannot create ${path}: it already exists (another server may be recording to it); ${flag} never overwrites a file. Choose another name or delete it.`,
    );
  }
  const directory = await stat(dirname(path)).catch(() => null);
  if (directory === null) {
    throw new HarnessError(
      "INVALID_ARGUMENT",
      `${flag}: cannot create ${path}: its directory does not exist; ${flag} never creates directories. Create it or choose a path in an existing directory.`,
    );
  }
  if (!directory.isDirectory()) {
    throw new HarnessError(
      "INVALID_ARGUMENT",
      `${flag}: cannot create ${path}: a part of its directory path is a file, not a directory; choose a path in a writable directory.`,
    );
  }
}
