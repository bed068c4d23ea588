/**
 * The APKs the direct backend installs are the `appium-uiautomator2-server` package's own files (issue 24): Debian's
 * `aapt dump badging` and `aapt dump xmltree` read their manifests, and the package names, the server's version
 * and the instrumentation (runner and target) are the ones the harness checks for and starts. Skipped, with the
 * reason, where aapt is not installed (`apt-get install aapt`; .ci/run installs it).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import {
  INSTRUMENTATION,
  packagedServerApks,
  SERVER_PACKAGE,
  SERVER_VERSION,
  TEST_PACKAGE,
} from "../../src/adapters/uia2_direct/server_package.ts";

const probe = spawnSync("aapt", ["version"], { encoding: "utf8" });
const skip = probe.error === undefined ? false : "aapt is not installed (apt-get install aapt)";
const aapt = (...args: string[]) => {
  const run = spawnSync("aapt", args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
};

test("the server APK is io.appium.uiautomator2.server at the version the harness compares against", { skip }, () => {
  const badging = aapt("dump", "badging", packagedServerApks().server);
  const head = /^package: name='([^']+)' versionCode='(\d+)' versionName='([^']+)'/m.exec(badging);
  assert.ok(head !== null, badging.slice(0, 200));
  assert.deepEqual([head[1], Number(head[2]), head[3]], [SERVER_PACKAGE, SERVER_VERSION.code, SERVER_VERSION.name]);
});

test("the test APK is io.appium.uiautomator2.server.test and declares the instrumentation the harness starts", { skip }, () => {
  const apk = packagedServerApks().test;
  assert.match(aapt("dump", "badging", apk), new RegExp(`^package: name='${TEST_PACKAGE.replaceAll(".", "\\.")}'`, "m"));
  const manifest = aapt("dump", "xmltree", apk, "AndroidManifest.xml");
  const block = manifest.slice(manifest.indexOf("E: instrumentation"));
  assert.match(block, new RegExp(`android:name\\([^)]*\\)="${INSTRUMENTATION.runner.replaceAll(".", "\\.")}"`));
  assert.match(block, new RegExp(`android:targetPackage\\([^)]*\\)="${SERVER_PACKAGE.replaceAll(".", "\\.")}"`));
  assert.equal(INSTRUMENTATION.testPackage, TEST_PACKAGE);
});
