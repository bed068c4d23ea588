/**
 * The real FileSystem's directory creation: missing levels are made one at a time, an existing tree is
 * fine, and a place that refuses new directories (a file in the way, /proc) fails at once with the
 * platform's code instead of Node's recursive mkdir looping forever.
 */
import assert from "node:assert/strict";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createNodeFileSystem } from "../../src/adapters/evidence/node_file_system.ts";
import { tempDir } from "./temp_dir.ts";

test("makeDirectory creates every missing level and accepts an existing tree", async (t) => {
  const root = tempDir(t);
  const fs = createNodeFileSystem();
  const deep = join(root, "a", "b", "c");
  await fs.makeDirectory(deep);
  assert.ok(statSync(deep).isDirectory());
  await fs.makeDirectory(deep);
  assert.equal(await fs.isWritableDirectory(join(root, "x", "y")), true);
});

test("makeDirectory fails at once with the platform's code where no directory can be made", async (t) => {
  const root = tempDir(t);
  const fs = createNodeFileSystem();
  writeFileSync(join(root, "file"), "");
  await assert.rejects(fs.makeDirectory(join(root, "file", "sub")), (e: NodeJS.ErrnoException) => e.code === "ENOTDIR");
  assert.equal(await fs.isWritableDirectory(join(root, "file", "sub")), false);
  if (existsSync("/proc/self")) {
    await assert.rejects(fs.makeDirectory("/proc/nope/deeper"), (e: NodeJS.ErrnoException) => e.code === "ENOENT");
    assert.equal(await fs.isWritableDirectory("/proc/nope"), false);
  }
});
