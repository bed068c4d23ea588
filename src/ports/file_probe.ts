/**
 * Port: the read-mostly questions `doctor` asks the filesystem — what is at a path, whether a file can be
 * created in a directory (an empty probe file, removed at once), and the free space. Nothing else is
 * written. Never throws: unknown answers are "missing", an error code, or null.
 */
export type PathKind = "file" | "directory" | "missing";

export interface FileProbe {
  kindOf(path: string): Promise<PathKind>;
  /** A regular file this user may execute. */
  isExecutable(path: string): Promise<boolean>;
  /** Creates and removes an empty file in an existing directory: null when that worked, else the error code ("EACCES", "EROFS", …). */
  probeWrite(directory: string): Promise<string | null>;
  /** Bytes this user can still write on the filesystem holding `path`; null when unknown. */
  freeBytes(path: string): Promise<number | null>;
}
