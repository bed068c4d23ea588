/**
 * Where the harness keeps files (SPEC §2, §7). Artifacts: the configured directory (--artifacts or
 * ANDROID_MCP_ARTIFACTS_DIR, read and validated by config.ts only), else `./artifacts` when the working
 * directory is a project (it has a package.json or .git, and is neither `/` nor the home directory) and
 * writable, else the user's state directory (MCP clients often start servers in `/` or `~`): never a stray
 * `artifacts/` there. The state directory: `$XDG_STATE_HOME/android-mcp-harness`, `~/.local/state/…`,
 * `~/Library/Application Support/…`, `%LOCALAPPDATA%\…`. Device locks: one place per user and machine that
 * no environment variable moves (`/tmp/android-mcp-harness-<uid>`; Windows: the profile's AppData\Local), so
 * every harness process of the user meets there; never under artifacts. Each answer says which rule chose it.
 */
import { userInfo } from "node:os";
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
export async function resolveArtifactsDirectory(facts: PlatformFacts, fs: ArtifactsDisk,
  configured?: ConfiguredDirectory): Promise<ChosenDirectory> {
  if (configured !== undefined) {
    const path = resolve(facts.cwd, configured.path);
    const source = configured.source;
    if (!(await fs.isWritableDirectory(path))) {
      throw new HarnessError("EVIDENCE_WRITE_FAILED",
        `The artifacts directory "${path}" (from ${source}) cannot be created or written (not a directory, no permission, or a file system that refuses new files); fix that or point ${source} elsewhere.`);
    }
    return { path, reason: `set by ${source}` };
  }
  const local = resolve(facts.cwd, "artifacts");
  const marker = await projectMarker(facts, fs);
  if (marker !== null && await fs.isWritableDirectory(local)) return { path: local, reason: `./artifacts in the project (its ${marker})` };
  const state = userStateDirectory(facts);
  const path = join(state.path, "artifacts");
  if (!(await fs.isWritableDirectory(path))) {
    const refused = marker === null ? `"${path}" cannot be written` : `Neither "${local}" nor "${path}" can be written`;
    throw new HarnessError("EVIDENCE_WRITE_FAILED", `${refused}; set ANDROID_MCP_ARTIFACTS_DIR to a writable directory.`);
  }
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
}

/**
 * The directory for device locks, shared by every harness process of this user on this machine whatever its
 * environment: `/tmp/android-mcp-harness-<uid>` on Linux and macOS (machine-local, so a home shared over NFS does
 * not make two machines' emulator-5554 one device; created 0700 and checked to be ours by the lock), and
 * `<profile>\AppData\Local\android-mcp-harness\locks` on Windows.
 */
export function lockDirectory(facts: UserFacts): ChosenDirectory {
  if (facts.platform === "win32" || facts.uid === null) {
    return { path: join(facts.accountHome, "AppData", "Local", APP_DIR_NAME, "locks"), reason: "the user profile's AppData\\Local" };
  }
  return { path: `/tmp/${APP_DIR_NAME}-${facts.uid}`, reason: "this user's lock directory on this machine" };
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
