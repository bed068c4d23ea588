/**
 * Reads a file a command-line argument names (flow FILE, --scenario, --screen, --screenshot, tree --file) and
 * nothing else, without ever blocking: a FIFO, socket, device or directory is refused at once (a FIFO is
 * opened non-blocking and never read), and so is a regular file larger than its kind's limit (FILE_LIMITS),
 * from its size, before a byte is read (issue 25: a 1.5 GB file cost GBs of memory before its refusal). A
 * symbolic link to a regular file is followed. Throws an Error whose message says what the path is; its `code`
 * is "ENOTREGULAR" (refused: not a regular file, or too large), or node's ("ENOENT", "EACCES", …).
 */
import { constants } from "node:fs";
import { open, stat } from "node:fs/promises";
import { nonRegularKind } from "../file_kind.ts";

const MIB = 1024 * 1024;

/** The largest file of each kind a command reads; none comes near it in use. */
export const FILE_LIMITS = {
  flow: { maxBytes: 4 * MIB, noun: "a flow file" },
  scenario: { maxBytes: 16 * MIB, noun: "a scenario file" },
  /** screen/parse_dump.ts MAX_DUMP_BYTES: the largest dump the screen model parses. */
  dump: { maxBytes: 50 * MIB, noun: "a UI dump" },
  screenDump: { maxBytes: 50 * MIB, noun: "a screen dump" },
  /** The evidence store's MAX_EVIDENCE_BYTES. */
  screenshot: { maxBytes: 32 * MIB, noun: "a screenshot" },
} as const;

export interface FileLimit {
  maxBytes: number;
  /** What the file is, for the refusal ("a flow file"). */
  noun: string;
}

export async function readFileArgument(path: string, limit: FileLimit): Promise<Uint8Array> {
  refuseUnlessRegular(path, await stat(path), limit);
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    refuseUnlessRegular(path, await handle.stat(), limit); // replaced between the two looks
    const bytes = new Uint8Array(await handle.readFile());
    if (bytes.length > limit.maxBytes) refuseSize(path, bytes.length, limit); // grew while it was read
    return bytes;
  } finally {
    await handle.close();
  }
}

function refuseUnlessRegular(path: string, info: import("node:fs").Stats, limit: FileLimit): void {
  const kind = nonRegularKind(info);
  if (kind !== null) throw Object.assign(new Error(`${path} is ${kind}, not a regular file`), { code: "ENOTREGULAR" });
  if (info.size > limit.maxBytes) refuseSize(path, info.size, limit);
}

function refuseSize(path: string, size: number, limit: FileLimit): never {
  throw Object.assign(new Error(`${path} is ${size} bytes: ${limit.noun} is at most ${limit.maxBytes / MIB} MiB`), { code: "ENOTREGULAR" });
}

/** What went wrong, for a one-line message: the refusal's own words, else node's code. */
export function unreadableReason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code === "ENOTREGULAR" ? e.message : e.code ?? "unreadable";
}
