/**
 * Reads a file a command-line argument names (flow FILE, --scenario, --screen, --screenshot, tree --file) and
 * nothing else, without ever blocking: a FIFO, socket, device or directory is refused at once (a FIFO is
 * opened non-blocking and never read). A symbolic link to a regular file is followed. Throws an Error whose
 * message says what the path is; its `code` is "ENOTREGULAR", or node's ("ENOENT", "EACCES", …).
 */
import { constants } from "node:fs";
import { open, stat } from "node:fs/promises";

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
