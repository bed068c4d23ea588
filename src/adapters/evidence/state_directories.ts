/**
 * Where the harness keeps files (SPEC §2, §7). Artifacts: the configured directory (--artifacts or
 * ANDROID_MCP_ARTIFACTS_DIR, read and validated by config.ts only), else `./artifacts` when the working
 * directory is a project (it has a package.json or .git, and is neither `/` nor the home directory) and
 * writable, else the user's state directory (MCP clients often start servers in `/` or `~`): never a stray
 * `artifacts/` there. The state directory: `$XDG_STATE_HOME/android-mcp-harness`, `~/.local/state/…`,
 * `~/Library/Application Support/…`, `%LOCALAPPDATA%\…`. Device locks: one place per user and machine that
 * no environment variable moves and no other user can squat (see lockDirectory), so every harness process of
 * the user meets there; never under artifacts. Each answer says which rule chose it. An artifacts directory another
 * local user owns or can write is refused whichever rule chose it (issue 25: she could plant `audit.jsonl` as a
 * symlink or swap an evidence PNG): `othersCanWrite`.
 */
import { lstatSync, statSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { HarnessError } from "../../errors.ts";
import type { FileSystem } from "../../ports/evidence.ts";

export const APP_DIR_NAME = "android-mcp-harness";

export interface PlatformFacts {
  platform: string;
  homeDir: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

export interface ChosenDirectory {
  path: string;
  reason: string;
}

export function userStateDirectory(facts: PlatformFacts): ChosenDirectory {
  const { env, platform, homeDir } = facts;
  if (platform === "win32") {
    const base = env["LOCALAPPDATA"] || join(homeDir, "AppData", "Local");
    return { path: join(base, APP_DIR_NAME), reason: env["LOCALAPPDATA"] ? "%LOCALAPPDATA%" : "~\\AppData\\Local" };
  }
  if (platform === "darwin") {
    return { path: join(homeDir, "Library", "Application Support", APP_DIR_NAME), reason: "~/Library/Application Support" };
  }
  const xdg = env["XDG_STATE_HOME"];
  if (xdg !== undefined && isAbsolute(xdg)) return { path: join(xdg, APP_DIR_NAME), reason: "$XDG_STATE_HOME" };
  return { path: join(homeDir, ".local", "state", APP_DIR_NAME), reason: "~/.local/state" };
}

/** A directory the configuration names, and which flag or variable named it (for messages). */
export interface ConfiguredDirectory {
  path: string;
  source: string;
}

/** What the choice asks of the disk: `isWritableDirectory` may create the directory (doctor's does not). */
export interface ArtifactsDisk extends Pick<FileSystem, "isWritableDirectory"> {
  /** True when something (a file or a directory) is at `path`. */
  exists(path: string): Promise<boolean>;
  /** Why another local user could plant or swap files in this existing directory, or null (othersCanWrite). */
  othersCanWrite?(path: string): Promise<string | null>;
}

/**
 * Why another local user could plant or swap files in the directory at `path` (a link is followed: what counts is
 * the directory written to), as a sentence, or null: it belongs to another user, or its mode lets its group or
 * everyone write it. Null when nothing is there (the harness creates it, 0755 at most) and where the platform
 * has no uids (Windows: the profile's ACLs). `uid` defaults to the process's.
 */
export function othersCanWrite(path: string, uid: number | undefined = process.getuid?.()): string | null {
  if (uid === undefined) return null;
  let info;
  try {
    info = statSync(path);
  } catch {
    return null;
  }
  const mode = `mode 0${(info.mode & 0o777).toString(8)}`;
  if (info.uid !== uid) return `"${path}" belongs to user ${info.uid}, not to this user (${uid})`;
  if ((info.mode & 0o002) !== 0) return `other users can write "${path}" (${mode})`;
  if ((info.mode & 0o020) !== 0) return `its group can write "${path}" (${mode})`;
  return null;
}

/** The refusal of a directory another user could write into, saying what to do. */
async function refuseForeign(disk: ArtifactsDisk, path: string, source: string): Promise<void> {
  const problem = await disk.othersCanWrite?.(path);
  if (problem === undefined || problem === null) return;
  throw new HarnessError(
    "EVIDENCE_WRITE_FAILED",
    `The artifacts directory cannot be used: ${problem}, so another user could plant or swap the audit log and the evidence; ` +
      `make it yours alone (chown, then chmod go-w) or point ${source} at a directory of your own.`,
  );
}

/** What makes the working directory a project whose `./artifacts` is the evidence's home. */
export const PROJECT_MARKERS = ["package.json", ".git"] as const;

/** The marker that makes `cwd` a project, or null (never for `/` or the home directory, whatever is in them). */
export async function projectMarker(facts: PlatformFacts, disk: Pick<ArtifactsDisk, "exists">): Promise<string | null> {
  const cwd = resolve(facts.cwd);
  if (cwd === resolve(cwd, "/") || cwd === resolve(facts.homeDir)) return null;
  for (const marker of PROJECT_MARKERS) if (await disk.exists(join(cwd, marker))) return marker;
  return null;
}

/** Chooses and creates the artifacts directory; throws EVIDENCE_WRITE_FAILED when none is writable.
 * `configured` is HarnessConfig.artifactsDir; the environment is not read for it here. */
export async function resolveArtifactsDirectory(
  facts: PlatformFacts,
  fs: ArtifactsDisk,
  configured?: ConfiguredDirectory,
): Promise<ChosenDirectory> {
  if (configured !== undefined) {
    const path = resolve(facts.cwd, configured.path);
    const source = configured.source;
    if (!(await fs.isWritableDirectory(path))) {
      throw new HarnessError(
        "EVIDENCE_WRITE_FAILED",
        `The artifacts directory "${path}" (from ${source}) cannot be created or written (not a directory, no permission, or a file system that refuses new files); fix that or point ${source} elsewhere.`,
      );
    }
    await refuseForeign(fs, path, source);
    return { path, reason: `set by ${source}` };
  }
  const local = resolve(facts.cwd, "artifacts");
  const marker = await projectMarker(facts, fs);
  if (marker !== null && await fs.isWritableDirectory(local)) {
    await refuseForeign(fs, local, "--artifacts or ANDROID_MCP_ARTIFACTS_DIR");
    return { path: local, reason: `./artifacts in the project (its ${marker})` };
  }
  const state = userStateDirectory(facts);
  const path = join(state.path, "artifacts");
  if (!(await fs.isWritableDirectory(path))) {
    const refused = marker === null ? `"${path}" cannot be written` : `Neither "${local}" nor "${path}" can be written`;
    throw new HarnessError("EVIDENCE_WRITE_FAILED", `${refused}; set ANDROID_MCP_ARTIFACTS_DIR to a writable directory.`);
  }
  await refuseForeign(fs, path, "--artifacts or ANDROID_MCP_ARTIFACTS_DIR");
  const why = marker === null
    ? `the working directory "${facts.cwd}" is not a project (no ${PROJECT_MARKERS.join(" or ")}, or / or the home directory)`
    : `the working directory "${facts.cwd}" is not writable`;
  return { path, reason: `${why}, so the user state directory (${state.reason}); --artifacts or ANDROID_MCP_ARTIFACTS_DIR choose another` };
}

/** Who the process runs as, from the account database (never $HOME or $XDG_*, which two processes may set differently). */
export interface UserFacts {
  platform: string;
  /** null where the platform has no uids (Windows). */
  uid: number | null;
  /** The account's home directory (passwd / the Windows profile). */
  accountHome: string;
  /** This machine's name (a fallback under a home shared over NFS stays per machine); default: node:os hostname. */
  host?: string;
  /** What is at a path, not following a link (default: lstat); null when nothing is there. */
  inspect?: (path: string) => PathFacts | null;
}

export interface PathFacts {
  directory: boolean;
  symlink: boolean;
  uid: number;
  mode: number;
}

/**
 * The directory for device locks, the same for every harness process of this user on this machine whatever its
 * environment, and one another local user cannot squat (issue 18: a root-owned `/tmp/android-mcp-harness-65534`
 * blocked every tool of uid 65534, who cannot remove it from the sticky /tmp). In order:
 * 1. the per-user runtime directory `/run/user/<uid>/android-mcp-harness` when `/run/user/<uid>` is ours and 0700
 *    (what $XDG_RUNTIME_DIR names under systemd; derived from the uid, not read from the variable);
 * 2. `/tmp/android-mcp-harness-<uid>` when nothing is there or it is a directory of ours (machine-local);
 * 3. else (someone else's file or directory is there) `<account home>/.local/state/android-mcp-harness/locks-<host>`
 *    (macOS: `~/Library/Application Support/…`), under the home no other user can write.
 * Windows: `<profile>\AppData\Local\android-mcp-harness\locks`.
 */
export function lockDirectory(facts: UserFacts): ChosenDirectory {
  if (facts.platform === "win32" || facts.uid === null) {
    return { path: join(facts.accountHome, "AppData", "Local", APP_DIR_NAME, "locks"), reason: "the user profile's AppData\\Local" };
  }
  const inspect = facts.inspect ?? inspectPath;
  const ours = (info: PathFacts | null) => info !== null && info.directory && !info.symlink && info.uid === facts.uid;
  const runtime = `/run/user/${facts.uid}`;
  const runtimeFacts = inspect(runtime);
  if (ours(runtimeFacts) && (runtimeFacts!.mode & 0o077) === 0) {
    return { path: join(runtime, APP_DIR_NAME), reason: "this user's runtime directory" };
  }
  const shared = `/tmp/${APP_DIR_NAME}-${facts.uid}`;
  const sharedFacts = inspect(shared);
  if (sharedFacts === null || ours(sharedFacts)) return { path: shared, reason: "this user's lock directory on this machine" };
  const base = facts.platform === "darwin"
    ? join(facts.accountHome, "Library", "Application Support")
    : join(facts.accountHome, ".local", "state");
  const host = (facts.host ?? hostname()).replace(/[^A-Za-z0-9.-]/g, "_") || "localhost";
  return {
    path: join(base, APP_DIR_NAME, `locks-${host}`),
    reason: `${shared} belongs to another user (uid ${sharedFacts.uid}), so this user's home`,
  };
}

function inspectPath(path: string): PathFacts | null {
  try {
    const info = lstatSync(path);
    return { directory: info.isDirectory(), symlink: info.isSymbolicLink(), uid: info.uid, mode: info.mode };
  } catch {
    return null;
  }
}

/** The running process's UserFacts (node:os); the account home falls back to $HOME only when the account has no entry. */
export function currentUserFacts(platform: string, fallbackHome: string): UserFacts {
  try {
    const info = userInfo();
    return { platform, uid: info.uid >= 0 ? info.uid : null, accountHome: info.homedir || fallbackHome };
  } catch {
    const uid = process.getuid?.();
    return { platform, uid: uid === undefined ? null : uid, accountHome: fallbackHome };
  }
}
