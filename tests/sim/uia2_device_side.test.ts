/**
 * The simulated UiAutomator2 server in its second role: the on-device server the REAL Appium
 * UiAutomator2 driver proxies to (notes §3). These requests are written exactly as the driver's
 * jwproxy sends them: session creation with firstMatch caps, finds as {strategy, selector,
 * context, multiple}, appium/gestures/scroll with {area, direction, percent}, and the viewport calls.
 * The device is the real scenario engine (ScenarioDevice) playing tests/fixtures/uia2_demo_scenario.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { startUia2Server, type Uia2Server } from "../../src/sim/uia2/server.ts";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { demoScenario } from "../fixtures/uia2_demo_scenario.ts";

interface Reply {
  status: number;
  value: unknown;
}

function client(server: Uia2Server): (method: string, path: string, body?: unknown) => Promise<Reply> {
  return async (method, path, body) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json() as { value: unknown };
    return { status: res.status, value: json.value };
  };
}

async function withDriverSession(
  fn: (call: ReturnType<typeof client>, sid: string, device: ScenarioDevice) => Promise<void>,
): Promise<void> {
  const device = new ScenarioDevice(resolveScenario(demoScenario()));
  const server = await startUia2Server(device, {});
  try {
    const call = client(server);
    const created = await call("POST", "/session", {
      capabilities: { firstMatch: [{ platformName: "Android", automationName: "UiAutomator2", udid: device.serial }], alwaysMatch: {} },
    });
    assert.equal(created.status, 200);
    const sid = (created.value as { sessionId: string }).sessionId;
    await fn(call, sid, device);
  } finally {
    await server.stop();
  }
}

function elementId(value: unknown): string {
  return (value as Record<string, string>)["element-6066-11e4-a52e-4f735466cecf"] as string;
}

test("GET /status answers ready without a session, as the driver polls it while the instrumentation starts", async () => {
  const server = await startUia2Server(new ScenarioDevice(resolveScenario(demoScenario())), {});
  try {
    const status = await client(server)("GET", "/status");
    assert.equal(status.status, 200);
    assert.equal((status.value as { ready: boolean }).ready, true);
  } finally {
    await server.stop();
  }
});

test("device-side finds use {strategy, selector, context, multiple}; a context scopes the search", async () => {
  await withDriverSession(async (call, sid) => {
    await call("POST", `/session/${sid}/appium/device/activate_app`, { appId: "com.android.settings" });
    const list = await call("POST", `/session/${sid}/element`, {
      strategy: "id",
      selector: "com.android.settings:id/recycler_view",
      context: "",
      multiple: false,
    });
    assert.equal(list.status, 200);
    const titles = await call("POST", `/session/${sid}/elements`, {
      strategy: "-android uiautomator",
      selector: 'new UiSelector().resourceId("android:id/title")',
      context: elementId(list.value),
      multiple: true,
    });
    assert.equal((titles.value as unknown[]).length, 6);
    const outside = await call("POST", `/session/${sid}/elements`, {
      strategy: "id",
      selector: "com.android.settings:id/title",
      context: elementId(list.value),
      multiple: true,
    });
    assert.deepEqual(outside.value, [], "the screen title is not inside the list");
    const display = await call("POST", `/session/${sid}/element`, {
      strategy: "xpath",
      selector: '//*[@text="Display"]',
      context: "",
      multiple: false,
    });
    const text = await call("GET", `/session/${sid}/element/${elementId(display.value)}/text`);
    assert.equal(text.value, "Display");
  });
});

test("appium/gestures/scroll with {area, direction, percent} scrolls and answers whether it can still scroll", async () => {
  await withDriverSession(async (call, sid, device) => {
    await call("POST", `/session/${sid}/appium/device/activate_app`, { appId: "com.android.settings" });
    const area = { left: 0, top: 300, width: 1080, height: 2100 };
    const moved = await call("POST", `/session/${sid}/appium/gestures/scroll`, { origin: null, area, direction: "down", percent: 0.75 });
    assert.deepEqual(moved, { status: 200, value: false }, "the list has two parts: the first scroll reaches the last");
    assert.equal(device.screenId(), "settings2");
    const up = await call("POST", `/session/${sid}/appium/gestures/scroll`, { origin: null, area, direction: "up", percent: 0.75 });
    assert.deepEqual(up, { status: 200, value: false });
    assert.equal(device.screenId(), "settings");
    const bad = await call("POST", `/session/${sid}/appium/gestures/scroll`, { area, direction: "sideways", percent: 1 });
    assert.equal(bad.status, 400);
    assert.equal((bad.value as { error: string }).error, "invalid argument");
  });
});

test("viewport calls the driver makes: pixel_ratio, system_bars, window/current/size, device info", async () => {
  await withDriverSession(async (call, sid) => {
    assert.equal((await call("GET", `/session/${sid}/appium/device/pixel_ratio`)).value, 420 / 160);
    assert.deepEqual((await call("GET", `/session/${sid}/appium/device/system_bars`)).value, { statusBar: 63 });
    assert.deepEqual((await call("GET", `/session/${sid}/window/current/size`)).value, { width: 1080, height: 2400 });
    const info = (await call("GET", `/session/${sid}/appium/device/info`)).value as Record<string, unknown>;
    assert.equal(info["realDisplaySize"], "1080x2400");
    assert.equal(info["apiVersion"], "35");
  });
});

test("GET and DELETE /session/:id, the /wd/hub base path, and unknown routes", async () => {
  await withDriverSession(async (call, sid) => {
    const caps = (await call("GET", `/session/${sid}`)).value as Record<string, unknown>;
    assert.equal(caps["appium:deviceName"], "emulator-5554");
    assert.equal((await call("GET", `/wd/hub/session/${sid}/source`)).status, 200);
    const unknown = await call("POST", `/session/${sid}/appium/device/lock`, {});
    assert.deepEqual([unknown.status, (unknown.value as { error: string }).error], [404, "unknown command"]);
    const wrongMethod = await call("PUT", `/session/${sid}/source`, {});
    assert.deepEqual([wrongMethod.status, (wrongMethod.value as { error: string }).error], [405, "unknown method"]);
    assert.equal((await call("DELETE", `/session/${sid}`)).status, 200);
    const gone = await call("GET", `/session/${sid}/source`);
    assert.deepEqual([gone.status, (gone.value as { error: string }).error], [404, "invalid session id"]);
  });
});

test("a body that is not JSON is `invalid argument`, and a non-Android platform is `session not created`", async () => {
  const server = await startUia2Server(new ScenarioDevice(resolveScenario(demoScenario())), {});
  try {
    const res = await fetch(`${server.url}/session`, { method: "POST", body: "{nope" });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { value: { error: string } }).value.error, "invalid argument");
    const ios = await client(server)("POST", "/session", { capabilities: { alwaysMatch: { platformName: "iOS" } } });
    assert.deepEqual([ios.status, (ios.value as { error: string }).error], [500, "session not created"]);
  } finally {
    await server.stop();
  }
});
