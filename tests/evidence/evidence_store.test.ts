import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { test, type TestContext } from "node:test";
import { EVIDENCE_ID, evidenceId, isEvidenceId, toolSlug } from "../../src/adapters/evidence/evidence_id.ts";
import { createEvidenceStore } from "../../src/adapters/evidence/evidence_store.ts";
import { createNodeFileSystem } from "../../src/adapters/evidence/node_file_system.ts";
import { HarnessError } from "../../src/errors.ts";
import { flatPng, makePng, stripedPng } from "../png/png_samples.ts";
import { tempDir } from "./temp_dir.ts";

const clock = { now: () => Date.UTC(2026, 10, 29, 23, 16, 22, 282), sleep: async () => {} };
const MICROS = Date.UTC(2026, 10, 29, 23, 16, 22, 282) * 1000 + 673;

test("evidence ids: UTC timestamp with microseconds, tool with dashes, exact form only", () => {
  assert.equal(evidenceId(MICROS, "ui_tap"), "20261129-231622-282673-ui-tap.png");
  assert.equal(evidenceId(MICROS, "ui_tap", 1), "20261129-231622-282673-ui-tap-2.png");
  assert.equal(toolSlug("UI_Type_Text"), "ui-type-text");
  assert.equal(toolSlug("../.."), "capture");
  for (const good of ["20261129-231622-282673-ui-tap.png", "20261129-231622-282673-ui-screenshot-3.png"]) {
    assert.ok(isEvidenceId(good), good);
  }
  for (
    const bad of [
      "../x",
      "/etc/passwd",
      "..%2f..%2fetc%2fpasswd",
      "20261129-231622-282673-ui-tap.png/../../x",
      "%2e%2e/20261129-231622-282673-ui-tap.png",
      "20261129-231622-282673-ui_tap.png",
      "20261129-231622-28267-ui-tap.png",
      "20261129-231622-282673-ui-tap.PNG",
      "20261129-231622-282673-.png",
      "20261129-231622-282673-ui-tap.png\n",
      "audit.jsonl",
    ]
  ) {
    assert.ok(!isEvidenceId(bad), bad);
    assert.doesNotMatch(bad, EVIDENCE_ID);
  }
});

test("savePng writes the PNG under an absolute path with its artifact:// uri", async (t) => {
  const dir = tempDir(t);
  const store = createEvidenceStore({ directory: dir, fs: createNodeFileSystem(), clock, nowMicros: () => MICROS });
  const png = stripedPng();
  const ref = await store.savePng("ui_screenshot", png);
  assert.deepEqual(ref, {
    artifact_id: "20261129-231622-282673-ui-screenshot.png",
    path: join(dir, "20261129-231622-282673-ui-screenshot.png"),
    uri: "artifact://20261129-231622-282673-ui-screenshot.png",
  });
  assert.ok(isAbsolute(ref.path));
  assert.deepEqual(new Uint8Array(readFileSync(ref.path)), png);
});

test("a reserved PNG is filled by its capture, and a capture that fails or a blank one leaves no empty placeholder behind", async (t) => {
  const dir = tempDir(t);
  const store = createEvidenceStore({ directory: dir, fs: createNodeFileSystem(), clock, nowMicros: () => MICROS });
  const filled = await store.reservePng("ui_tap");
  assert.equal(readFileSync(filled.path).length, 0, "the placeholder holds the name");
  await store.savePngAs(filled, Promise.resolve(stripedPng()));
  assert.deepEqual(new Uint8Array(readFileSync(filled.path)), stripedPng());
  const hung = await store.reservePng("device_back");
  const timedOut = new HarnessError("OPERATION_TIMEOUT", "screencap did not answer within 2.5 s");
  await assert.rejects(store.savePngAs(hung, Promise.reject(timedOut)), (error) => error === timedOut);
  assert.equal(existsSync(hung.path), false, "a capture that failed removes its placeholder");
  const blank = await store.reservePng("ui_scroll");
  await assert.rejects(store.savePngAs(blank, flatPng()), (error: HarnessError) => error.code === "EVIDENCE_WRITE_FAILED");
  assert.equal(existsSync(blank.path), false);
  assert.deepEqual(readdirSync(dir), [filled.artifact_id]);
});

test("two captures in the same microsecond, even from two stores at once, get two files (R23)", async (t) => {
  const dir = tempDir(t);
  const fs = createNodeFileSystem();
  const a = createEvidenceStore({ directory: dir, fs, clock, nowMicros: () => MICROS });
  const b = createEvidenceStore({ directory: dir, fs, clock, nowMicros: () => MICROS });
  const refs = await Promise.all([
    a.savePng("ui_screenshot", stripedPng()),
    b.savePng("ui_screenshot", stripedPng()),
    a.savePng("ui_screenshot", stripedPng()),
  ]);
  const ids = refs.map((r) => r.artifact_id).sort();
  assert.deepEqual(ids, [
    "20261129-231622-282673-ui-screenshot-2.png",
    "20261129-231622-282673-ui-screenshot-3.png",
    "20261129-231622-282673-ui-screenshot.png",
  ]);
  assert.equal(readdirSync(dir).length, 3);
});

test("with the real clock, consecutive captures have distinct, increasing ids", async (t) => {
  const store = createEvidenceStore({
    directory: tempDir(t),
    fs: createNodeFileSystem(),
    clock: { now: () => Date.now(), sleep: async () => {} },
  });
  const first = await store.savePng("ui_screenshot", stripedPng());
  const second = await store.savePng("ui_screenshot", stripedPng());
  assert.notEqual(first.artifact_id, second.artifact_id);
  assert.ok(isEvidenceId(first.artifact_id) && isEvidenceId(second.artifact_id));
});

test("a one-colour screenshot is EVIDENCE_WRITE_FAILED and leaves no file", async (t) => {
  const dir = tempDir(t);
  const store = createEvidenceStore({ directory: dir, fs: createNodeFileSystem(), clock });
  await assert.rejects(
    store.savePng("ui_screenshot", flatPng()),
    (e: unknown) => e instanceof HarnessError && e.code === "EVIDENCE_WRITE_FAILED",
  );
  await assert.rejects(store.savePng("ui_screenshot", new Uint8Array([1, 2, 3])), /not a PNG/);
  assert.deepEqual(existsSync(dir) ? readdirSync(dir) : [], []);
});

test("an unwritable directory is EVIDENCE_WRITE_FAILED naming ANDROID_MCP_ARTIFACTS_DIR", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, "file"), "");
  const store = createEvidenceStore({ directory: join(dir, "file", "sub"), fs: createNodeFileSystem(), clock });
  await assert.rejects(
    store.savePng("ui_tap", stripedPng()),
    (e: unknown) => e instanceof HarnessError && e.code === "EVIDENCE_WRITE_FAILED" && /ANDROID_MCP_ARTIFACTS_DIR/.test(e.message),
  );
});

test("resolve serves issued ids only; traversal, absolute, encoded and unknown ids are null", async (t) => {
  const root = tempDir(t);
  const dir = join(root, "artifacts");
  mkdirSync(dir);
  writeFileSync(join(root, "secret.png"), "secret");
  const store = createEvidenceStore({ directory: dir, fs: createNodeFileSystem(), clock, nowMicros: () => MICROS });
  const ref = await store.savePng("ui_tap", stripedPng());
  const found = await store.resolve(ref.artifact_id);
  assert.equal(found?.path, join(dir, ref.artifact_id));
  assert.deepEqual(found?.bytes, stripedPng());
  for (
    const bad of [
      "../secret.png",
      join(root, "secret.png"),
      "..%2fsecret.png",
      "%2e%2e%2fsecret.png",
      "....//secret.png",
      "20261129-231622-282673-ui-tap.png/..",
      "20261129-000000-000000-ui-tap.png",
      "audit.jsonl",
      "",
    ]
  ) {
    assert.equal(await store.resolve(bad), null, bad);
  }
  // A symlink that has the issued form but points outside the directory is refused too.
  const sneaky = "20261129-000000-000001-ui-tap.png";
  symlinkSync(join(root, "secret.png"), join(dir, sneaky));
  assert.equal(await store.resolve(sneaky), null);
});

test("listRecent: newest first, only evidence files, limited", async (t) => {
  const dir = tempDir(t);
  let micros = MICROS;
  const store = createEvidenceStore({ directory: dir, fs: createNodeFileSystem(), clock, nowMicros: () => (micros += 1_000_000) });
  const a = await store.savePng("ui_tap", stripedPng());
  const b = await store.savePng("ui_scroll", stripedPng());
  const c = await store.savePng("device_back", stripedPng());
  writeFileSync(join(dir, "audit.jsonl"), "{}\n");
  assert.deepEqual((await store.listRecent(2)).map((r) => r.artifact_id), [c.artifact_id, b.artifact_id]);
  assert.deepEqual((await store.listRecent(10)).map((r) => r.uri), [c.uri, b.uri, a.uri]);
  const empty = createEvidenceStore({ directory: join(dir, "missing"), fs: createNodeFileSystem(), clock });
  assert.deepEqual(await empty.listRecent(5), []);
});

test("only regular files are served or listed: a FIFO, a symlink (inside or out) or a directory with an evidence name is not (R10)", async (t) => {
  const dir = tempDir(t);
  const store = createEvidenceStore({
    directory: dir,
    fs: createNodeFileSystem(),
    clock: { now: () => Date.UTC(2026, 10, 29), sleep: async () => {} },
  });
  const real = await store.savePng("ui_screenshot", stripedPng());
  const name = (n: number) => `2099010${n}-000000-000000-ui-screenshot.png`;
  execFileSync("mkfifo", [join(dir, name(1))]);
  symlinkSync(real.path, join(dir, name(2)));
  symlinkSync("/etc/hostname", join(dir, name(3)));
  mkdirSync(join(dir, name(4)));
  for (const n of [1, 2, 3, 4]) assert.equal(await store.resolve(name(n)), null, name(n));
  assert.deepEqual((await store.listRecent(10)).map((r) => r.artifact_id), [real.artifact_id]);
  assert.ok((await store.resolve(real.artifact_id)) !== null);
});

/** A 32 KiB tmpfs mounted for the test (root only), or the reason this machine cannot mount one. */
function tinyDisk(t: TestContext): string | { skip: string } {
  if (process.platform !== "linux") return { skip: `mounting a 32 KiB tmpfs needs Linux (this is ${process.platform})` };
  if (process.getuid?.() !== 0) return { skip: "mounting a 32 KiB tmpfs needs root (run as root, as CI does)" };
  const dir = mkdtempSync(join(tmpdir(), "amh-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=32k", "tmpfs", dir], { stdio: "ignore" });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `mount -t tmpfs was refused (${(error as Error).message.split("\n")[0]}): the sandbox lacks the mount capability` };
  }
  t.after(() => {
    execFileSync("umount", [dir], { stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

test("a full disk: the screenshot is EVIDENCE_WRITE_FAILED saying so, and no half-written file is left (R26)", async (t) => {
  const dir = tinyDisk(t);
  if (typeof dir !== "string") return t.skip(dir.skip);
  const store = createEvidenceStore({
    directory: dir,
    fs: createNodeFileSystem(),
    clock: { now: () => Date.UTC(2026, 10, 29), sleep: async () => {} },
  });
  const noise = randomBytes(200 * 200 * 3);
  const big = makePng(200, 200, (x, y) => [noise[(y * 200 + x) * 3]!, noise[(y * 200 + x) * 3 + 1]!, noise[(y * 200 + x) * 3 + 2]!, 255]);
  assert.ok(big.length > 40_000, `a PNG larger than the disk (${big.length} bytes)`);
  await assert.rejects(
    store.savePng("ui_screenshot", big),
    (e: unknown) =>
      e instanceof HarnessError && e.code === "EVIDENCE_WRITE_FAILED" && /ENOSPC|no space/i.test(e.message) &&
      /free disk space/.test(e.message),
  );
  assert.deepEqual(readdirSync(dir), [], "no draft and no partial PNG left");
  assert.ok((await store.savePng("ui_screenshot", stripedPng())).artifact_id, "a small one still fits");
});

test("a screen recording is kept as `…-screen-record.mp4` and served as video/mp4 with a PNG's checks: what is not an MP4 is refused", async (t) => {
  const dir = tempDir(t);
  const store = createEvidenceStore({ directory: dir, fs: createNodeFileSystem(), clock, nowMicros: () => MICROS });
  // The first box of an ISO media file is `ftyp`; a finished one has its `moov` (what is inside is no concern here).
  const mp4 = Uint8Array.from([0, 0, 0, 16, ...Buffer.from("ftypisom"), 0, 0, 2, 0, 0, 0, 0, 12, ...Buffer.from("moov"), 1, 2, 3, 4]);
  const ref = await store.saveVideo("screen_record", mp4);
  assert.equal(ref.artifact_id, "20261129-231622-282673-screen-record.mp4");
  assert.deepEqual(await store.resolve(ref.artifact_id), { path: ref.path, bytes: mp4, mimeType: "video/mp4" });
  assert.deepEqual((await store.listRecent(10)).map((r) => r.artifact_id), [ref.artifact_id]);
  for (const bad of [new Uint8Array(), stripedPng(), Buffer.from("cat: /data/local/tmp/amh-rec-1.mp4: No such file or directory\n")]) {
    await assert.rejects(
      store.saveVideo("screen_record", bad),
      (e: HarnessError) => e.code === "EVIDENCE_WRITE_FAILED" && /no complete MP4/.test(e.message),
    );
  }
  // A PNG under an .mp4 name, an MP4 under a .png name, a symlink to a recording: none is served or listed.
  writeFileSync(join(dir, "20990101-000000-000000-screen-record.mp4"), stripedPng());
  writeFileSync(join(dir, "20990102-000000-000000-ui-screenshot.png"), mp4);
  symlinkSync(ref.path, join(dir, "20990103-000000-000000-screen-record.mp4"));
  for (
    const id of [
      "20990101-000000-000000-screen-record.mp4",
      "20990102-000000-000000-ui-screenshot.png",
      "20990103-000000-000000-screen-record.mp4",
    ]
  ) {
    assert.equal(await store.resolve(id), null, id);
  }
  assert.deepEqual((await store.listRecent(10)).map((r) => r.artifact_id), [ref.artifact_id]);
  assert.ok(isEvidenceId("20261129-231622-282673-screen-record-2.mp4"));
  assert.ok(!isEvidenceId("20261129-231622-282673-screen-record.mp4.png.txt"));
});

test("a screen recording the device left incomplete (no moov, or a box cut short) is refused, not kept as a video", async (t) => {
  const dir = tempDir(t);
  const store = createEvidenceStore({ directory: dir, fs: createNodeFileSystem(), clock, nowMicros: () => MICROS });
  const box = (type: string, body: number[] = []) => [...be32(8 + body.length), ...Buffer.from(type), ...body];
  const ftyp = box("ftyp", [...Buffer.from("isom"), 0, 0, 2, 0]);
  // What a screenrecord killed mid-write leaves (MediaMuxer writes moov last), and a file cut by a read limit.
  const unfinished = Uint8Array.from([...ftyp, ...be32(0), ...Buffer.from("mdat"), 1, 2, 3, 4]);
  const cutShort = Uint8Array.from([...ftyp, ...box("mdat", [1, 2, 3, 4]), ...be32(4096), ...Buffer.from("moov"), 5, 6]);
  const noMoov = Uint8Array.from([...ftyp, ...box("mdat", [1, 2, 3, 4])]);
  for (const [name, bad] of [["unfinished", unfinished], ["cut short", cutShort], ["no moov", noMoov]] as const) {
    await assert.rejects(
      store.saveVideo("screen_record", bad),
      (e: HarnessError) => e.code === "EVIDENCE_WRITE_FAILED" && /no complete MP4/.test(e.message),
      name,
    );
  }
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith(".mp4")), [], "none kept");
  const whole = Uint8Array.from([...ftyp, ...box("mdat", [1, 2, 3, 4]), ...box("moov", [5, 6])]);
  assert.ok((await store.saveVideo("screen_record", whole)).artifact_id.endsWith("-screen-record.mp4"));
});

function be32(n: number): number[] {
  return [n >>> 24 & 255, n >>> 16 & 255, n >>> 8 & 255, n & 255];
}
