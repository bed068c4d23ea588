import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createNodeFileSystem } from "../../src/adapters/evidence/node_file_system.ts";
import {
  currentUserFacts,
  lockDirectory,
  othersCanWrite,
  resolveArtifactsDirectory,
  userStateDirectory,
} from "../../src/adapters/evidence/state_directories.ts";
import { HarnessError } from "../../src/errors.ts";
import { tempDir } from "./temp_dir.ts";

/** The real file system, and whether something is at a path. */
const disk = () => ({ ...createNodeFileSystem(), exists: (path: string) => Promise.resolve(existsSync(path)) });

test("user state directory per platform", () => {
  const facts = (platform: string, env: Record<string, string> = {}) => ({ platform, homeDir: "/home/qa", cwd: "/", env });
  assert.deepEqual(userStateDirectory(facts("linux", { XDG_STATE_HOME: "/xdg/state" })), {
    path: "/xdg/state/android-mcp-harness",
    reason: "$XDG_STATE_HOME",
  });
  assert.deepEqual(userStateDirectory(facts("linux", { XDG_STATE_HOME: "relative" })).path, "/home/qa/.local/state/android-mcp-harness");
  assert.deepEqual(userStateDirectory(facts("linux")).path, "/home/qa/.local/state/android-mcp-harness");
  assert.equal(userStateDirectory(facts("darwin")).path, "/home/qa/Library/Application Support/android-mcp-harness");
  assert.match(
    userStateDirectory(facts("win32", { LOCALAPPDATA: "C:\\Users\\qa\\AppData\\Local" })).path,
    /AppData.Local.android-mcp-harness$/,
  );
});

const nothing = () => null;

test("the lock directory is one place per user and machine, whatever XDG_STATE_HOME or HOME say (R14)", () => {
  assert.deepEqual(lockDirectory({ platform: "linux", uid: 1000, accountHome: "/home/qa", inspect: nothing }), {
    path: "/tmp/android-mcp-harness-1000",
    reason: "this user's lock directory on this machine",
  });
  assert.equal(
    lockDirectory({ platform: "darwin", uid: 501, accountHome: "/Users/qa", inspect: nothing }).path,
    "/tmp/android-mcp-harness-501",
  );
  assert.notEqual(
    lockDirectory({ platform: "linux", uid: 1001, accountHome: "/home/qa", inspect: nothing }).path,
    "/tmp/android-mcp-harness-1000",
  );
  assert.match(
    lockDirectory({ platform: "win32", uid: null, accountHome: "C:\\Users\\qa" }).path,
    /Users.qa.AppData.Local.android-mcp-harness.locks$/,
  );
  // Two processes of one user with different environments get the same directory: it is not derived from the environment.
  const here = currentUserFacts(process.platform, "/nonexistent-home");
  assert.equal(lockDirectory(here).path, lockDirectory(currentUserFacts(process.platform, "/another-home")).path);
});

test("the lock directory cannot be squatted by another user: the runtime directory first, then /tmp if ours, else the home", () => {
  const dir = (uid: number, mode = 0o700) => ({ directory: true, symlink: false, uid, mode });
  const at = (paths: Record<string, ReturnType<typeof dir>>) => (path: string) => paths[path] ?? null;
  const facts = { platform: "linux", uid: 65534, accountHome: "/home/nobody", host: "build-7" };
  assert.equal(lockDirectory({ ...facts, inspect: at({ "/run/user/65534": dir(65534) }) }).path, "/run/user/65534/android-mcp-harness");
  // A runtime directory that is not private, or not ours, is not used.
  assert.equal(lockDirectory({ ...facts, inspect: at({ "/run/user/65534": dir(65534, 0o755) }) }).path, "/tmp/android-mcp-harness-65534");
  assert.equal(lockDirectory({ ...facts, inspect: at({ "/run/user/65534": dir(0) }) }).path, "/tmp/android-mcp-harness-65534");
  assert.equal(
    lockDirectory({ ...facts, inspect: at({ "/tmp/android-mcp-harness-65534": dir(65534) }) }).path,
    "/tmp/android-mcp-harness-65534",
  );
  // root's `mkdir -m755 /tmp/android-mcp-harness-65534` (or a symlink, or a file) does not block uid 65534.
  for (const squat of [dir(0, 0o755), { ...dir(65534), symlink: true, directory: false }, { ...dir(0), directory: false }]) {
    const chosen = lockDirectory({ ...facts, inspect: at({ "/tmp/android-mcp-harness-65534": squat }) });
    assert.equal(chosen.path, "/home/nobody/.local/state/android-mcp-harness/locks-build-7");
  }
  assert.equal(
    lockDirectory({ ...facts, platform: "darwin", inspect: at({ "/tmp/android-mcp-harness-65534": dir(0) }) }).path,
    "/home/nobody/Library/Application Support/android-mcp-harness/locks-build-7",
  );
});

test("artifacts: the configured directory, else ./artifacts in a project, else the state directory, each with its reason", async (t) => {
  const root = tempDir(t);
  const fs = disk();
  const home = join(root, "home");
  const cwd = join(root, "project");
  mkdirSync(cwd);
  writeFileSync(join(cwd, "package.json"), "{}");
  const facts = (env: Record<string, string> = {}, dir = cwd) => ({ platform: "linux", homeDir: home, cwd: dir, env });

  assert.deepEqual(await resolveArtifactsDirectory(facts(), fs, { path: "out/ev", source: "ANDROID_MCP_ARTIFACTS_DIR" }), {
    path: join(cwd, "out", "ev"),
    reason: "set by ANDROID_MCP_ARTIFACTS_DIR",
  });
  assert.deepEqual(await resolveArtifactsDirectory(facts(), fs, { path: join(root, "flag"), source: "--artifacts" }), {
    path: join(root, "flag"),
    reason: "set by --artifacts",
  });
  assert.deepEqual(await resolveArtifactsDirectory(facts(), fs), {
    path: join(cwd, "artifacts"),
    reason: "./artifacts in the project (its package.json)",
  });
  // The variable is config.ts's to read: here it is ignored, whatever it says (blank, or a real path).
  for (const value of ["   ", "elsewhere"]) {
    assert.deepEqual(await resolveArtifactsDirectory(facts({ ANDROID_MCP_ARTIFACTS_DIR: value }), fs), {
      path: join(cwd, "artifacts"),
      reason: "./artifacts in the project (its package.json)",
    }, JSON.stringify(value));
  }

  // An MCP client that starts the server in `/` (not writable): the state directory is used.
  const readOnlyCwd = join(root, "readonly");
  mkdirSync(join(readOnlyCwd, ".git"), { recursive: true });
  const refusing = {
    ...fs,
    isWritableDirectory: (path: string) => path.startsWith(readOnlyCwd) ? Promise.resolve(false) : fs.isWritableDirectory(path),
  };
  const chosen = await resolveArtifactsDirectory(facts({ XDG_STATE_HOME: join(root, "state") }, readOnlyCwd), refusing);
  assert.equal(chosen.path, join(root, "state", "android-mcp-harness", "artifacts"));
  assert.match(chosen.reason, /not writable, so the user state directory \(\$XDG_STATE_HOME\)/);
});

test("artifacts: an explicit directory that cannot be written is refused at once", async (t) => {
  const root = tempDir(t);
  const fs = disk();
  writeFileSync(join(root, "a-file"), "");
  await assert.rejects(
    resolveArtifactsDirectory({ platform: "linux", homeDir: root, cwd: root, env: {} }, fs, {
      path: join(root, "a-file", "x"),
      source: "ANDROID_MCP_ARTIFACTS_DIR",
    }),
    (e: unknown) => e instanceof HarnessError && e.code === "EVIDENCE_WRITE_FAILED" && /ANDROID_MCP_ARTIFACTS_DIR/.test(e.message),
  );
});

const rootReason = process.getuid?.() === 0 ? "running as root: every directory is writable, so a read-only cwd cannot be made" : false;

test("artifacts: a really read-only working directory falls back to the state directory", { skip: rootReason }, async (t) => {
  const root = tempDir(t);
  const cwd = join(root, "ro");
  mkdirSync(cwd);
  writeFileSync(join(cwd, "package.json"), "{}");
  chmodSync(cwd, 0o555);
  try {
    const chosen = await resolveArtifactsDirectory({ platform: "linux", homeDir: root, cwd, env: {} }, disk());
    assert.equal(chosen.path, join(root, ".local", "state", "android-mcp-harness", "artifacts"));
  } finally {
    chmodSync(cwd, 0o755);
  }
});

test("artifacts: a working directory that is not a project, / or the home directory (even with a .git) gets no artifacts/", async (t) => {
  const root = tempDir(t);
  const home = join(root, "home");
  const plain = join(root, "downloads");
  mkdirSync(join(home, ".git"), { recursive: true }); // a dotfiles repository in the home directory
  mkdirSync(plain);
  const state = join(root, "state");
  for (const cwd of [plain, home, "/"]) {
    // The real disk creates what it is asked about; for `/` one that answers without creating anything.
    const real = disk();
    const used = cwd !== "/" ? real : { ...real, isWritableDirectory: (path: string) => Promise.resolve(path.startsWith(state)) };
    const chosen = await resolveArtifactsDirectory({ platform: "linux", homeDir: home, cwd, env: { XDG_STATE_HOME: state } }, used);
    assert.equal(chosen.path, join(state, "android-mcp-harness", "artifacts"), cwd);
    assert.match(
      chosen.reason,
      /is not a project \(no package\.json or \.git, or \/ or the home directory\), so the user state directory \(\$XDG_STATE_HOME\)/,
    );
  }
  assert.deepEqual(readdirSync(plain), [], "nothing created in the plain directory");
  assert.deepEqual(readdirSync(home), [".git"], "nothing created in the home directory");
});

test("artifacts: a directory another user owns or can write is refused, saying what to do; a missing one is not judged", {
  skip: process.platform === "win32" ? "no uids" : false,
}, async (t) => {
  const root = tempDir(t);
  const uid = process.getuid!();
  const dir = join(root, "ev");
  mkdirSync(dir);
  chmodSync(dir, 0o755);
  assert.equal(othersCanWrite(dir, uid), null);
  assert.equal(othersCanWrite(join(root, "missing"), uid), null);
  assert.match(othersCanWrite(dir, uid + 1)!, new RegExp(`belongs to user ${uid}, not to this user \\(${uid + 1}\\)`));
  chmodSync(dir, 0o775);
  assert.match(othersCanWrite(dir, uid)!, /its group can write .* \(mode 0775\)/);
  chmodSync(dir, 0o1777);
  assert.match(othersCanWrite(dir, uid)!, /other users can write .* \(mode 0777\)/);
  const disk = { ...createNodeFileSystem(), exists: async () => true, othersCanWrite: async (path: string) => othersCanWrite(path, uid) };
  await assert.rejects(
    resolveArtifactsDirectory({ platform: "linux", homeDir: root, cwd: root, env: {} }, disk, { path: dir, source: "--artifacts" }),
    (error: HarnessError) =>
      error.code === "EVIDENCE_WRITE_FAILED" && /other users can write/.test(error.message) && /chmod go-w/.test(error.message) &&
      /point --artifacts at a directory of your own/.test(error.message),
  );
});
