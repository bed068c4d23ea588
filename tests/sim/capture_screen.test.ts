/**
 * A real capture replayed as a still simulated device (`startSimDevice({screen})`, `sim --screen`):
 * every corpus dump (uiautomator and Appium page source) loads with its package, size, rotation and
 * keyboard read from the dump; acts are answered (adb input, W3C clicks through real webdriverio) and
 * change nothing; a given screenshot is shown with the SIMULATED badge; bad files get one-line errors.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import UPNG from "upng-js";
import { remote } from "webdriverio";
import { HarnessError } from "../../src/errors.ts";
import { captureScenario, ScenarioDevice, startSimDevice } from "../../src/sim/mod.ts";
import { simulatedBadge } from "../../src/sim/png/screencap.ts";
import { allNodes, boundsOf, centreOf } from "../../src/sim/scenario/sim_node.ts";
import { readDump } from "../../src/sim/scenario/dump_xml.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";
import { adb, NO_ADB, text } from "./adb_cli.ts";

const skip = corpusSkipReason();
const corpus = (name: string) => readFileSync(join(CORPUS_DIR, name));
const dumps = () => readdirSync(CORPUS_DIR).filter((n) => n.endsWith(".xml")).sort();

function deviceFor(name: string, png?: string): ScenarioDevice {
  const { scenario, screenshots } = captureScenario({
    xml: corpus(name).toString("utf8"),
    xmlName: name,
    ...(png === undefined ? {} : { png: new Uint8Array(corpus(png)), pngName: png }),
  });
  return new ScenarioDevice(scenario, { screenshots });
}

function invalidMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof HarnessError, String(error));
    assert.equal(error.code, "INVALID_ARGUMENT");
    assert.doesNotMatch(error.message, /\n/, "one line");
    return error.message;
  }
  assert.fail("no error");
}

test("every corpus capture becomes a still Android 15 device showing that screen", { skip }, () => {
  assert.ok(dumps().length >= 38);
  for (const name of dumps()) {
    const d = deviceFor(name);
    assert.equal(d.apiLevel, 35, name);
    assert.equal(d.android.release, "15", name);
    const shown = readDump(d.hierarchyXml());
    const original = readDump(corpus(name).toString("utf8"));
    assert.equal(shown.rotation, original.rotation, `${name}: rotation kept`);
    assert.equal(allNodes(shown.roots).length, allNodes(original.roots).length, `${name}: every node`);
    assert.deepEqual(allNodes(shown.roots).map((n) => n.attrs["bounds"]), allNodes(original.roots).map((n) => n.attrs["bounds"]), name);
    assert.notEqual(d.foregroundPackage(), "", name);
    assert.ok(d.installedPackages().some((p) => p.name === d.foregroundPackage()), `${name}: the foreground package is installed`);
    const { width, height } = d.displaySize();
    for (const root of original.roots) {
      const b = boundsOf(root);
      if (b !== null) assert.ok(b.right <= width && b.bottom <= height, `${name}: ${root.attrs["bounds"]} inside ${width}x${height}`);
    }
  }
});

test("package, size, rotation and keyboard come from the dump", { skip }, () => {
  const gmail = deviceFor("gmail-compose-gboard-keyboard-open.xml");
  assert.equal(gmail.foregroundPackage(), "com.google.android.gm", "not the keyboard's package");
  assert.deepEqual(gmail.keyboard(), { open: true, top: 1558 });
  const chrome = deviceFor("chrome-webpage-es-appium.xml");
  assert.equal(chrome.foregroundPackage(), "com.android.chrome");
  assert.deepEqual(chrome.keyboard(), { open: false });
  const tablet = deviceFor("tablet-landscape-rotation3-settings-list.xml");
  assert.equal(tablet.rotation(), 3);
  assert.deepEqual([tablet.width, tablet.height], [1920, 1200], "wm size: the natural orientation");
  assert.deepEqual(tablet.displaySize(), { width: 1200, height: 1920 }, "as drawn: turned a quarter");
  const phone = deviceFor("launcher-feature-phone-240x320-zh.xml");
  assert.deepEqual([phone.width, phone.height, phone.density], [240, 320, 160]);
  const automotive = deviceFor("automotive-ivi-quick-settings-ko-appium.xml", "automotive-ivi-quick-settings-ko-appium.png");
  assert.deepEqual([automotive.width, automotive.height], [1920, 1080], "the screenshot's size, larger than Appium's declared 1920x957");
});

test("acts are answered and change nothing: taps on every node, typing, BACK, HOME, scrolls, launches, force-stop", { skip }, () => {
  for (const name of ["gmail-compose-gboard-keyboard-open.xml", "settings-miui-home-es-appium.xml", "permission-location-dialog-en.xml"]) {
    const d = deviceFor(name);
    const before = d.hierarchyXml();
    const shot = d.screenshotPng();
    const keyboard = d.keyboard();
    for (const node of allNodes(readDump(before).roots)) {
      d.tap(node.attrs);
      const c = centreOf(node);
      if (c !== null) d.tapAt(c.x, c.y);
      d.setText(node.attrs, "typed");
    }
    d.typeText("more");
    d.back();
    d.home();
    d.scroll("down");
    d.scroll("up");
    assert.equal(d.launch(d.foregroundPackage()), true, "the foreground package is launchable");
    d.forceStop(d.foregroundPackage());
    assert.equal(d.hierarchyXml(), before, name);
    assert.deepEqual(d.keyboard(), keyboard, name);
    assert.deepEqual(d.screenshotPng(), shot, name);
    assert.equal(d.canScroll("down"), false);
  }
});

test("a given screenshot is what screencap shows, with the SIMULATED badge over its status bar", { skip }, () => {
  const d = deviceFor("permission-location-dialog-en.xml", "permission-location-dialog-en.png");
  const decode = (png: Uint8Array) => {
    const img = UPNG.decode(png.slice().buffer);
    return { width: img.width, px: new Uint32Array(UPNG.toRGBA8(img)[0]!) };
  };
  const given = decode(new Uint8Array(corpus("permission-location-dialog-en.png")));
  const shown = decode(d.screenshotPng());
  const badge = simulatedBadge(1080, 2400);
  assert.equal(shown.px.length, given.px.length);
  let differentBelow = 0;
  for (let i = badge.band.bottom * 1080; i < shown.px.length; i++) if (shown.px[i] !== given.px[i]) differentBelow++;
  assert.equal(differentBelow, 0, "every pixel below the badge band is the capture's");
  const paper = badge.paper;
  const v = shown.px[2 * 1080 + 2]!;
  assert.deepEqual([v & 255, (v >>> 8) & 255, (v >>> 16) & 255], [...paper], "the band is the badge's");
  d.setFaults({ blankScreencap: true });
  assert.equal(new Set(decode(d.screenshotPng()).px).size, 1, "the blank fault still wins");
});

test("bad captures are refused with one line that names the file and what to pass", { skip }, () => {
  const xml = corpus("permission-location-dialog-en.xml").toString("utf8");
  assert.match(
    invalidMessage(() => captureScenario({ xml: corpus("permission-location-dialog-en.png").toString("utf8"), xmlName: "shot.png" })),
    /^shot\.png is not a UI dump: it is a PNG image \(pass it as --screenshot\), not XML text\./,
  );
  assert.match(
    invalidMessage(() => captureScenario({ xml: "<html><body/></html>", xmlName: "page.xml" })),
    /^page\.xml is not a UI dump: the root element is <html>, expected <hierarchy>\. Pass a uiautomator dump or an Appium page source/,
  );
  assert.match(
    invalidMessage(() => captureScenario({ xml: '<hierarchy rotation="0"><node', xmlName: "cut.xml" })),
    /^cut\.xml is not a UI dump: the XML does not parse/,
  );
  assert.match(
    invalidMessage(() => captureScenario({ xml: '<hierarchy rotation="0"/>', xmlName: "empty.xml" })),
    /^empty\.xml holds no nodes with bounds/,
  );
  assert.match(
    invalidMessage(() => captureScenario({ xml, xmlName: "d.xml", png: new TextEncoder().encode(xml), pngName: "d.png" })),
    /^d\.png is not a PNG \(\d+ bytes\)/,
  );
  assert.match(
    invalidMessage(() =>
      captureScenario({
        xml: corpus("automotive-ivi-quick-settings-ko-appium.xml").toString("utf8"),
        png: new Uint8Array(corpus("chrome-webpage-es-appium.png")),
        pngName: "c.png",
      })
    ),
    /^c\.png is 1080x2400 but the dump reaches 1920x957: pass the screenshot taken with this dump/,
  );
});

test("startSimDevice({screen}): real adb sees the capture's package and XML; input taps succeed and change nothing", {
  skip: skip || NO_ADB,
}, async () => {
  const xml = corpus("settings-miui-home-es-appium.xml").toString("utf8");
  assert.throws(() => captureScenario({ xml: "" }), HarnessError);
  await assert.rejects(startSimDevice({ screen: { xml }, scenario: "login" }), /either a scenario or a screen capture/);
  const sim = await startSimDevice({ screen: { xml, xmlName: "miui.xml" } });
  try {
    const dump = text(await adb(sim.adbServerSocket, ["exec-out", "uiautomator", "dump", "/dev/tty"]));
    assert.match(dump, /UI hierchary dumped to: \/dev\/tty\n$/);
    assert.equal(dump.replace(/UI hierchary dumped to: \/dev\/tty\n$/, ""), sim.device.hierarchyXml());
    const window = text(await adb(sim.adbServerSocket, ["shell", "dumpsys", "window", "displays"]));
    assert.match(window, /mCurrentFocus=Window\{[0-9a-f]+ u0 com\.android\.settings\//);
    assert.match(
      text(await adb(sim.adbServerSocket, ["shell", "wm", "size"])),
      /^Physical size: 1080x2400\n$/,
      "the windows reach 2400, below Appium's declared 1080x2254",
    );
    const tap = await adb(sim.adbServerSocket, ["shell", "input", "tap", "540", "600"]);
    assert.equal(tap.code, 0);
    await adb(sim.adbServerSocket, ["shell", "input", "keyevent", "4"]);
    await adb(sim.adbServerSocket, ["shell", "am", "start", "-a", "android.settings.SETTINGS"]);
    assert.equal(text(await adb(sim.adbServerSocket, ["exec-out", "uiautomator", "dump", "/dev/tty"])), dump, "the screen did not change");
  } finally {
    await sim.stop();
  }
});

test("W3C through real webdriverio: find, click and back succeed on the capture; the page source stays the same", { skip }, async () => {
  const sim = await startSimDevice({ screen: { xml: corpus("settings-miui-home-es-appium.xml").toString("utf8") } });
  const url = new URL(sim.appiumUrl);
  const browser = await remote({
    hostname: url.hostname,
    port: Number(url.port),
    path: "/",
    capabilities: { platformName: "Android", "appium:automationName": "UiAutomator2" },
    waitforTimeout: 300,
    connectionRetryCount: 0,
    logLevel: "silent",
  });
  try {
    const before = await browser.getPageSource();
    const rows = await browser.$$("android=new UiSelector().clickable(true)").getElements();
    assert.ok(rows.length > 3, `${rows.length} clickable elements`);
    await rows[0]!.click();
    await rows[2]!.click();
    await browser.back();
    assert.equal(await browser.getPageSource(), before);
  } finally {
    await browser.deleteSession().catch(() => {});
    await sim.stop();
  }
});
