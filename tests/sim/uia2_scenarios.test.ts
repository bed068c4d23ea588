/**
 * Real webdriverio 9 against the simulated UiAutomator2 server in front of the real scenario engine
 * (ScenarioDevice with the built-in scenarios), so the two halves of the simulated device are
 * checked together: Settings navigation and scrolling, a login form, Flutter's merged content-desc
 * tabs, and a permission dialog.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { type Browser, withScenarioBrowser } from "../support/uia2_browser.ts";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import type { Scenario } from "../../src/sim/scenario/types.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { startUia2Server } from "../../src/sim/uia2/server.ts";

function withScenario(name: string | Scenario, fn: (b: Browser, device: ScenarioDevice) => Promise<void>): Promise<void> {
  return withScenarioBrowser(name, { waitforTimeout: 300 }, fn);
}

test("settings: a UiSelector click opens Display, back returns, UiScrollable reaches the bottom of the list", async () => {
  await withScenario("settings", async (b, device) => {
    const home = device.screenId();
    await b.$('android=new UiSelector().text("Display")').click();
    assert.notEqual(device.screenId(), home);
    await b.back();
    assert.equal(device.screenId(), home);
    const about = b.$(
      'android=new UiScrollable(new UiSelector().scrollable(true)).scrollIntoView(new UiSelector().textStartsWith("About"))',
    );
    assert.equal(await about.getText(), "About emulated device");
    assert.ok(device.log.some((e) => e.source === "uia2" && e.command.startsWith("find element -android uiautomator new UiScrollable")));
  });
});

test("login: the keyboard is up and hides; the focused field takes keys; the current package is the app", async () => {
  await withScenario("login", async (b) => {
    assert.equal(await b.getCurrentPackage(), "com.example.shop");
    assert.equal(await b.isKeyboardShown(), true);
    await b.hideKeyboard();
    assert.equal(await b.isKeyboardShown(), false);
    const active = await b.getActiveElement() as unknown as Record<string, string>;
    assert.equal(await b.getElementAttribute(Object.values(active)[0] as string, "resource-id"), "com.example.shop:id/email");
    await b.execute("mobile: pressKey", { keycode: 4 });
    assert.equal(await b.execute("mobile: getCurrentPackage"), "com.example.shop");
  });
});

test("login: typing fills the e-mail field in the source; Sign in shows the account screen", async () => {
  await withScenario("login", async (b) => {
    await b.$("id=com.example.shop:id/email").setValue("ana@example.com");
    assert.equal(await b.$("id=email").getText(), "ana@example.com");
    assert.match(await b.getPageSource(), /<android\.widget\.EditText [^>]*text="ana@example\.com"/);
    await b.$('//android.widget.Button[@text="Sign in"]').click();
    assert.equal(await b.$("id=com.example.shop:id/greeting").getText(), "Signed in");
  });
});

test("flutter: tabs are found by their merged content-desc with a newline, and a tap switches tab", async () => {
  await withScenario("flutter", async (b) => {
    const tabs = await b.$$('android=new UiSelector().descriptionMatches(".*\\nTab \\d of \\d")').getElements();
    assert.ok(tabs.length >= 3);
    const second = await tabs[1]!.getAttribute("content-desc");
    assert.match(second ?? "", /\nTab 2 of/);
    await b.$(`~${second}`).click();
    assert.equal(await b.$(`~${second}`).getAttribute("selected"), "true");
  });
});

test("permission dialog: a W3C tap on the button's centre grants and leaves the dialog", async () => {
  await withScenario("permission", async (b, device) => {
    await b.$('android=new UiSelector().text("Find places near me")').click();
    const allow = await b.$('android=new UiSelector().text("While using the app")');
    const rect = await b.getElementRect(await allow.elementId);
    const dialog = device.screenId();
    await b.action("pointer", { parameters: { pointerType: "touch" } })
      .move({ x: Math.round(rect.x + rect.width / 2), y: Math.round(rect.y + rect.height / 2) }).down().up().perform();
    assert.notEqual(device.screenId(), dialog);
    assert.equal(await b.$('android=new UiSelector().text("While using the app")').isExisting(), false);
  });
});

test("GET /appium/sessions keeps only the newest 50 replaced sessions besides the live one", async () => {
  const server = await startUia2Server(new ScenarioDevice(resolveScenario("settings")), {});
  try {
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await fetch(`${server.url}/session`, { method: "POST", body: JSON.stringify({ capabilities: { alwaysMatch: {} } }) });
      ids.push(((await res.json()) as { value: { sessionId: string } }).value.sessionId);
    }
    const listed = ((await (await fetch(`${server.url}/appium/sessions`)).json()) as { value: { id: string }[] }).value.map((s) => s.id);
    assert.deepEqual(listed, ids.slice(9));
  } finally {
    await server.stop();
  }
});

const SCROLL_AREA = { left: 0, top: 500, width: 1080, height: 1800, percent: 0.9 };

test("mobile: scrollGesture answers whether it can still scroll, as UiAutomator2 does: false once the end is reached", async () => {
  await withScenario("settings", async (b, device) => {
    const down = [];
    for (let i = 0; i < 3; i++) down.push(await b.execute("mobile: scrollGesture", { ...SCROLL_AREA, direction: "down" }));
    assert.deepEqual(down, [false, false, false], "the first scroll reaches the last part of Settings home");
    assert.equal(device.screenId(), "settings_home_2");
    const sid = b.sessionId;
    const res = await fetch(`http://127.0.0.1:${(b.options as { port: number }).port}/session/${sid}/appium/gestures/scroll`, {
      method: "POST",
      body: JSON.stringify({ origin: null, area: SCROLL_AREA, direction: "up", percent: 0.9 }),
    });
    assert.equal(((await res.json()) as { value: unknown }).value, false, "device-side scroll: back at the top, no further up");
    assert.equal(device.screenId(), "settings_home");
  });
});

/** Settings home in three parts, so the first downward scroll can still go on. */
function threePartSettings(): Scenario {
  const scenario = structuredClone(resolveScenario("settings"));
  scenario.screens["settings_home_3"] = structuredClone(scenario.screens["settings_home_2"]!);
  scenario.transitions.push(
    { from: "settings_home_2", on: "scroll_down", to: "settings_home_3" },
    { from: "settings_home_3", on: "scroll_up", to: "settings_home_2" },
  );
  return scenario;
}

test("mobile: scrollGesture in a three-part list: true while more is below, then false", async () => {
  await withScenario(threePartSettings(), async (b) => {
    const down = [];
    for (let i = 0; i < 3; i++) down.push(await b.execute("mobile: scrollGesture", { ...SCROLL_AREA, direction: "down" }));
    assert.deepEqual(down, [true, false, false]);
  });
});

test("appium:newCommandTimeout: a session no client commands ends after it, as Appium's does; commands and 0 keep it alive (R37)", async () => {
  let now = 1_000_000;
  const server = await startUia2Server(new ScenarioDevice(resolveScenario("settings")), { now: () => now });
  const open = async (capabilities: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/session`, {
      method: "POST",
      body: JSON.stringify({ capabilities: { alwaysMatch: capabilities } }),
    });
    return ((await res.json()) as { value: { sessionId: string } }).value.sessionId;
  };
  const listed = async () =>
    ((await (await fetch(`${server.url}/appium/sessions`)).json()) as { value: { id: string }[] }).value.map((s) => s.id);
  const source = async (id: string) => {
    const res = await fetch(`${server.url}/session/${id}/source`);
    await res.arrayBuffer();
    return res.status;
  };
  try {
    const id = await open({ "appium:automationName": "UiAutomator2", "appium:newCommandTimeout": 90 });
    now += 89_000;
    assert.equal(await source(id), 200, "a command before the timeout is served");
    now += 89_000; // 89 s after that command: still alive, the command restarted the count
    assert.deepEqual(await listed(), [id]);
    now += 2_000;
    assert.deepEqual(await listed(), [], "90 s without a command: the session is gone, as Appium removes it");
    assert.equal(await source(id), 404, "and answers invalid session id");

    const byDefault = await open({ "appium:automationName": "UiAutomator2" });
    now += 61_000;
    assert.deepEqual(await listed(), [], "Appium's default is 60 s");
    assert.equal(await source(byDefault), 404);

    const never = await open({ "appium:automationName": "UiAutomator2", "appium:newCommandTimeout": 0 });
    const deviceSide = await open({ automationName: "UiAutomator2", newCommandTimeout: 5 }); // from the Appium driver: Appium times it
    assert.deepEqual(await listed(), [never, deviceSide]);
    now += 3_600_000;
    assert.equal(await source(never), 404, "replaced by the device-side session");
    assert.deepEqual(await listed(), [never, deviceSide], "0 never times out, nor does a session the Appium driver opened");
    assert.equal(await source(deviceSide), 200);
  } finally {
    await server.stop();
  }
});
