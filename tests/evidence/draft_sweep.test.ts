import assert from "node:assert/strict";
import { test } from "node:test";
import { DRAFT_MAX_AGE_MS, sweepDrafts } from "../../src/adapters/evidence/draft_sweep.ts";

test("the draft sweep removes only this user's regular drafts at least DRAFT_MAX_AGE_MS old, on the given clock", async () => {
  const now = 1_800_000_000_000;
  const files: Record<string, { regular: boolean; ownedByUs: boolean; modifiedMs: number }> = {
    "/a/.ev.png.12-1.draft": { regular: true, ownedByUs: true, modifiedMs: now - DRAFT_MAX_AGE_MS },
    "/a/.ev.png.12-2.draft": { regular: true, ownedByUs: true, modifiedMs: now - DRAFT_MAX_AGE_MS + 1 }, // a live writer's
    "/a/.ev.png.12-3.draft": { regular: true, ownedByUs: false, modifiedMs: 0 }, // another user's
    "/a/.dir.12-4.draft": { regular: false, ownedByUs: true, modifiedMs: 0 },
    "/a/report.draft": { regular: true, ownedByUs: true, modifiedMs: 0 }, // not a draft's name
    "/locks/.x.lock.99-1.draft": { regular: true, ownedByUs: true, modifiedMs: 0 },
    "/locks/.y.lock.99-2.draft": { regular: true, ownedByUs: true, modifiedMs: 0 }, // cannot be removed
  };
  const removed: string[] = [];
  const fs = {
    listNames: async (dir: string) => {
      if (dir === "/missing") throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
      return Object.keys(files).filter((p) => p.startsWith(`${dir}/`)).map((p) => p.slice(dir.length + 1));
    },
    fileFacts: async (path: string) => files[path] ?? null,
    removeFile: async (path: string) => {
      if (path.endsWith("99-2.draft")) throw Object.assign(new Error("EACCES"), { code: "EACCES" });
      removed.push(path);
    },
  };
  const result = await sweepDrafts({ directories: ["/missing", "/a", "/locks"], fs, nowMs: now });
  assert.deepEqual(removed, ["/a/.ev.png.12-1.draft", "/locks/.x.lock.99-1.draft"]);
  assert.deepEqual(result, { removed: 2, failed: 1 });
});
