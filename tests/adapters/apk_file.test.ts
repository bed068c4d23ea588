/**
 * The APK app_install names (src/adapters/apk/apk_file.ts, binary_manifest.ts): the package and version read from the
 * binary manifest agree with Debian's `aapt dump badging` for an APK built in the test (tests/support/apk_builder.ts)
 * and for a real one (the UiAutomator2 server APK Gradle built); refusals before a byte is copied (too large), the
 * copy private and removed. The aapt checks are skipped with their reason where aapt is not installed.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { MAX_APK_BYTES, prepareApk } from "../../src/adapters/apk/apk_file.ts";
import { readBinaryManifest } from "../../src/adapters/apk/binary_manifest.ts";
import { packagedServerApks } from "../../src/adapters/uia2_direct/server_package.ts";
import { binaryManifest, buildApk } from "../support/apk_builder.ts";
import { rejection } from "../support/outcomes.ts";

const probe = spawnSync("aapt", ["version"], { encoding: "utf8" });
const skip = probe.error === undefined ? false : "aapt is not installed (apt-get install aapt)";
const aapt = (...args: string[]) => spawnSync("aapt", args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }).stdout;
const wait = { timeoutMs: 10_000 };

function inFolder(body: (dir: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), "apk-file-"));
    try {
      await body(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  "the test's APK builder writes what aapt reads: package, version, label and launchable activity",
  { skip },
  inFolder(async (dir) => {
    const path = join(dir, "hello.apk");
    writeFileSync(
      path,
      buildApk({ package: "com.example.hello", versionCode: 7, versionName: "1.2.3", label: "Hello", launcherActivity: ".Main" }),
    );
    assert.match(aapt("dump", "badging", path), /^package: name='com\.example\.hello' versionCode='7' versionName='1\.2\.3'/m);
    assert.match(aapt("dump", "badging", path), /^launchable-activity: name='com\.example\.hello\.Main'/m);
    assert.match(aapt("dump", "xmltree", path, "AndroidManifest.xml"), /A: android:label\(0x01010001\)="Hello"/);
  }),
);

test(
  "prepareApk reads the package and version aapt reads, from a built APK and from a real one",
  { skip },
  inFolder(async (dir) => {
    const built = join(dir, "hello.apk");
    writeFileSync(built, buildApk({ package: "com.example.hello", versionCode: 7, versionName: "1.2.3" }));
    for (const path of [built, packagedServerApks().server]) {
      const apk = await prepareApk(path, wait);
      try {
        const badging = /^package: name='([^']*)' versionCode='([^']*)' versionName='([^']*)'/m.exec(aapt("dump", "badging", path))!;
        assert.deepEqual([apk.packageName, String(apk.versionCode), apk.versionName], badging.slice(1), path);
        assert.equal(apk.bytes, statSync(path).size);
        assert.equal(statSync(apk.file).mode & 0o777, 0o600, "the copy is this user's alone");
        assert.match(apk.file, /\/app\.apk$/, "adb installs only a file named .apk");
      } finally {
        await apk.dispose();
      }
      assert.throws(() => statSync(apk.file), /ENOENT/, "dispose removes the copy");
    }
  }),
);

test("the manifest reader takes the application's label when it is a string, and refuses what is not binary XML", () => {
  assert.deepEqual(readBinaryManifest(binaryManifest({ package: "com.example.a", label: "A app" })), {
    packageName: "com.example.a",
    label: "A app",
  });
  assert.throws(() => readBinaryManifest(new TextEncoder().encode("<manifest package='x'/>")), /not compiled binary XML/);
});

test(
  "an APK over the size limit is refused from its size, saying the limit, before a byte is copied",
  inFolder(async (dir) => {
    const huge = join(dir, "huge.apk");
    writeFileSync(huge, "");
    truncateSync(huge, MAX_APK_BYTES + 1); // sparse: no disk used
    const error = await rejection(prepareApk(huge, wait));
    assert.equal(error.code, "INVALID_ARGUMENT");
    assert.match(
      error.message,
      new RegExp(`is ${MAX_APK_BYTES + 1} bytes: an APK for app_install is at most 1024 MiB; install a larger one with adb install`),
    );
  }),
);

test(
  "an APK whose manifest names no valid package is refused",
  inFolder(async (dir) => {
    const path = join(dir, "bad.apk");
    writeFileSync(path, buildApk({ package: "not a package" }));
    const error = await rejection(prepareApk(path, wait));
    assert.match(error.message, /is not an APK: its manifest names "not a package", which is not a valid package name/);
  }),
);
