import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { validateScenario } from "../../src/sim/scenario/validate.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { DeviceShell } from "../../src/sim/shell/device_shell.ts";
import { BUILTIN_SCENARIOS } from "../../src/sim/scenarios/mod.ts";
import { demoScenario } from "../fixtures/uia2_demo_scenario.ts";

function attrsOf(xml: string, needle: string): Record<string, string> {
  const m = new RegExp(`<node [^>]*${needle}[^>]*>`).exec(xml);
  assert.ok(m, `no node with ${needle} on this screen`);
  return Object.fromEntries([...m[0].matchAll(/([\w-]+)="([^"]*)"/g)].map((x) => [x[1]!, x[2]!]));
}

const device = (name?: string) => new ScenarioDevice(resolveScenario(name));

test("every built-in scenario validates and starts on a screen with clickable content (the canvas game: none, by design)", () => {
  for (const [name, scenario] of Object.entries(BUILTIN_SCENARIOS)) {
    // resolveScenario copies a built-in one without the schema's parse (the start's cost): this is its check.
    assert.deepEqual(validateScenario(scenario, name), scenario, name);
    const d = device(name);
    assert.match(
      d.hierarchyXml(),
      /^<\?xml version='1\.0' encoding='UTF-8' standalone='yes' \?><hierarchy rotation="0"><node index="0"/,
      name,
    );
    // A game's screens have an empty accessibility tree: only its fingerprint tells them apart (tests/flow/fingerprint_flow).
    if (name === "canvas") assert.doesNotMatch(d.hierarchyXml(), /clickable="true"|text="[^"]/, name);
    else assert.match(d.hierarchyXml(), /clickable="true"/, name);
    assert.ok(d.installedPackages().some((p) => p.name === d.foregroundPackage()), name);
  }
});

test("a built-in scenario resolves to a copy of its own: a device that changes it leaves the next one as built", () => {
  const first = resolveScenario("login");
  assert.notEqual(first, BUILTIN_SCENARIOS["login"]);
  first.screens = {};
  assert.deepEqual(resolveScenario("login"), BUILTIN_SCENARIOS["login"]);
  assert.deepEqual(resolveScenario(undefined), BUILTIN_SCENARIOS["settings"]);
});

test("settings: tap a row → sub-screen, back → previous, scroll → the next part of the list", () => {
  const d = device();
  assert.equal(d.foregroundActivity(), "com.android.settings.Settings");
  d.tap(attrsOf(d.hierarchyXml(), 'text="Apps"'));
  assert.equal(d.screenId(), "apps");
  assert.equal(d.foregroundActivity(), "com.android.settings.SubSettings");
  d.tap(attrsOf(d.hierarchyXml(), 'text="All apps"'));
  d.tap(attrsOf(d.hierarchyXml(), 'text="Calendar"'));
  assert.match(d.hierarchyXml(), /text="Force stop"/);
  d.back();
  d.back();
  d.back();
  assert.equal(d.screenId(), "settings_home");
  assert.doesNotMatch(d.hierarchyXml(), /About emulated device/);
  d.scroll("down");
  assert.match(d.hierarchyXml(), /About emulated device/);
  d.scroll("up");
  assert.equal(d.screenId(), "settings_home");
});

test("a tap on the row container or on its label fires the same transition; a dead tap changes nothing", () => {
  const d = device();
  d.tapAt(540, 1100); // inside the "Apps" row, away from its texts
  assert.equal(d.screenId(), "apps");
  const before = d.hierarchyXml();
  d.tap(attrsOf(before, 'text="Recently opened apps"'));
  assert.equal(d.hierarchyXml(), before);
});

test("typing replaces the field's text; tapping an input opens the keyboard; back closes it first", () => {
  const d = device("login");
  assert.deepEqual(d.keyboard(), { open: true, top: 1517 });
  d.back();
  assert.deepEqual(d.keyboard(), { open: false });
  assert.equal(d.screenId(), "login");
  const email = attrsOf(d.hierarchyXml(), 'resource-id="com.example.shop:id/email"');
  d.setText(email, "ana@example.com");
  assert.match(d.hierarchyXml(), /text="ana@example.com" resource-id="com.example.shop:id\/email"/);
  assert.equal(d.keyboard().open, true);
  d.typeText(".es");
  assert.match(d.hierarchyXml(), /text="ana@example.com.es"/);
  d.tap(attrsOf(d.hierarchyXml(), 'resource-id="com.example.shop:id/sign_in"'));
  assert.equal(d.foregroundActivity(), "com.example.shop.MainActivity");
  assert.deepEqual(d.keyboard(), { open: false });
});

test("launching: launcher icon → app; an uninstalled package is refused; HOME returns to the launcher", () => {
  const d = device("launcher");
  d.tap(attrsOf(d.hierarchyXml(), 'content-desc="Notes"'));
  assert.equal(d.foregroundPackage(), "com.example.notes");
  assert.equal(d.launch("com.nope.app"), false);
  assert.equal(d.launch("com.google.android.deskclock"), true);
  assert.equal(d.foregroundPackage(), "com.google.android.deskclock");
  assert.match(d.hierarchyXml(), /text="Clock"/);
  d.home();
  assert.equal(d.screenId(), "home");
});

test("flutter: merged content-desc with a newline is rendered as &#10; and selects the tab", () => {
  const d = device("flutter");
  const xml = d.hierarchyXml();
  assert.match(xml, /content-desc="Historial&#10;Tab 2 of 3"/);
  d.tap({ "content-desc": "Historial\nTab 2 of 3", bounds: "[360,2211][720,2337]", class: "android.view.View" });
  assert.equal(d.screenId(), "historial");
  assert.match(
    d.hierarchyXml(),
    /content-desc="Historial&#10;Tab 2 of 3" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="true"/,
  );
});

test("permission dialog: deny returns to the app, allow shows results; a toggle flips when tapped", () => {
  const d = device("permission");
  d.tap(attrsOf(d.hierarchyXml(), 'text="Find places near me"'));
  assert.equal(d.foregroundPackage(), "com.google.android.permissioncontroller");
  assert.match(d.hierarchyXml(), /bounds="\[28,432\]\[1052,1968\]"/);
  const approx = attrsOf(d.hierarchyXml(), 'text="Approximate"');
  d.tap(approx);
  assert.match(d.hierarchyXml(), /text="Approximate"[^>]* checked="true"/);
  d.tap(attrsOf(d.hierarchyXml(), 'resource-id="com.android.permissioncontroller:id/permission_deny_button"'));
  assert.equal(d.screenId(), "app");
  d.tap(attrsOf(d.hierarchyXml(), 'text="Find places near me"'));
  d.tap(attrsOf(d.hierarchyXml(), 'text="While using the app"'));
  assert.equal(d.screenId(), "results");
});

test("force-stop of the foreground app falls back to the launcher", () => {
  const d = device();
  d.forceStop("com.android.settings");
  assert.equal(d.foregroundPackage(), "com.google.android.apps.nexuslauncher");
});

test("every built-in scenario carries the real Settings app: launching it shows the Settings list", () => {
  for (const name of Object.keys(BUILTIN_SCENARIOS)) {
    const d = device(name);
    if (d.foregroundPackage() !== "com.android.settings") assert.equal(d.launch("com.android.settings"), true, name);
    assert.equal(d.screenId(), "settings_home", name);
    assert.match(d.hierarchyXml(), /text="Network &amp; internet"/, name);
  }
});

test("flutter: the history search opens the keyboard over the bottom tabs", () => {
  const d = device("flutter");
  d.tap({ "content-desc": "Historial\nTab 2 of 3", bounds: "[360,2211][720,2337]" });
  d.tap(attrsOf(d.hierarchyXml(), 'hint="Buscar movimientos"'));
  assert.deepEqual(d.keyboard(), { open: true, top: 1517 });
  d.typeText("luz");
  assert.match(d.hierarchyXml(), /text="luz"/);
});

test("tasks: BACK on an app's first screen goes to the launcher, HOME does not stack, relaunch brings the task back", () => {
  const d = device("launcher");
  for (let i = 0; i < 3; i++) {
    d.tap(attrsOf(d.hierarchyXml(), 'content-desc="Notes"'));
    assert.equal(d.foregroundPackage(), "com.example.notes");
    d.home();
    assert.equal(d.screenId(), "home");
  }
  d.back(); // BACK on the launcher stays on the launcher
  assert.equal(d.screenId(), "home");
  d.tap(attrsOf(d.hierarchyXml(), 'content-desc="Notes"'));
  d.tap(attrsOf(d.hierarchyXml(), 'text="Groceries"'));
  assert.equal(d.screenId(), "note");
  d.home();
  d.tap(attrsOf(d.hierarchyXml(), 'content-desc="Notes"'));
  assert.equal(d.screenId(), "note", "launching a running package brings its task to the front as it was");
  d.back();
  assert.equal(d.screenId(), "notes_list");
  d.back();
  assert.equal(d.screenId(), "home", "BACK on the task's root shows the launcher");
  d.back();
  assert.equal(d.screenId(), "home");
});

test("tasks: the settings scenario starts in Settings with the launcher below it", () => {
  const d = device("settings");
  d.back();
  assert.equal(d.foregroundPackage(), "com.google.android.apps.nexuslauncher");
  d.launch("com.android.settings");
  d.tap(attrsOf(d.hierarchyXml(), 'text="Apps"'));
  d.launch("com.google.android.deskclock");
  d.launch("com.android.settings");
  assert.equal(d.screenId(), "apps");
});

test("a tap reaches the nearest clickable, enabled ancestor: the label of a row flips its switch; a disabled button does nothing", () => {
  const d = device("settings");
  d.tap(attrsOf(d.hierarchyXml(), 'text="Network &amp; internet"'));
  assert.equal(d.screenId(), "network");
  const label = attrsOf(d.hierarchyXml(), 'text="Airplane mode"');
  d.tap(label);
  assert.match(d.hierarchyXml(), /resource-id="android:id\/switch_widget"[^>]* checked="true"/, "element click on the label");
  d.tapAt(300, 795); // `input tap` / W3C tap on the label's text
  assert.match(d.hierarchyXml(), /resource-id="android:id\/switch_widget"[^>]* checked="false"/, "tap at a point on the label");

  const demo = new ScenarioDevice(resolveScenario(demoScenario()));
  demo.launch("com.example.login");
  demo.tap(attrsOf(demo.hierarchyXml(), 'text="Sign up"'));
  demo.tapAt(540, 1270);
  assert.equal(demo.screenId(), "login", "a disabled button fires nothing");
});

test("an empty input shows its hint as its text (API 26+ dumps); typing replaces it; clearing brings it back", () => {
  const d = device("login");
  assert.match(d.hierarchyXml(), /text="Email" resource-id="com.example.shop:id\/email"[^>]* hint="Email"/);
  d.typeText("ana");
  assert.match(d.hierarchyXml(), /text="ana" resource-id="com.example.shop:id\/email"/);
  const email = attrsOf(d.hierarchyXml(), 'resource-id="com.example.shop:id/email"');
  d.setText(email, "");
  assert.match(d.hierarchyXml(), /text="Email" resource-id="com.example.shop:id\/email"/);
  d.typeText("bo");
  assert.match(
    d.hierarchyXml(),
    /text="bo" resource-id="com.example.shop:id\/email"/,
    "typing into a hinted field does not append to the hint",
  );
});

test("memory stays bounded: the command log keeps the last 10,000 entries with a length index that still works; files stop at 64 MiB", () => {
  const d = device();
  for (let i = 0; i < 25_000; i++) d.log.push({ source: "adb", command: `cmd ${i}` });
  assert.ok(d.log.kept <= 11_000 && d.log.kept >= 10_000, `kept ${d.log.kept}`);
  assert.equal(d.log.length, 25_000);
  const from = d.log.length;
  d.log.push({ source: "uia2", command: "after" });
  assert.deepEqual(d.log.slice(from), [{ source: "uia2", command: "after" }]);
  assert.deepEqual(d.log.slice(-2).map((e) => e.command), ["cmd 24999", "after"]);
  assert.ok(!d.log.some((e) => e.command === "cmd 0"), "the oldest entries are gone");

  const mib = new Uint8Array(1024 * 1024);
  for (let i = 0; i < 64; i++) d.files.set(`/sdcard/f${i}`, mib);
  assert.equal(d.files.refusal("/sdcard/one-more", 1), "write failed: No space left on device");
  assert.throws(() => d.files.set("/sdcard/one-more", mib), /No space left on device/);
  assert.equal(d.files.refusal("/sdcard/f0", mib.length), null, "replacing a file reuses its space");
  d.files.delete("/sdcard/f1");
  d.files.set("/sdcard/one-more", mib);
  assert.equal(d.files.used, 64 * 1024 * 1024);
});

test("offline faults: the request count restarts when the state is set back to device; output is cut after N bytes once", () => {
  const d = device();
  d.setFaults({ offlineAfterRequests: 2 });
  assert.deepEqual([d.countServiceRequest(), d.countServiceRequest(), d.countServiceRequest()], [false, false, true]);
  assert.equal(d.connectionState(), "offline");
  d.setFaults({ state: "device" });
  assert.deepEqual(
    [d.countServiceRequest(), d.countServiceRequest(), d.countServiceRequest()],
    [false, false, true],
    "two more requests are served before the device drops again",
  );

  const e = device();
  e.setFaults({ offlineAfterOutputBytes: 10 });
  const bytes = new TextEncoder().encode("0123456");
  assert.deepEqual(e.passOutput(bytes), { bytes, drop: false });
  const cut = e.passOutput(new TextEncoder().encode("789abcdef"));
  assert.equal(new TextDecoder().decode(cut.bytes), "789");
  assert.equal(cut.drop, true);
  assert.equal(e.connectionState(), "offline");
  e.setFaults({ state: "device" });
  assert.deepEqual(e.passOutput(bytes), { bytes, drop: false }, "one-shot: the next command's output is whole");
});

test("the shade's quick-settings switches flip when tapped (the shade stays down); a notification still opens its screen", () => {
  const d = device("shop");
  d.openNotifications();
  assert.equal(attrsOf(d.hierarchyXml(), 'text="Internet"')["checked"], "true");
  d.tap(attrsOf(d.hierarchyXml(), 'text="Internet"'));
  assert.equal(d.screenId(), "@shade");
  assert.equal(attrsOf(d.hierarchyXml(), 'text="Internet"')["checked"], "false", "Internet turned off");
  d.tap(attrsOf(d.hierarchyXml(), 'text="Bluetooth"'));
  assert.equal(attrsOf(d.hierarchyXml(), 'text="Bluetooth"')["checked"], "true", "Bluetooth turned on");
  d.tap(attrsOf(d.hierarchyXml(), 'text="Your order has shipped"'));
  assert.equal(d.screenId(), "order_placed");
});

test("settings: Network & internet → Internet shows the Wi-Fi switch, on; tapping its row turns Wi-Fi off", () => {
  const d = device();
  d.tap(attrsOf(d.hierarchyXml(), 'text="Network &amp; internet"'));
  d.tap(attrsOf(d.hierarchyXml(), 'text="Internet"'));
  assert.equal(d.screenId(), "internet");
  assert.equal(attrsOf(d.hierarchyXml(), 'resource-id="android:id/switch_widget"')["checked"], "true");
  d.tap(attrsOf(d.hierarchyXml(), 'text="Wi-Fi"'));
  assert.equal(attrsOf(d.hierarchyXml(), 'resource-id="android:id/switch_widget"')["checked"], "false", "Wi-Fi off");
  d.back();
  assert.equal(d.screenId(), "network");
});

test("shop: the search result Hiking boots opens its own product page, which a double tap likes too", () => {
  const d = device("shop");
  d.tap(attrsOf(d.hierarchyXml(), 'content-desc="Search"'));
  d.setText(attrsOf(d.hierarchyXml(), 'resource-id="com.example.shop:id/search_field"'), "boots");
  d.editorAction("search");
  assert.equal(d.screenId(), "search_results");
  d.tap(attrsOf(d.hierarchyXml(), 'text="Hiking boots"'));
  assert.equal(d.screenId(), "product_13");
  assert.equal(attrsOf(d.hierarchyXml(), 'resource-id="com.example.shop:id/product_name"')["text"], "Hiking boots");
  assert.equal(attrsOf(d.hierarchyXml(), 'resource-id="com.example.shop:id/product_price"')["text"], "$129");
  d.doubleTap(attrsOf(d.hierarchyXml(), 'resource-id="com.example.shop:id/product_image"'));
  assert.equal(attrsOf(d.hierarchyXml(), 'resource-id="com.example.shop:id/favourite"')["checked"], "true");
  d.back();
  assert.equal(d.screenId(), "search_results");
});

test("double tap: two taps 40 to 300 ms apart (first up to second down, device clock) at one place; other timings are two taps", () => {
  let now = 1_000;
  const d = new ScenarioDevice(resolveScenario("shop"), { now: () => now });
  const shell = new DeviceShell(d);
  const photo = () => {
    d.tap(attrsOf(d.hierarchyXml(), 'text="Canvas sneakers"'));
    assert.equal(d.screenId(), "product_42");
  };
  const liked = () => attrsOf(d.hierarchyXml(), 'resource-id="com.example.shop:id/favourite"')["checked"] === "true";
  const twice = (gapMs: number, second = "540 700") => {
    shell.run("input tap 540 700");
    now += gapMs;
    shell.run(`input tap ${second}`);
    now += 1_000;
  };
  photo();
  twice(10);
  assert.equal(liked(), false, "10 ms apart: under DOUBLE_TAP_MIN_TIME (40 ms), two taps");
  twice(400);
  assert.equal(liked(), false, "400 ms apart: past DOUBLE_TAP_TIMEOUT (300 ms), two taps");
  twice(150, "540 1000");
  assert.equal(liked(), false, "300 px apart: beyond the double-tap slop (100 dp = 263 px), two taps");
  twice(150);
  assert.equal(liked(), true, "150 ms apart at one place: a double tap");
});

test("input motionevent DOWN … UP is a stroke held for the time between them on the device's clock", () => {
  let now = 5_000;
  const d = new ScenarioDevice(resolveScenario("shop"), { now: () => now });
  const shell = new DeviceShell(d);
  const hold = (ms: number) => {
    assert.equal(shell.run("input motionevent DOWN 658 880").kind, "exit");
    now += ms;
    shell.run("input motionevent UP 658 880");
  };
  hold(150);
  assert.equal(d.screenId(), "shop_home", "150 ms: a tap, which does nothing on Rain jacket");
  hold(450);
  assert.equal(d.screenId(), "product_menu", "450 ms, past the 400 ms timeout: a long press");
  assert.equal(attrsOf(d.hierarchyXml(), 'resource-id="android:id/alertTitle"')["text"], "Rain jacket", "its menu's header names the row");
  d.back();
  shell.run("input motionevent DOWN 658 880");
  now += 900;
  shell.run("input motionevent CANCEL 658 880");
  shell.run("input motionevent UP 658 880");
  assert.equal(d.screenId(), "shop_home", "a cancelled finger lifts to nothing");
  const bad = shell.run("input motionevent PRESS 1 2");
  assert.ok(bad.kind === "exit" && bad.code === 1 && /Usage: input motionevent <DOWN\|UP\|MOVE\|CANCEL> <x> <y>/.test(bad.stderr));
});
