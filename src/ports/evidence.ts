/**
 * Port: the evidence store, the audit log and the device lock (SPEC §7).
 * Evidence ids have exactly the form `YYYYMMDD-HHMMSS-ffffff-<tool>[-N].png` (a screen recording `.mp4`); paths are absolute.
 */
import type { DeviceAccess } from "../../contracts/tools.ts";
import type { ErrorCode } from "../../contracts/error_codes.ts";

export interface EvidenceRef {
  artifact_id: string;
  path: string;
  uri: string;
}

export interface EvidenceStore {
  readonly directory: string;
  /** Checks the PNG is decodable and not one flat colour, then writes it. Throws EVIDENCE_WRITE_FAILED. */
  savePng(tool: string, png: Uint8Array): Promise<EvidenceRef>;
  /**
   * Claims a new id for a PNG still to be taken (an act's, named in its answer before the capture ends): an empty
   * placeholder holds the name, which is neither served nor listed until `savePngAs` fills it. Throws EVIDENCE_WRITE_FAILED.
   */
  reservePng(tool: string): Promise<EvidenceRef>;
  /**
   * Writes the PNG under a reserved id, checked as savePng does; on failure (also of the capture it is given, a
   * screenshot that failed or hung) the placeholder goes, so no empty file stays. Throws EVIDENCE_WRITE_FAILED.
   */
  savePngAs(ref: EvidenceRef, png: Uint8Array | Promise<Uint8Array>): Promise<void>;
  /** Checks the bytes are an MP4 (an `ftyp` box first) within MAX_VIDEO_BYTES, then writes them. Throws EVIDENCE_WRITE_FAILED. */
  saveVideo(tool: string, mp4: Uint8Array): Promise<EvidenceRef>;
  /** Resolves an `artifact://` id to its file; null for anything not of the issued form or outside the directory. */
  resolve(id: string): Promise<{ path: string; bytes: Uint8Array; mimeType: "image/png" | "video/mp4" } | null>;
  listRecent(limit: number): Promise<EvidenceRef[]>;
}

export interface AuditRecord {
  ts: string;
  operation_id: string;
  tool: string;
  /** Arguments with typed text replaced by `{redacted_length: N}`. */
  arguments: Record<string, unknown>;
  /** "ok", the error code, or what cut the call off: "cancelled" (the client) or "shutdown" (the harness stopping). */
  outcome: AuditOutcome;
  evidence_id: string | null;
  /** Only when the evidence named was captured behind the answer and could not be stored. */
  evidence_error?: { code: ErrorCode; message: string };
  duration_ms: number;
}

export interface AuditLog {
  append(record: AuditRecord): Promise<void>;
}

export interface DeviceLease {
  release(): Promise<void>;
  /** Records when an open UI session holding the lock ends unless used again (another process's EMULATOR_BUSY names it). */
  noteSessionExpiry?(expiresAt: string, appium?: AppiumSessionNote): Promise<void>;
}

/** The Appium session a UI session holds, written into the lock so a takeover after SIGKILL can end it. */
export interface AppiumSessionNote {
  url: string;
  sessionId: string;
}

/** A device as the lock names it: the same serial behind two adb servers is two devices. */
export type AuditOutcome = "ok" | ErrorCode | "cancelled" | "shutdown";

export interface DeviceAddress {
  /** Canonical adb server (DeviceObserver.adbServer), e.g. `tcp:127.0.0.1:5037`. */
  adbServer: string;
  udid: string;
}

/** Who asks for the device: the operation, its tool, the tool's declared device access, the session it names. */
export interface LockOwner {
  operationId: string;
  tool: string;
  /** contracts/tools.ts `device`: how the call meets a UI session holding the device (absent: as an act). */
  access?: Exclude<DeviceAccess, "none">;
  sessionId?: string;
}

export interface DeviceLock {
  /** Acquires at once or throws EMULATOR_BUSY (no queue). Held across processes. */
  acquire(device: DeviceAddress, owner: LockOwner): Promise<DeviceLease>;
}

/** What readRegularFile also refuses (code "ENOTREGULAR"), and how much of the file it reads. */
export interface ReadLimits {
  /** A larger file is refused before it is read. */
  maxBytes?: number;
  /** A file with more than one hard link (another name for it may be anywhere, e.g. /etc/passwd) is refused. */
  singleLink?: boolean;
  /** Read only this many bytes from the start (a signature check). */
  firstBytes?: number;
  /** A file of another user (planted or swapped by her) is refused. */
  ownedByUs?: boolean;
}

/**
 * Port: the few filesystem operations the evidence store, audit log and device lock need, so tests
 * run the real code in temporary directories and nothing else touches the disk. Failures are thrown
 * as the platform's errors (with `code`, e.g. "EEXIST", "ENOENT"); callers translate them.
 */
export interface FileSystem {
  /** Creates the directory and its parents; no error when it exists. */
  makeDirectory(path: string): Promise<void>;
  /**
   * Creates a directory only this user may enter (mode 0700), or checks the one there: a symbolic link, a
   * file, or a directory owned by another user is refused (an error with code "EUNSAFE"); one of ours that
   * others may read is narrowed to 0700.
   */
  makePrivateDirectory(path: string): Promise<void>;
  /** Creates a new file with these bytes, atomically: a reader never sees it empty or partial.
   * Throws an error with code "EEXIST" when it already exists. */
  writeNewFile(path: string, bytes: Uint8Array | string): Promise<void>;
  /** Replaces the file's content atomically (a reader sees the old or the new bytes, never a mix). */
  replaceFile(path: string, bytes: Uint8Array | string): Promise<void>;
  /** Appends to this user's own regular file (created 0600): a symlink is not followed, a file of another user
   * or with several links is refused (code "EUNSAFE"). */
  appendText(path: string, text: string): Promise<void>;
  readBytes(path: string): Promise<Uint8Array>;
  /**
   * Reads a regular file and nothing else, without ever blocking: a symbolic link, FIFO, socket, device or
   * directory at `path` is refused with code "ENOTREGULAR" (a FIFO opened for reading would wait for a writer).
   */
  readRegularFile(path: string, limits?: ReadLimits): Promise<Uint8Array>;
  /** `path` itself (not a link's target) as `device:inode:size:ctime`, or null when nothing is there: tells a file we wrote from one put in its place. */
  fileIdentity(path: string): Promise<string | null>;
  /** What `path` itself is (not a link's target): a regular file, this user's, last modified when; null when nothing is there. */
  fileFacts(path: string): Promise<{ regular: boolean; ownedByUs: boolean; modifiedMs: number } | null>;
  /** True when `path` itself (not a link's target) is a regular file. */
  isRegularFile(path: string): Promise<boolean>;
  readText(path: string): Promise<string>;
  /** The canonical absolute path (symlinks resolved). */
  realPath(path: string): Promise<string>;
  listNames(directory: string): Promise<string[]>;
  removeFile(path: string): Promise<void>;
  /** True when a file can be created in the directory (it is created when missing). */
  isWritableDirectory(path: string): Promise<boolean>;
}
