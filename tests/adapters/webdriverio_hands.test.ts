/**
 * The new hands of the webdriverio UiDriver, each one `mobile:` command, against the simulated device's
 * UiAutomator2 endpoint playing the "shop" scenario (appendText: W3C send keys without a clear): every capability arrives where it should (read back
 * from the device and the page source), and the failures come back as closed codes (a link nothing
 * handles, clearing an app that is not installed: APP_NOT_FOUND).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createAppiumDriverFactory } from "../../src/adapters/appium/mod.ts";
import type { UiDriver } from "../../src/ports/ui_driver.ts";
import { type RunningSim, startSimDevice } from "../../src/sim/mod.ts";
import { rejection } from "../support/outcomes.ts";

const SHOP = "com.example.shop";

async function withShop(fn: (driver: UiDriver, sim: RunningSim) => Promise<void>): Promise<void> {
  const sim = await startSimDevice({ scenario: "shop" });
  let driver: UiDriver | undefined;
  try {
    driver = await createAppiumDriverFactory({
      appiumUrl: sim.appiumUrl,
      adbServer: sim.adbServerSocket,
      requestTimeoutMs: 10_000,
      newCommandTimeoutS: 90,
    }).open(sim.device.serial, { timeoutMs: 10_000 });
    await fn(driver, sim);
  } finally {
    await driver?.delete();
    await sim.stop();
  }
}

async function one(driver: UiDriver, xpath: string): Promise<string> {
  const [id, ...more] = await driver.findElements(xpath);
  assert.ok(id !== undefined && more.length === 0, `exactly one element for ${xpath}`);
  return id!;
}

test("longPress opens a product's menu where a tap does nothing; a choice closes it", async () => {
  await withShop(async (driver, sim) => {
    await driver.click(await one(driver, "//*[@text='Rain jacket']"));
    assert.equal(sim.device.screenId(), "shop_home", "a tap on a product without a page changes nothing");
    await driver.longPress(await one(driver, "//*[@text='Rain jacket']"));
    assert.equal(sim.device.screenId(), "product_menu");
    assert.match(await driver.source(), /text="Add to wishlist"/);
    await driver.click(await one(driver, "//*[@text='Share']"));
    assert.equal(sim.device.screenId(), "shop_home");
  });
});

test("doubleTap on the photo likes the product (checked), a single tap does not", async () => {
  await withShop(async (driver, sim) => {
    await driver.click(await one(driver, "//*[@text='Canvas sneakers']"));
    assert.equal(sim.device.screenId(), "product_42");
    await driver.click(await one(driver, "//*[@resource-id='com.example.shop:id/product_image']"));
    assert.match(
      await driver.source(),
      /resource-id="com\.example\.shop:id\/favourite"[^>]*checked="false"|checked="false"[^>]*resource-id="com\.example\.shop:id\/favourite"/,
    );
    await driver.doubleTap(await one(driver, "//*[@resource-id='com.example.shop:id/product_image']"));
    assert.equal(sim.device.screenId(), "product_42_liked");
    assert.match(await driver.source(), /text="In your favourites"/);
  });
});

test("scroll left/right moves the chip row only, and says when its end is reached", async () => {
  await withShop(async (driver, sim) => {
    assert.doesNotMatch(await driver.source(), /text="Sale"/, "the last chip starts off screen");
    const chips = await one(driver, "//*[@resource-id='com.example.shop:id/chips']");
    assert.equal(await driver.scroll(chips, "right"), false, "one scroll reaches the row's end");
    const source = await driver.source();
    assert.match(source, /text="Sale"/);
    assert.match(source, /text="Canvas sneakers"/, "the page did not move");
    assert.equal(await driver.scroll(await one(driver, "//*[@resource-id='com.example.shop:id/chips']"), "left"), false);
    assert.equal(sim.device.screenId(), "shop_home");
    const page = await one(driver, "//*[@resource-id='com.example.shop:id/product_list']");
    assert.equal(await driver.scroll(page, "down"), true, "the page has a third part");
    assert.equal(sim.device.screenId(), "shop_home_2");
  });
});

test("in the filter sheet, scrolling the sheet's list moves it while the page stays, and the other way round", async () => {
  await withShop(async (driver, sim) => {
    await driver.click(await one(driver, "//*[@content-desc='Filters']"));
    assert.equal(await driver.scroll(await one(driver, "//*[@resource-id='com.example.shop:id/sheet_list']"), "down"), false);
    let source = await driver.source();
    assert.match(source, /text="Rating"/);
    assert.match(source, /text="Canvas sneakers"/, "the page behind kept its place");
    await driver.scroll(await one(driver, "//*[@resource-id='com.example.shop:id/sheet_list']"), "up");
    await driver.scroll(await one(driver, "//*[@resource-id='com.example.shop:id/product_list']"), "down");
    assert.equal(sim.device.screenId(), "filters_page_2");
    source = await driver.source();
    assert.match(source, /text="Yoga mat"/);
    assert.match(source, /text="Brand"/, "the sheet kept its place");
  });
});

test("search results appear only on the IME action (search, or ENTER), with the query kept in the field; DEL deletes a character", async () => {
  await withShop(async (driver, sim) => {
    await driver.click(await one(driver, "//*[@content-desc='Search']"));
    assert.equal(await driver.isKeyboardShown(), true);
    await driver.replaceText(await one(driver, "//*[@resource-id='com.example.shop:id/search_field']"), "bo");
    await driver.appendText(await one(driver, "//*[@resource-id='com.example.shop:id/search_field']"), "ots");
    assert.doesNotMatch(await driver.source(), /results_count/, "typing alone shows no results");
    await driver.editorAction("search");
    assert.equal(sim.device.screenId(), "search_results");
    const source = await driver.source();
    assert.match(source, /text="1 result"/, 'one product holds "boots"');
    assert.match(source, /text="boots"/);
    await driver.back(); // the results replaced the search screen (same activity): BACK leaves search
    assert.equal(sim.device.screenId(), "shop_home");
    await driver.click(await one(driver, "//*[@content-desc='Search']"));
    await driver.replaceText(await one(driver, "//*[@resource-id='com.example.shop:id/search_field']"), "mugs");
    await driver.pressKey("delete"); // KEYCODE_DEL: the character before the cursor
    assert.match(await driver.source(), /text="mug"/);
    assert.equal(sim.device.screenId(), "search", "DEL submits nothing");
    await driver.pressKey("enter");
    assert.equal(sim.device.screenId(), "search_results");
  });
});

test("keys: HOME shows the launcher, APP_SWITCH the recents with the shop's card, which brings it back", async () => {
  await withShop(async (driver, sim) => {
    await driver.pressKey("home");
    assert.equal(await driver.currentPackage(), "com.google.android.apps.nexuslauncher");
    await driver.pressKey("app_switch");
    assert.equal(sim.device.screenId(), "@recents");
    await driver.click(await one(driver, "//*[@content-desc='Shop']"));
    assert.equal(sim.device.screenId(), "shop_home");
  });
});

test("openNotifications pulls the shade down; its notification opens the order", async () => {
  await withShop(async (driver, sim) => {
    await driver.openNotifications();
    assert.equal(await driver.currentPackage(), "com.android.systemui");
    assert.match(await driver.source(), /text="Your order has shipped"/);
    await driver.click(await one(driver, "//*[@text='Your order has shipped']"));
    assert.equal(sim.device.screenId(), "order_placed");
    assert.equal(await driver.currentPackage(), SHOP);
  });
});

test("deepLink opens the product page and the checkout; a link nothing handles is APP_NOT_FOUND", async () => {
  await withShop(async (driver, sim) => {
    await driver.deepLink("shop://product/42");
    assert.equal(sim.device.screenId(), "product_42");
    await driver.deepLink("https://shop.example/checkout", SHOP);
    assert.equal(sim.device.screenId(), "checkout");
    const error = await rejection(driver.deepLink("nothing://here/1"));
    assert.equal(error.code, "APP_NOT_FOUND", error.message);
    // Said in words an agent reads, not the driver's command name ("while mobile: deepLink").
    assert.match(error.message, /^Nothing on the device handles the link while opening the link \(Android could not resolve/);
    assert.doesNotMatch(error.message, /mobile:/);
    const wrongApp = await rejection(driver.deepLink("shop://product/42", "com.android.settings"));
    assert.equal(wrongApp.code, "APP_NOT_FOUND");
  });
});

test("terminateApp keeps the sign-in across a relaunch; clearApp signs the user out", async () => {
  await withShop(async (driver, sim) => {
    assert.equal(await driver.terminateApp(SHOP), true);
    assert.equal(await driver.terminateApp(SHOP), false, "no longer running");
    await driver.activateApp(SHOP);
    assert.equal(sim.device.screenId(), "shop_home", "still signed in");
    await driver.clearApp(SHOP);
    assert.notEqual(await driver.currentPackage(), SHOP, "pm clear stops the app");
    await driver.activateApp(SHOP);
    assert.equal(sim.device.screenId(), "shop_login");
    const error = await rejection(driver.clearApp("com.example.absent"));
    assert.equal(error.code, "APP_NOT_FOUND", error.message);
  });
});
