import assert from "node:assert/strict";
import { test } from "node:test";
import { parsePackageList, parseResolvedActivity } from "../../src/adapters/adb/parse_packages.ts";
import { type DumpOutcome, parseUiautomatorDump } from "../../src/adapters/adb/parse_uiautomator_dump.ts";
import { adbSamplesSkipReason, eachSample, sample } from "./fixture_files.ts";

const skip = adbSamplesSkipReason();

test("pm list packages: all 25 names of the real Xiaomi list, in order", { skip }, () => {
  eachSample("pm-list-packages", { "third-party-xiaomi-first25-lines.txt": 25 }, (text, want) => {
    const names = parsePackageList(text);
    assert.equal(names.length, want);
    assert.equal(names[0], "com.bixpe.chronos");
    assert.equal(names[24], "com.onmobi.nhie");
    assert.ok(names.includes("com.teamliquid.liquipedia.liquipedia_app"));
  });
});

test("pm list packages: CRLF, -f paths and noise lines", () => {
  assert.deepEqual(parsePackageList("package:com.a.b\r\npackage:/data/app/x/base.apk=org.c.d\r\nWARNING: linker\r\n"), [
    "com.a.b",
    "org.c.d",
  ]);
});

test("resolve-activity --brief: no activity found, the full form, and the success form", { skip }, () => {
  eachSample("cmd-package-resolve-activity", {
    "brief-no-activity-found.txt": null,
    // Without --brief the output does not end in a component.
    "full-launcher-category-air-app-excerpt.txt": null,
  }, (text, want, name) => assert.equal(parseResolvedActivity(text), want, name));
  assert.deepEqual(
    parseResolvedActivity("priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\ncom.android.settings/.Settings\n"),
    { packageName: "com.android.settings", activity: "com.android.settings.Settings" },
  );
});

const DUMPS: Record<string, DumpOutcome["kind"]> = {
  "error-could-not-get-idle-state.txt": "idle-state",
  "error-null-root-node.txt": "null-root-node",
  "exec-out-dev-tty-success-with-trailer-popup.txt": "xml",
  "miui-stderr-themecompat-stacktrace-head-excerpt.txt": "no-output",
  // Dumps to a file print only the trailer: there is no hierarchy to read.
  "success-default-path-sdcard.txt": "no-output",
  "success-legacy-storage-path-huawei.txt": "no-output",
};

test("uiautomator dump: every real sample is classified", { skip }, () => {
  eachSample("uiautomator-dump", DUMPS, (text, want, name) => assert.equal(parseUiautomatorDump(text).kind, want, name));
});

test("uiautomator dump: the trailer glued to </hierarchy> is stripped, the XML kept whole", { skip }, () => {
  const outcome = parseUiautomatorDump(sample("uiautomator-dump", "exec-out-dev-tty-success-with-trailer-popup.txt"));
  assert.equal(outcome.kind, "xml");
  const xml = (outcome as { xml: string }).xml;
  assert.ok(xml.startsWith("<?xml version='1.0'"));
  assert.ok(xml.endsWith("</hierarchy>"));
  assert.ok(!xml.includes("UI hierchary dumped"));
  assert.match(xml, /text="Shortest wait"/);
});

test("uiautomator dump: MIUI stack trace before the XML is dropped; a cut-off dump is truncated", { skip }, () => {
  const noise = sample("uiautomator-dump", "miui-stderr-themecompat-stacktrace-head-excerpt.txt");
  const good = sample("uiautomator-dump", "exec-out-dev-tty-success-with-trailer-popup.txt");
  const outcome = parseUiautomatorDump(noise + good);
  assert.equal(outcome.kind, "xml");
  assert.ok(!(outcome as { xml: string }).xml.includes("FileNotFoundException"));
  assert.deepEqual(parseUiautomatorDump(good.slice(0, 1000)), { kind: "truncated", bytes: 1000 });
});
