/**
 * The shell commands the UiAutomator2 driver's new hands run, through the REAL adb client against the
 * sim playing "shop": `am start -W -a android.intent.action.VIEW -d URL [PKG]` (opened, or AOSP's
 * "unable to resolve Intent"), `pm clear`, `dumpsys activity processes` (the pids terminateApp reads),
 * `ime set` + Appium's IME turning `input text /search/` into the editor action, key events, the shade.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type AdbServer, startAdbServer } from "../../src/sim/adb/server.ts";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { adb, NO_ADB, text } from "./adb_cli.ts";

const skip = NO_ADB;

async function withShop(body: (s: AdbServer, d: ScenarioDevice) => Promise<void>) {
  const device = new ScenarioDevice(resolveScenario("shop"));
  const server = await startAdbServer(device);
  try {
    await body(server, device);
  } finally {
    await server.stop();
  }
}

async function shell(s: AdbServer, line: string) {
  const run = await adb(s.socketSpec, ["shell", line]);
  return { code: run.code, stdout: text(run), stderr: run.stderr };
}

test("am start VIEW -d opens the linked page (with -W: Status ok and the activity); a link nothing handles says so", { skip }, async () => {
  await withShop(async (s, d) => {
    const opened = await shell(s, "am start -W -a android.intent.action.VIEW -d 'shop://product/42' com.example.shop");
    assert.equal(opened.code, 0);
    assert.match(
      opened.stdout,
      /^Starting: Intent \{ act=android\.intent\.action\.VIEW dat=shop:\/\/product\/42 pkg=com\.example\.shop \}$/m,
    );
    assert.match(opened.stdout, /^Status: ok$/m);
    assert.match(opened.stdout, /^Activity: com\.example\.shop\/\.ProductActivity$/m);
    assert.equal(d.screenId(), "product_42");
    const web = await shell(s, "am start -W -a android.intent.action.VIEW -d 'https://shop.example/checkout?ref=mail'");
    assert.match(web.stdout, /dat=https:\/\/shop\.example\/\.\.\. \}/, "a web URL prints scheme and host only");
    assert.equal(d.screenId(), "checkout");
    const none = await shell(s, "am start -W -a android.intent.action.VIEW -d 'nothing://x/1'");
    assert.match(
      none.stdout,
      /^Error: Activity not started, unable to resolve Intent \{ act=android\.intent\.action\.VIEW dat=nothing:\/\/x\/1 flg=0x10000000 \}$/m,
    );
    assert.equal(d.screenId(), "checkout", "nothing moved");
    const otherBrowser = await shell(s, "am start -W -a android.intent.action.VIEW -d 'https://example.org/'");
    assert.match(otherBrowser.stdout, /^Activity: com\.android\.chrome\//m, "an unclaimed web link opens the browser");
  });
});

test(
  "dumpsys activity processes lists the running apps; am force-stop takes the app out, pm clear forgets its sign-in",
  { skip },
  async () => {
    await withShop(async (s, d) => {
      const before = await shell(s, "dumpsys activity processes");
      assert.match(before.stdout, /ProcessRecord\{[0-9a-f]{7} \d+:com\.example\.shop\/u0a\d+\}/);
      await shell(s, "am force-stop com.example.shop");
      assert.doesNotMatch((await shell(s, "dumpsys activity processes")).stdout, /:com\.example\.shop\//);
      await shell(s, "monkey -p com.example.shop -c android.intent.category.LAUNCHER 1");
      assert.equal(d.screenId(), "shop_home", "a force-stop keeps the sign-in");
      const cleared = await shell(s, "pm clear com.example.shop");
      assert.equal(cleared.stdout, "Success\n");
      assert.notEqual(d.foregroundPackage(), "com.example.shop");
      await shell(s, "monkey -p com.example.shop -c android.intent.category.LAUNCHER 1");
      assert.equal(d.screenId(), "shop_login", "pm clear signed the user out");
      const absent = await shell(s, "pm clear com.example.absent");
      assert.equal(absent.code, 1);
      assert.equal(absent.stdout, "Failed\n");
    });
  },
);

test("performEditorAction's adb traffic: ime set to Appium's IME, then input text /search/ is the search action", { skip }, async () => {
  await withShop(async (s, d) => {
    await shell(s, "input keyevent KEYCODE_SEARCH"); // an unknown key name changes nothing
    d.tap({ "content-desc": "Search", class: "android.widget.FrameLayout", bounds: "[360,2232][720,2400]" });
    assert.equal(d.screenId(), "search");
    await shell(s, "input text boots");
    assert.equal(d.screenId(), "search", "typing alone shows no results");
    assert.equal(
      (await shell(s, "ime enable io.appium.settings/.AppiumIME")).stdout,
      "Input method io.appium.settings/.AppiumIME: now enabled for user #0\n",
    );
    assert.equal(
      (await shell(s, "ime set io.appium.settings/.AppiumIME")).stdout,
      "Input method io.appium.settings/.AppiumIME selected for user #0\n",
    );
    assert.equal((await shell(s, "settings get secure default_input_method")).stdout, "io.appium.settings/.AppiumIME\n");
    await shell(s, "input text /search/");
    assert.equal(d.screenId(), "search_results");
    assert.match(d.hierarchyXml(), /text="boots" resource-id="com\.example\.shop:id\/search_field"/);
  });
});

test("key events: APP_SWITCH shows recents, HOME the launcher; cmd statusbar expand-notifications pulls the shade", { skip }, async () => {
  await withShop(async (s, d) => {
    await shell(s, "input keyevent 187");
    assert.equal(d.screenId(), "@recents");
    await shell(s, "input keyevent KEYCODE_HOME");
    assert.equal(d.screenId(), "launcher");
    await shell(s, "cmd statusbar expand-notifications");
    assert.equal(d.screenId(), "@shade");
    const window = await shell(s, "dumpsys window displays");
    assert.match(window.stdout, /mCurrentFocus=Window\{[0-9a-f]{7} u0 com\.android\.systemui\//);
  });
});

test(
  "a finger held still is a long press, whoever sends it: `input swipe 658 880 658 880 1000` on Rain jacket opens its menu",
  { skip },
  async () => {
    await withShop(async (s, d) => {
      // As adb users and mobile-mcp long-press: a swipe that does not move, held past the long-press timeout (400 ms).
      assert.equal((await shell(s, "input swipe 658 880 658 880 1000")).code, 0);
      assert.equal(d.screenId(), "product_menu");
      d.back();
      await shell(s, "input swipe 658 880 658 880 100"); // held 100 ms: a tap, which does nothing on Rain jacket
      assert.equal(d.screenId(), "shop_home");
      await shell(s, "input swipe 658 880 658 880"); // no duration: input holds 300 ms, below the timeout
      assert.equal(d.screenId(), "shop_home");
      await shell(s, "input touchscreen swipe 658 880 660 884 600"); // a few px of wobble stay within the touch slop
      assert.equal(d.screenId(), "product_menu");
      d.back();
      // Past the touch slop (8 dp = 21 px at 420 dpi) the finger scrolls the list under it, however long it was held.
      await shell(s, "input swipe 540 1800 540 1760 1000");
      assert.equal(d.screenId(), "shop_home_2");
    });
  },
);
