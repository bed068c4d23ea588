/**
 * Artifacts retention on a real directory: evidence older than the configured days is removed at
 * start-up, judged by the time in its id; the audit log, reports and foreign files are kept; 0 keeps all.
 */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { evidenceId, evidenceTimeMs } from "../../src/adapters/evidence/evidence_id.ts";
import { pruneOldEvidence } from "../../src/adapters/evidence/evidence_retention.ts";
import { createNodeFileSystem } from "../../src/adapters/evidence/node_file_system.ts";
import { tempDir } from "./temp_dir.ts";

const NOW = Date.UTC(2026, 10, 30, 12, 0, 0);
const DAY = 24 * 60 * 60 * 1000;
const taken = (daysAgo: number, tool = "ui_tap") => evidenceId((NOW - daysAgo * DAY) * 1000, tool);

test("evidenceTimeMs reads the capture time back from an id, to the millisecond; null for anything else", () => {
  const micros = Date.UTC(2026, 10, 29, 23, 16, 22, 282) * 1000 + 673;
  assert.equal(evidenceTimeMs(evidenceId(micros, "ui_tap", 2)), Date.UTC(2026, 10, 29, 23, 16, 22, 282));
  assert.equal(evidenceTimeMs("audit.jsonl"), null);
});

test("evidence older than the retention is removed; younger evidence, the audit log, reports and other files stay", async (t) => {
  const dir = tempDir(t);
  const old = [taken(15), taken(400, "ui_screenshot")];
  const young = [taken(13), taken(0), taken(13.9, "device_back")];
  for (const name of [...old, ...young, "audit.jsonl", "notes.txt", "20250101-old-but-not-ours.png"]) writeFileSync(join(dir, name), "x");
  mkdirSync(join(dir, "reports"));
  writeFileSync(join(dir, "reports", "20250101-000000-login.json"), "{}");
  const result = await pruneOldEvidence({ directory: dir, fs: createNodeFileSystem(), nowMs: NOW, maxAgeDays: 14 });
  assert.deepEqual(result, { removed: 2, failed: 0 });
  assert.deepEqual(readdirSync(dir).sort(), [...young, "20250101-old-but-not-ours.png", "audit.jsonl", "notes.txt", "reports"].sort());
  assert.deepEqual(readdirSync(join(dir, "reports")), ["20250101-000000-login.json"]);
});

test("0 days keeps everything; a missing directory is nothing to prune; a file that cannot be removed is counted, not thrown", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, taken(100)), "x");
  assert.deepEqual(await pruneOldEvidence({ directory: dir, fs: createNodeFileSystem(), nowMs: NOW, maxAgeDays: 0 }), {
    removed: 0,
    failed: 0,
  });
  assert.equal(readdirSync(dir).length, 1);
  assert.deepEqual(await pruneOldEvidence({ directory: join(dir, "absent"), fs: createNodeFileSystem(), nowMs: NOW, maxAgeDays: 14 }), {
    removed: 0,
    failed: 0,
  });
  const refusing = {
    ...createNodeFileSystem(),
    removeFile: async () => {
      throw Object.assign(new Error("EACCES"), { code: "EACCES" });
    },
  };
  assert.deepEqual(await pruneOldEvidence({ directory: dir, fs: refusing, nowMs: NOW, maxAgeDays: 14 }), { removed: 0, failed: 1 });
});
