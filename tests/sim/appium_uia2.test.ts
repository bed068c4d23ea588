/**
 * End to end through the REAL stack: webdriverio 9 → real Appium 3.8 server → real UiAutomator2
 * driver 8.7 → real adb client → the simulated device (fake adb server, whose forward tunnels to the
 * simulated UiAutomator2 server playing the on-device server). Not gated: CI has adb and Appium. The new
 * hands go through the harness's own webdriverio UiDriver, all of them in one session.
 * One Appium for the file; every session is deleted and every process ended by PID, also on failure.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { remote } from "webdriverio";
import { type RunningSim, startSimDevice } from "../../src/sim/mod.ts";
import { createAppiumDriverFactory } from "../../src/adapters/appium/mod.ts";
import type { UiDriver } from "../../src/ports/ui_driver.ts";
import { type RunningAppium, startAppium } from "../support/appium.ts";
import { failure, rejection } from "../support/outcomes.ts";
import { assertEndedByDeadline } from "../support/time_bounds.ts";

type Browser = Awaited<ReturnType<typeof remote>>;

let appium: RunningAppium | undefined;

before(async () => {
  appium = await startAppium();
});

after(async () => {
  await appium?.stop();
});

async function sessionsListed(url: string): Promise<string[]> {
  const res = await fetch(`${url}/appium/sessions`);
  return ((await res.json()) as { value: { id: string }[] }).value.map((s) => s.id);
}

/** A simulated device and a real Appium session on it; Appium's last output is added to a failure. */
async function withRealSession(scenario: string, fn: (b: Browser, sim: RunningSim, a: RunningAppium) => Promise<void>): Promise<number> {
  const a = appium as RunningAppium;
  const sim = await startSimDevice({ scenario });
  let browser: Browser | null = null;
  try {
    const started = Date.now();
    browser = await remote({
      hostname: "127.0.0.1",
      port: a.port,
      path: "/",
      capabilities: {
        platformName: "Android",
        "appium:automationName": "UiAutomator2",
        "appium:udid": sim.device.serial,
        "appium:adbPort": sim.adbPort,
      },
      waitforTimeout: 2000,
      connectionRetryCount: 0,
      logLevel: "silent",
    });
    const sessionMs = Date.now() - started;
    const b = browser;
    browser = null;
    await fn(b, sim, a).finally(() => void (browser = b));
    return sessionMs;
  } catch (error) {
    const tail = a.output().split("\n").slice(-40).join("\n");
    throw new Error(`${(error as Error).message}\n--- last Appium output ---\n${tail}`);
  } finally {
    await (browser as Browser | null)?.deleteSession().catch(() => {});
    await sim.stop();
  }
}

test("real Appium + UiAutomator2 driver: session, UiSelector click, source, /appium/sessions, delete", { timeout: 120_000 }, async (t) => {
  let deleteMs = 0;
  const ms = await withRealSession("settings", async (b, sim, a) => {
    assert.deepEqual(await sessionsListed(a.url), [b.sessionId]);
    const home = sim.device.screenId();
    await b.$('android=new UiSelector().text("Display")').click();
    assert.notEqual(sim.device.screenId(), home, "the click reached the simulated device");
    assert.ok(
      sim.device.log.some((e) => e.source === "uia2" && e.command === 'find element -android uiautomator new UiSelector().text("Display")'),
      "the driver proxied the find to the simulated on-device server",
    );
    const source = await b.getPageSource();
    assert.match(source, /<hierarchy [^>]*rotation="0"/);
    assert.match(source, /text="Display"/);
    const deleting = Date.now();
    await b.deleteSession();
    deleteMs = Date.now() - deleting;
    assertEndedByDeadline(deleteMs, 0, "deleting the session (the instrumentation should end at once)");
    assert.deepEqual(await sessionsListed(a.url), []);
    assert.ok(sim.device.log.some((e) => e.source === "uia2" && e.command.startsWith("delete session")));
  });
  t.diagnostic(`real Appium session created in ${ms} ms, deleted in ${deleteMs} ms`);
});

test("real Appium: mobile: scrollGesture (answering it cannot scroll further) and a W3C swipe scroll the Settings list down and up again", {
  timeout: 120_000,
}, async () => {
  await withRealSession("settings", async (b) => {
    assert.doesNotMatch(await b.getPageSource(), /About emulated device/);
    const canScrollMore = await b.execute("mobile: scrollGesture", {
      left: 0,
      top: 500,
      width: 1080,
      height: 1800,
      direction: "down",
      percent: 0.9,
    });
    assert.equal(canScrollMore, false, "like real UiAutomator2: this scroll reached the last part, so it cannot scroll further");
    assert.match(await b.getPageSource(), /About emulated device/);
    await b.action("pointer", { parameters: { pointerType: "touch" } })
      .move({ x: 540, y: 900 }).down().move({ x: 540, y: 2000, duration: 200 }).up().perform();
    assert.doesNotMatch(await b.getPageSource(), /About emulated device/, "a downward swipe scrolls back up");
  });
});

test("real Appium: typing by id, accessibility id, $$ xpath, screenshot, back, activateApp", { timeout: 120_000 }, async () => {
  await withRealSession("login", async (b, sim) => {
    await b.$("id=com.example.shop:id/email").setValue("ana@example.com");
    assert.equal(await b.$("id=com.example.shop:id/email").getText(), "ana@example.com");
    assert.equal((await b.$$("//android.widget.EditText").getElements()).length, 2);
    await b.$('//android.widget.Button[@text="Sign in"]').click();
    assert.equal(await b.$("id=com.example.shop:id/greeting").getText(), "Signed in");
    const png = Buffer.from(await b.takeScreenshot(), "base64");
    assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
    await b.$("~Home").click();
    assert.equal(sim.device.screenId(), "home_tab");
    await b.back();
    assert.notEqual(sim.device.screenId(), "home_tab");

    await b.activateApp("com.android.settings");
    assert.equal(sim.device.foregroundPackage(), "com.android.settings");
    assert.equal(await b.getCurrentPackage(), "com.android.settings");
  });
});

test(
  "real Appium: W3C errors and the session lifecycle the harness must tolerate (500s, zombies, crashes)",
  { timeout: 120_000 },
  async () => {
    await withRealSession("settings", async (first, sim, a) => {
      const raw = await first.findElement("xpath", "//nope") as unknown as { error: string };
      assert.equal(raw.error, "no such element");
      assert.equal((await failure(first.$("//[").click())).name, "invalid selector");
      sim.device.faults.uia2Error500 = true;
      assert.equal((await failure(first.getPageSource())).name, "unknown error");
      sim.device.faults.uia2Error500 = false;

      const second = await remote({
        hostname: "127.0.0.1",
        port: a.port,
        path: "/",
        capabilities: {
          platformName: "Android",
          "appium:automationName": "UiAutomator2",
          "appium:udid": sim.device.serial,
          "appium:adbPort": sim.adbPort,
        },
        waitforTimeout: 500,
        connectionRetryCount: 0,
        logLevel: "silent",
      });
      try {
        assert.deepEqual(await sessionsListed(a.url), [first.sessionId, second.sessionId]);
        assert.equal((await failure(first.getPageSource())).name, "invalid session id", "the second session killed the first");
        assert.equal((await failure(first.deleteSession())).name, "invalid session id");
        assert.deepEqual(await sessionsListed(a.url), [first.sessionId, second.sessionId], "the zombie stays listed");

        sim.device.faults.uia2SessionDiesAfter = 0;
        assert.equal((await failure(second.getPageSource())).name, "invalid session id", "the on-device session crashed");
      } finally {
        await second.deleteSession().catch(() => {});
      }
      assert.deepEqual(await sessionsListed(a.url), [first.sessionId], "a crashed session is deleted normally; the zombie remains");
    });
  },
);

test("real Appium: every new hand through the harness's UiDriver, one mobile: command each, in one session on the shop", {
  timeout: 240_000,
}, async (t) => {
  const a = appium as RunningAppium;
  const sim = await startSimDevice({ scenario: "shop" });
  const d = sim.device;
  let driver: UiDriver | undefined;
  const took: string[] = [];
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    const value = await work();
    took.push(`${name} ${Date.now() - started} ms`);
    return value;
  };
  const one = async (xpath: string) => {
    const [id] = await driver!.findElements(xpath);
    assert.ok(id !== undefined, `an element for ${xpath}`);
    return id!;
  };
  try {
    driver = await createAppiumDriverFactory({
      appiumUrl: a.url,
      adbServer: sim.adbServerSocket,
      requestTimeoutMs: 60_000,
      newCommandTimeoutS: 120,
    })
      .open(d.serial, { timeoutMs: 90_000 });
    await timed("longPress", async () => driver!.longPress(await one("//*[@text='Rain jacket']")));
    assert.equal(d.screenId(), "product_menu");
    await driver.click(await one("//*[@text='Share']"));
    assert.equal(
      await timed("scroll right", async () => driver!.scroll(await one("//*[@resource-id='com.example.shop:id/chips']"), "right")),
      false,
    );
    assert.equal(d.screenId(), "shop_home_chips");
    await driver.scroll(await one("//*[@resource-id='com.example.shop:id/chips']"), "left");
    assert.equal(await driver.scroll(await one("//*[@resource-id='com.example.shop:id/product_list']"), "down"), true);
    assert.equal(d.screenId(), "shop_home_2");
    await driver.scroll(await one("//*[@resource-id='com.example.shop:id/product_list']"), "up");
    await driver.click(await one("//*[@text='Canvas sneakers']"));
    await timed("doubleTap", async () => driver!.doubleTap(await one("//*[@resource-id='com.example.shop:id/product_image']")));
    assert.equal(d.screenId(), "product_42_liked");
    await driver.back();
    await driver.click(await one("//*[@content-desc='Filters']"));
    await driver.scroll(await one("//*[@resource-id='com.example.shop:id/sheet_list']"), "down");
    assert.equal(d.screenId(), "filters_sheet_2", "the sheet's list moved, the page did not");
    await driver.click(await one("//*[@text='Apply']"));
    await driver.click(await one("//*[@content-desc='Search']"));
    await driver.replaceText(await one("//*[@resource-id='com.example.shop:id/search_field']"), "bo");
    await timed("appendText", async () => driver!.appendText(await one("//*[@resource-id='com.example.shop:id/search_field']"), "ots"));
    assert.match(await driver.source(), /text="boots"/, "send keys without a clear appended through Appium's setValue");
    await timed("editorAction", () => driver!.editorAction("search"));
    assert.equal(d.screenId(), "search_results", "the driver's AppiumIME traffic (ime set, input text /search/) submitted the search");
    await timed("pressKey home", () => driver!.pressKey("home"));
    assert.equal(d.screenId(), "launcher");
    await driver.pressKey("app_switch");
    assert.equal(d.screenId(), "@recents");
    await driver.click(await one("//*[@content-desc='Shop']"));
    await timed("openNotifications", () => driver!.openNotifications());
    assert.equal(d.screenId(), "@shade");
    await driver.click(await one("//*[@text='Your order has shipped']"));
    assert.equal(d.screenId(), "order_placed");
    await timed("deepLink", () => driver!.deepLink("shop://product/42", "com.example.shop"));
    assert.equal(d.screenId(), "product_42");
    const unhandled = await rejection(driver.deepLink("nothing://here/1"));
    assert.equal(unhandled.code, "APP_NOT_FOUND", unhandled.message);
    assert.equal(await timed("terminateApp", () => driver!.terminateApp("com.example.shop")), true);
    await driver.activateApp("com.example.shop");
    assert.equal(d.screenId(), "shop_home", "a relaunch after terminateApp keeps the sign-in");
    await timed("clearApp", () => driver!.clearApp("com.example.shop"));
    await driver.activateApp("com.example.shop");
    assert.equal(d.screenId(), "shop_login", "clearApp signed the user out");
    const adbLines = d.log.slice(0).filter((e) => e.source === "adb").map((e) => e.command);
    assert.ok(
      adbLines.some((l) => /am start -W -a android\.intent\.action\.VIEW -d .*shop:\/\/product\/42/.test(l)),
      "deepLink ran am start VIEW",
    );
    assert.ok(adbLines.some((l) => /pm clear com\.example\.shop/.test(l)), "clearApp ran pm clear");
    assert.ok(adbLines.some((l) => /input text .*\/search\//.test(l)), "performEditorAction typed /search/ with Appium's IME");
    assert.ok(!adbLines.some((l) => /input (tap|swipe)/.test(l)), "no hand used adb input with computed points");
  } catch (error) {
    const tail = a.output().split("\n").slice(-40).join("\n");
    throw new Error(`${(error as Error).message}\n--- last Appium output ---\n${tail}`);
  } finally {
    await driver?.delete();
    await sim.stop();
  }
  t.diagnostic(took.join(", "));
});
