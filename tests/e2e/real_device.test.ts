/**
 * The campaign against a REAL emulator or device, gated by ANDROID_MCP_RUN_EMULATOR=1 (`npm run test:device`;
 * no emulator can run on our own machines: no KVM; .github/workflows/device.yml runs it on a hosted runner with
 * KVM). It spawns `serve` without `--device sim`, so the harness picks ANDROID_UDID or the only online device
 * through the real adb server, and the direct backend (the harness's own UiAutomator2 server over adb, no Appium,
 * no Java) unless APPIUM_URL names an Appium (device.yml runs it both ways). Observe first, then every act tool in one UI session on
 * Android Settings (the one app every device has), the new hands included; app_clear only with
 * ANDROID_MCP_DEVICE_DESTRUCTIVE=1 (it wipes Settings' data: for a throwaway emulator). Evidence goes to
 * ANDROID_MCP_DEVICE_ARTIFACTS when set (CI uploads it). Skipped with its reason otherwise, never faked as passing.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { AVAILABLE_TOOL_NAMES } from "../../contracts/tools.ts";
import { validateSelector } from "../../src/screen/validate_selector.ts";
import { envelopeOf, type SpawnedServer, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";

const skip = process.env["ANDROID_MCP_RUN_EMULATOR"] === "1"
  ? false
  : "needs a real emulator or device: set ANDROID_MCP_RUN_EMULATOR=1 (and ANDROID_UDID when several are online)";

const destructive = process.env["ANDROID_MCP_DEVICE_DESTRUCTIVE"] === "1"
  ? false
  : "wipes Settings' data: set ANDROID_MCP_DEVICE_DESTRUCTIVE=1 on a throwaway emulator";
const SETTINGS = "com.android.settings";

let home: ServeHome | undefined;
let served: SpawnedServer | undefined;

before(async () => {
  if (skip) return;
  home = makeServeHome();
  const passThrough: Record<string, string> = {};
  for (const name of ["ANDROID_UDID", "ANDROID_HOME", "ADB", "ADB_SERVER_SOCKET", "APPIUM_URL", "ANDROID_MCP_ACTION_TIMEOUT"]) {
    const value = process.env[name];
    if (value !== undefined) passThrough[name] = value;
  }
  const kept = process.env["ANDROID_MCP_DEVICE_ARTIFACTS"];
  if (kept !== undefined) mkdirSync(kept, { recursive: true });
  served = await spawnServe([], { ...home.env, ...passThrough, ...(kept === undefined ? {} : { ANDROID_MCP_ARTIFACTS_DIR: kept }) });
});

after(async () => {
  await served?.close();
  home?.remove();
});

async function call(name: string, args: Record<string, unknown> = {}) {
  return envelopeOf(await served!.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 }));
}

type Envelope = Awaited<ReturnType<typeof call>>;
interface Action {
  selector: Record<string, unknown>;
  label?: string;
  role?: string;
  bounds: number[];
}
interface Summary {
  foreground_package: string;
  texts: string[];
  actions: Action[];
  scroll_areas?: { selector: Record<string, unknown>; axis?: string }[];
}

/** The UI session the act tests share (opened by the first of them, closed by the last). */
let sessionId: string | undefined;

async function act(name: string, args: Record<string, unknown> = {}): Promise<Envelope> {
  return call(name, { ...args, session_id: sessionId });
}

/** The act succeeded with a PNG on disk; answers its new screen. */
function acted(envelope: Envelope, what: string): Summary {
  assert.equal(envelope.ok, true, `${what}: ${JSON.stringify(envelope.error)}`);
  assert.ok(envelope.evidence !== null && existsSync(envelope.evidence.path), `${what}: evidence on disk`);
  assert.equal(readFileSync(envelope.evidence.path).subarray(1, 4).toString(), "PNG", what);
  return envelope.data["screen"] as Summary;
}

const offered = (screen: Summary, pattern: RegExp) =>
  screen.actions.find((a) =>
    pattern.test(a.label ?? "") || Object.values(a.selector).some((v) => typeof v === "string" && pattern.test(v))
  );

test("real device: the server publishes exactly the contract's available tools", { skip }, async () => {
  const { tools } = await served!.client.listTools();
  assert.deepEqual(tools.map((t) => t.name), AVAILABLE_TOOL_NAMES);
});

test("real device: device_status is online, not simulated, with a real screen", { skip }, async () => {
  const status = await call("device_status");
  assert.equal(status.ok, true, JSON.stringify(status.error));
  assert.equal(status.data["online"], true);
  assert.notEqual(status.data["simulated"], true);
  const screen = status.data["screen"] as { width: number; height: number; density: number };
  assert.ok(screen.width > 0 && screen.height > 0 && screen.density > 0, JSON.stringify(screen));
});

test("real device: observing does not change the foreground app", { skip }, async () => {
  const before = await call("device_status");
  for (const tool of ["ui_get_tree", "ui_screenshot", "app_list", "ui_get_tree"]) {
    const envelope = await call(tool);
    assert.equal(envelope.ok, true, `${tool}: ${JSON.stringify(envelope.error)}`);
  }
  const afterwards = await call("device_status");
  assert.equal(afterwards.data["foreground_package"], before.data["foreground_package"]);
});

test("real device: two screenshots in a row are two distinct, non-blank evidence files", { skip }, async () => {
  const first = await call("ui_screenshot");
  const second = await call("ui_screenshot");
  assert.equal(first.ok && second.ok, true, JSON.stringify([first.error, second.error]));
  assert.notEqual(first.evidence!.path, second.evidence!.path);
  for (const shot of [first, second]) {
    assert.ok(existsSync(shot.evidence!.path));
    assert.ok(readFileSync(shot.evidence!.path).subarray(1, 4).toString() === "PNG");
  }
});

test("real device: every offered selector is well-formed and the raw dump is the screen of now", { skip }, async () => {
  const tree = await call("ui_get_tree", { include_raw: true });
  assert.equal(tree.ok, true, JSON.stringify(tree.error));
  assert.match(String(tree.data["raw"]), /<hierarchy/);
  for (const action of tree.data["actions"] as { selector: Record<string, unknown> }[]) {
    assert.deepEqual(validateSelector(action.selector), action.selector, "every offered selector passes the contract's own validation");
  }
});

test("real device: an index offered from a uiautomator dump names the same element in the session's page source", { skip }, async () => {
  const opened = await call("settings_open");
  assert.equal(opened.ok, true, JSON.stringify(opened.error));
  const fromDump = await call("ui_get_tree");
  assert.equal(fromDump.ok, true, JSON.stringify(fromDump.error));
  const session = await call("ui_session_open", {});
  assert.equal(session.ok, true, JSON.stringify(session.error));
  try {
    const fromSource = await call("ui_get_tree");
    assert.equal(fromSource.ok, true, JSON.stringify(fromSource.error));
    const bySelector = new Map((fromSource.data["actions"] as Action[]).map((a) => [JSON.stringify(a.selector), a.bounds]));
    const dumped = fromDump.data["actions"] as Action[];
    // Every selector the dump offered (an index too) names, in the page source, an element at the same place.
    const moved = dumped.filter((a) => JSON.stringify(bySelector.get(JSON.stringify(a.selector))) !== JSON.stringify(a.bounds));
    assert.deepEqual(moved.map((a) => a.selector), [], "selectors from the dump that name another element (or none) in the page source");
  } finally {
    await call("ui_session_close", { session_id: session.data["session_id"] });
  }
});

test("real device: acts in one UI session: Settings opens, a tap arrives and Back returns, each with a PNG", { skip }, async () => {
  const opened = await call("ui_session_open", { package: SETTINGS });
  assert.equal(opened.ok, true, JSON.stringify(opened.error));
  sessionId = opened.data["session_id"] as string;
  const home = acted(await act("settings_open"), "settings_open");
  assert.equal(home.foreground_package, SETTINGS);
  const network = offered(home, /^Network/);
  assert.ok(network !== undefined, `Settings offers Network & internet: ${JSON.stringify(home.actions.map((a) => a.selector))}`);
  const tapped = await act("ui_tap", { selector: network.selector });
  acted(tapped, "ui_tap");
  assert.equal(tapped.data["changed"], true);
  const back = acted(await act("device_back"), "device_back");
  assert.ok(offered(back, /^Network/) !== undefined, "Back returned to the Settings home");
});

test("real device: ui_wait holds at once for what is there and fails typed for what does not go", { skip }, async () => {
  const present = await call("ui_wait", { visible: { text_contains: "Network" }, timeout_ms: 5000 });
  assert.equal(present.ok, true, JSON.stringify(present.error));
  const stays = await call("ui_wait", { gone: { text_contains: "Network" }, timeout_ms: 1000 });
  assert.equal(stays.error?.code, "OPERATION_TIMEOUT");
  assert.ok(stays.evidence !== null && existsSync(stays.evidence.path));
  const never = await call("ui_wait", { visible: { text: "No such row 7f3a" }, timeout_ms: 1000 });
  assert.equal(never.error?.code, "UI_ELEMENT_NOT_FOUND");
  assert.match(never.error!.message, /The screen offers: /);
});

test("real device: scrolling: a page down and back, and scroll until brings About on screen in one call", { skip }, async () => {
  const down = await act("ui_scroll", { direction: "down" });
  acted(down, "scroll down");
  assert.equal(down.data["scrolled"], true);
  acted(await act("ui_scroll", { direction: "up" }), "scroll up");
  const until = await act("ui_scroll", { direction: "down", until: { text_contains: "About" } });
  const screen = acted(until, "scroll until");
  assert.ok(until.data["found"] !== undefined, JSON.stringify(until.data));
  assert.ok(offered(screen, /About/) !== undefined);
});

test("real device: long press and double tap act on an element (never a point) and answer the screen", { skip }, async () => {
  const home = acted(await act("settings_open"), "settings_open");
  const row = offered(home, /^Display/) ?? home.actions[0]!;
  const pressed = await act("ui_tap", { selector: row.selector, gesture: "long_press" });
  acted(pressed, "long_press");
  assert.equal(pressed.data["gesture"], "long_press");
  acted(await act("settings_open"), "settings_open");
  const doubled = await act("ui_tap", { selector: row.selector, gesture: "double_tap" });
  acted(doubled, "double_tap");
  assert.equal(doubled.data["gesture"], "double_tap");
  acted(await act("settings_open"), "settings_open");
});

test("real device: typing with submit in Settings' search answers the screen after the IME action", { skip }, async (t) => {
  const home = acted(await act("settings_open"), "settings_open");
  const search = offered(home, /^Search/);
  if (search === undefined) {
    t.skip(`this Settings offers no search action: ${JSON.stringify(home.actions.map((a) => a.selector))}`);
    return;
  }
  const opened = acted(await act("ui_tap", { selector: search.selector }), "open search");
  const field = opened.actions.find((a) => a.role === "input");
  assert.ok(field !== undefined, `the search screen offers an input: ${JSON.stringify(opened.actions)}`);
  const typed = await act("ui_type_text", { selector: field.selector, text: "display", submit: "search" });
  acted(typed, "type with submit");
  assert.equal(typed.data["typed_length"], 7);
  acted(await act("device_back"), "back");
  acted(await act("settings_open"), "settings_open");
});

test("real device: keys: home leaves Settings for the launcher, app_switch and the notification shade answer", { skip }, async () => {
  const home = acted(await act("device_press", { key: "home" }), "home");
  assert.notEqual(home.foreground_package, SETTINGS, "home left Settings");
  acted(await act("device_press", { key: "app_switch" }), "app_switch");
  acted(await act("device_press", { key: "home" }), "home");
  const shade = acted(await act("device_press", { key: "notifications" }), "notifications");
  assert.equal(shade.foreground_package, "com.android.systemui", "the shade is SystemUI's");
  acted(await act("device_back"), "close the shade");
});

test("real device: a deep link opens what handles it, or says APP_NOT_FOUND when nothing does", { skip }, async () => {
  const link = await act("app_open_url", { url: "https://www.example.com/" });
  if (link.ok) assert.notEqual(acted(link, "app_open_url").foreground_package, "", "some app shows the link");
  else assert.equal(link.error?.code, "APP_NOT_FOUND", JSON.stringify(link.error));
  const nothing = await act("app_open_url", { url: "amh-nothing-handles-this://x" });
  assert.equal(nothing.error?.code, "APP_NOT_FOUND", JSON.stringify(nothing.error));
  const refused = await act("app_open_url", { url: "file:///etc/passwd" });
  assert.equal(refused.error?.code, "INVALID_ARGUMENT");
});

test("real device: app_launch restart force-stops Settings and brings it back", { skip }, async () => {
  const launched = await act("app_launch", { package: SETTINGS, restart: true });
  assert.equal(acted(launched, "app_launch restart").foreground_package, SETTINGS);
});

test("real device: app_clear stops Settings and clears its data; it launches again", { skip: skip || destructive }, async () => {
  acted(await act("app_clear", { package: SETTINGS }), "app_clear");
  assert.equal(acted(await act("app_launch", { package: SETTINGS }), "app_launch").foreground_package, SETTINGS);
});

test("real device: the session closes, and observing afterwards needs none", { skip }, async () => {
  const closed = await call("ui_session_close", { session_id: sessionId });
  assert.equal(closed.ok, true, JSON.stringify(closed.error));
  assert.equal(closed.data["closed"], true);
  assert.equal((await call("device_status")).ok, true);
});

test(
  "real device: the backend the environment names (without APPIUM_URL the harness's own server: no Java, no Appium), and a session-less act on the warm device",
  { skip },
  async () => {
    const read = await served!.client.readResource({ uri: "doctor://report" });
    const report = JSON.parse(String((read.contents[0] as { text?: string }).text)) as {
      checks: { id: string; ok: boolean; detail: string; facts: Record<string, unknown> }[];
    };
    const check = (id: string) => report.checks.find((c) => c.id === id)!;
    const direct = process.env["APPIUM_URL"] === undefined;
    for (const id of ["java", "appium"]) assert.equal(check(id).facts["backend"] === "direct", direct, `${id}: ${check(id).detail}`);
    assert.equal(check("uiautomator2").ok, true, check("uiautomator2").detail);
    const back = await call("device_back");
    acted(back, "a session-less device_back");
    assert.equal(back.data["session_restarted"] ?? null, null, "the warm session served it without a restart");
  },
);
