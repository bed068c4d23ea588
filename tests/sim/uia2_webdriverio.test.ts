/**
 * The simulated UiAutomator2 server seen through REAL webdriverio 9, the way the harness's Appium
 * adapter talks to Appium: every endpoint webdriverio sends (notes §4), screens that change under
 * clicks, typing, back, scrolling and app launches, and the W3C error shapes webdriverio reports.
 * The device is the real scenario engine (ScenarioDevice) playing tests/fixtures/uia2_demo_scenario.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { remote } from "webdriverio";
import { startUia2Server, type Uia2Server } from "../../src/sim/uia2/server.ts";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { demoScenario } from "../fixtures/uia2_demo_scenario.ts";
import { failure } from "../support/outcomes.ts";

type Browser = Awaited<ReturnType<typeof remote>>;

async function connect(server: Uia2Server, caps: Record<string, unknown> = {}): Promise<Browser> {
  return await remote({
    hostname: "127.0.0.1",
    port: server.port,
    path: "/",
    capabilities: { platformName: "Android", "appium:automationName": "UiAutomator2", ...caps },
    waitforTimeout: 300,
    connectionRetryCount: 0,
    logLevel: "silent",
  });
}

/** A fresh device, server and webdriverio session; everything is closed afterwards, also on failure. */
async function withSession(fn: (b: Browser, device: ScenarioDevice, server: Uia2Server) => Promise<void>): Promise<void> {
  const device = new ScenarioDevice(resolveScenario(demoScenario()));
  const server = await startUia2Server(device, {});
  let browser: Browser | null = null;
  try {
    browser = await connect(server);
    await fn(browser, device, server);
  } finally {
    await browser?.deleteSession().catch(() => {});
    await server.stop();
  }
}

async function sessionIds(server: Uia2Server): Promise<string[]> {
  const res = await fetch(`${server.url}/appium/sessions`);
  const body = await res.json() as { value: { id: string }[] };
  return body.value.map((s) => s.id);
}

test("a UiSelector find and a click move to the next screen, which the page source then shows", async () => {
  await withSession(async (b, device) => {
    assert.equal(b.isAndroid, true);
    await b.$('android=new UiSelector().description("Settings")').click();
    assert.equal(device.screenId(), "settings");
    const source = await b.getPageSource();
    assert.match(source, /<androidx\.recyclerview\.widget\.RecyclerView [^>]*resource-id="com\.android\.settings:id\/recycler_view"/);
    assert.match(source, /text="Network &amp; internet"/);
    await b.$('android=new UiSelector().textStartsWith("Disp").className("android.widget.TextView")').click();
    assert.equal(device.screenId(), "display");
    assert.ok(
      device.log.some((e) =>
        e.source === "uia2" && e.command === 'find element -android uiautomator new UiSelector().description("Settings")'
      ),
    );
  });
});

test("id (full and short), accessibility id, xpath with class-name tags, and $$ find the same nodes", async () => {
  await withSession(async (b) => {
    await b.$("~Login app").click();
    assert.equal(await b.$("id=com.example.login:id/login").getText(), "Log in");
    assert.equal(await b.$("id=login").getText(), "Log in");
    assert.equal(await b.$("~Terms\nTab 2 of 3").getAttribute("class"), "android.view.View");
    assert.equal(await b.$('//android.widget.Button[@text="Log in"]').getAttribute("resource-id"), "com.example.login:id/login");
    const fields = await b.$$("//android.widget.EditText");
    assert.equal(fields.length, 2);
    const hints: (string | null)[] = [];
    for (const field of fields) hints.push(await field.getAttribute("hint"));
    assert.deepEqual(hints, ["Username", "Password"]);
    const rows = await b.$$('android=new UiSelector().className("android.widget.EditText").instance(1)');
    assert.equal(await rows[0]?.getAttribute("resource-id"), "com.example.login:id/password");
  });
});

test("setValue and clearValue change the field in the page source; the element keeps its id", async () => {
  await withSession(async (b, device) => {
    await b.$("~Login app").click();
    const user = b.$("id=username");
    await user.setValue("alice");
    assert.equal(await user.getText(), "alice");
    assert.match(await b.getPageSource(), /resource-id="com\.example\.login:id\/username"/);
    assert.match(await b.getPageSource(), /text="alice"/);
    await user.addValue("!");
    assert.equal(await user.getText(), "alice!");
    await user.clearValue();
    assert.equal(await user.getText(), "Username", "an empty field shows its hint as its text, as on API 26+");
    const sent = device.log.filter((e) => e.source === "uia2" && /^(send keys|clear)/.test(e.command)).map((e) => e.command);
    assert.deepEqual(sent, ["clear", 'send keys "alice"', 'send keys "!"', "clear"], "setValue clears first; addValue only sends keys");
  });
});

test("getAttribute, getElementRect, isDisplayed and getTagName read the node", async () => {
  await withSession(async (b) => {
    const settings = await b.$("~Settings");
    assert.equal(await settings.getAttribute("content-desc"), "Settings");
    assert.equal(await settings.getAttribute("clickable"), "true");
    assert.equal(await settings.getAttribute("bounds"), "[40,1800][260,2060]");
    assert.deepEqual(await b.getElementRect(await settings.elementId), { x: 40, y: 1800, width: 220, height: 260 });
    assert.equal(await settings.isDisplayed(), true);
    assert.equal(await settings.getTagName(), "android.widget.TextView");
  });
});

test("back, activateApp, takeScreenshot and getWindowRect act on the device", async () => {
  await withSession(async (b, device) => {
    const homeShot = await b.takeScreenshot();
    assert.equal(Buffer.from(homeShot, "base64").subarray(1, 4).toString("latin1"), "PNG");
    await b.activateApp("com.android.settings");
    assert.equal(device.screenId(), "settings");
    assert.notEqual(await b.takeScreenshot(), homeShot, "a different screen gives a different screenshot");
    await b.back();
    assert.equal(device.screenId(), "home");
    assert.deepEqual(await b.getWindowRect(), { x: 0, y: 0, width: 1080, height: 2400 });
    const missing = await failure(b.activateApp("com.not.installed"));
    assert.match(missing.message, /not installed/);
  });
});

test("W3C actions: a tap at a point taps what is drawn there; a swipe up scrolls down", async () => {
  await withSession(async (b, device) => {
    await b.action("pointer", { parameters: { pointerType: "touch" } })
      .move({ x: 150, y: 1900 }).down().pause(50).up().perform();
    assert.equal(device.screenId(), "settings");
    await b.action("pointer", { parameters: { pointerType: "touch" } })
      .move({ x: 540, y: 2000 }).down().move({ x: 540, y: 800, duration: 100 }).up().perform();
    assert.equal(device.screenId(), "settings2");
  });
});

test("mobile: scrollGesture scrolls and says whether it can still scroll that way; UiScrollable scrolls a row into view", async () => {
  await withSession(async (b, device) => {
    await b.activateApp("com.android.settings");
    const args = { left: 0, top: 300, width: 1080, height: 2000, direction: "down", percent: 0.8 };
    assert.equal(await b.execute("mobile: scrollGesture", args), false, "the first scroll reaches the last part");
    assert.equal(device.screenId(), "settings2");
    assert.equal(await b.execute("mobile: scrollGesture", { ...args, direction: "up" }), false);
    assert.equal(device.screenId(), "settings");
    assert.equal(device.canScroll("down"), true);
    await b.execute("mobile: scrollGesture", args);
    assert.equal(await b.execute("mobile: scrollGesture", args), false, "the last part does not move");
    await b.execute("mobile: scrollGesture", { ...args, direction: "up" });
    assert.equal(device.screenId(), "settings");
    const about = b.$('android=new UiScrollable(new UiSelector().scrollable(true)).scrollIntoView(new UiSelector().text("About phone"))');
    assert.equal(await about.getText(), "About phone");
    assert.equal(device.screenId(), "settings2");
    const unknown = await failure(b.execute("mobile: shell", { command: "ls" }));
    assert.match(unknown.message, /Unsupported execute method 'mobile: shell'/);
  });
});

test("mobile: clickGesture taps an element, or a point on the screen", async () => {
  await withSession(async (b, device) => {
    const login = await b.$("~Login app");
    await b.execute("mobile: clickGesture", { elementId: await login.elementId });
    assert.equal(device.screenId(), "login");
    await b.back();
    await b.execute("mobile: clickGesture", { x: 150, y: 1900 });
    assert.equal(device.screenId(), "settings");
  });
});

test("deleteSession empties /appium/sessions; a second session kills the first, which stays listed", async () => {
  const device = new ScenarioDevice(resolveScenario(demoScenario()));
  const server = await startUia2Server(device, {});
  try {
    const first = await connect(server);
    assert.deepEqual(await sessionIds(server), [first.sessionId]);
    await first.deleteSession();
    assert.deepEqual(await sessionIds(server), []);

    const a = await connect(server);
    const bb = await connect(server);
    assert.deepEqual(await sessionIds(server), [a.sessionId, bb.sessionId], "the killed session is a zombie entry");
    const dead = await failure(a.getPageSource());
    assert.equal(dead.name, "invalid session id");
    await bb.deleteSession();
    assert.deepEqual(await sessionIds(server), [a.sessionId]);
    const zombieDelete = await failure(a.deleteSession());
    assert.equal(zombieDelete.name, "invalid session id");
    assert.deepEqual(await sessionIds(server), [a.sessionId], "as on real Appium 3.8, the zombie stays listed");
  } finally {
    await server.stop();
  }
});

test("errors reach webdriverio in W3C shape: no such element, invalid selector, stale element", async () => {
  await withSession(async (b) => {
    const raw = await b.findElement("xpath", "//android.widget.Switch") as unknown as { error: string };
    assert.equal(raw.error, "no such element");
    const notFound = await failure(b.$("~Nope").click());
    assert.match(notFound.message, /element wasn't found/);
    const bad = await failure(b.$("//[").click());
    assert.equal(bad.name, "invalid selector");
    const badUiSelector = await failure(b.$("android=new UiSelector().frobnicate(1)").click());
    assert.equal(badUiSelector.name, "invalid selector");
    const login = await b.findElement("accessibility id", "Login app");
    await b.elementClick(Object.values(login)[0] as string);
    const stale = await failure(b.elementClick(Object.values(login)[0] as string));
    assert.equal(stale.name, "stale element reference");
  });
});

test("faults: every command answers 500 unknown error while uia2Error500 is on, and works again when it is off", async () => {
  await withSession(async (b, device) => {
    device.faults.uia2Error500 = true;
    const broken = await failure(b.getPageSource());
    assert.equal(broken.name, "unknown error");
    device.faults.uia2Error500 = false;
    assert.match(await b.getPageSource(), /<hierarchy/);
  });
});

test("faults: the session dies after uia2SessionDiesAfter commands, answers invalid session id, and can still be deleted", async () => {
  await withSession(async (b, device, srv) => {
    device.faults.uia2SessionDiesAfter = 2;
    await b.$("~Settings").click();
    const dead = await failure(b.getPageSource());
    assert.equal(dead.name, "invalid session id");
    const deadAgain = await failure(b.$("~Settings").click());
    assert.match(deadAgain.message, /terminated or not started/);
    assert.deepEqual(await sessionIds(srv), [b.sessionId], "a crashed session stays listed until deleted");
    await b.deleteSession();
    assert.deepEqual(await sessionIds(srv), []);
  });
});

test("appium:appPackage brings the app to the front at session start; an unknown package is session not created", async () => {
  const device = new ScenarioDevice(resolveScenario(demoScenario()));
  const server = await startUia2Server(device, {});
  try {
    const b = await connect(server, { "appium:appPackage": "com.example.login" });
    assert.equal(device.screenId(), "login");
    await b.deleteSession();
    const refused = await failure(connect(server, { "appium:appPackage": "com.not.installed" }));
    assert.match(refused.message, /com\.not\.installed' is not installed/);
    assert.deepEqual(await sessionIds(server), []);
  } finally {
    await server.stop();
  }
});
