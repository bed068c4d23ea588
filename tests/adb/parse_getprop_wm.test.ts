import assert from "node:assert/strict";
import { test } from "node:test";
import { parseGetpropListing, parseGetpropValue } from "../../src/adapters/adb/parse_getprop.ts";
import { parseWmDensity, parseWmSize } from "../../src/adapters/adb/parse_wm.ts";
import { adbSamplesSkipReason, eachSample, sample } from "./fixture_files.ts";

const skip = adbSamplesSkipReason();

const GETPROP: Record<string, { model: string; sdk: string; release: string; density: string }> = {
  "excerpt-motorola-edge20-android13-sdk33.txt": { model: "motorola edge 20", sdk: "33", release: "13", density: "400" },
  "excerpt-mtk-tb8168p1-android13.txt": { model: "tb8168p1_64_bsp_k510", sdk: "33", release: "13", density: "240" },
  "excerpt-oneplus-nord-n10-be2028-android11-sdk30.txt": { model: "BE2028", sdk: "30", release: "11", density: "450" },
  "excerpt-samsung-sm-s936b-android16-sdk36.txt": { model: "SM-S936B", sdk: "36", release: "16", density: "450" },
  "excerpt-xiaomi-poco-f6-lineageos22-android15-sdk35.txt": { model: "24069PC21I", sdk: "35", release: "15", density: "480" },
  "getprop-full-mtk-tb8168p1-android13.txt": { model: "tb8168p1_64_bsp_k510", sdk: "33", release: "13", density: "240" },
};

test("getprop listing: model, SDK, release and density from every real sample", { skip }, () => {
  eachSample("getprop", GETPROP, (text, want, name) => {
    const props = parseGetpropListing(text);
    assert.deepEqual(
      {
        model: props.get("ro.product.model"),
        sdk: props.get("ro.build.version.sdk"),
        release: props.get("ro.build.version.release"),
        density: props.get("ro.sf.lcd_density"),
      },
      want,
      name,
    );
    assert.equal(props.get("sys.boot_completed"), "1", name);
  });
});

test("getprop listing: the full dump keeps every property line", { skip }, () => {
  const text = sample("getprop", "getprop-full-mtk-tb8168p1-android13.txt");
  const props = parseGetpropListing(text);
  const lines = text.split("\n").filter((l) => /^\[[^\]]+\]: \[/.test(l)).length;
  assert.ok(props.size >= lines - 5 && props.size > 1000, `${props.size} of ${lines}`);
});

test("getprop single value: the value line, empty when unset, CRLF tolerated", () => {
  assert.equal(parseGetpropValue("33\n"), "33");
  assert.equal(parseGetpropValue("motorola edge 20\r\n"), "motorola edge 20");
  assert.equal(parseGetpropValue("\n"), "");
});

const WM_SIZE: Record<string, [number, number] | null> = {
  "wm-size-bogus-512x480.txt": [512, 480],
  "wm-size-bogus-640x480-galaxy-note3.txt": [640, 480],
  "wm-size-reset-securityexception-oppo-coloros.txt": null,
  "wm-size-with-open-permission-denied-noise-redmi-note1.txt": [720, 1280],
};

test("wm size: every real sample, noise before the answer and exceptions", { skip }, () => {
  eachSample("wm-size-density", WM_SIZE, (text, want, name) => {
    const size = parseWmSize(text);
    assert.deepEqual(size === null ? null : [size.effective.width, size.effective.height], want, name);
  });
});

test("wm size and density: Override wins over Physical, both are reported", () => {
  const size = parseWmSize("Physical size: 1080x2400\nOverride size: 720x1600\n");
  assert.deepEqual(size, {
    physical: { width: 1080, height: 2400 },
    override: { width: 720, height: 1600 },
    effective: { width: 720, height: 1600 },
  });
  assert.deepEqual(parseWmDensity("Physical density: 420\r\nOverride density: 360\r\n"), { physical: 420, override: 360, effective: 360 });
  assert.deepEqual(parseWmDensity("Physical density: 560\n"), { physical: 560, override: null, effective: 560 });
  assert.equal(parseWmDensity("Exception occurred while executing 'density':\n"), null);
});
