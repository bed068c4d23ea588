/**
 * Contract tests of the eight act tools: the real MCP server over the in-memory transport, the real
 * session layer and tools, over a scenario of the simulated device driven in process (act_world.ts).
 * Whole envelopes for the successes and each error path; sessions as leases; the lock and audit.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import { HarnessError } from "../../src/errors.ts";
import { actScreen, callEnvelope as call, deviceScreen, evidenceRef, withActServer } from "../support/act_calls.ts";
import { actWorld } from "../support/act_world.ts";
import { envelopeOf } from "../support/mcp_client.ts";
import { operationId } from "../support/mcp_fakes.ts";

test("ui_tap taps the element the selector names and answers the settled new screen, changed, with evidence", async () => {
  const world = actWorld();
  await withActServer(world, async (c) => {
    const envelope = await call(c, "ui_tap", { selector: { text: "Network & internet" } });
    assert.equal(world.device.screenId(), "network");
    assert.deepEqual(envelope, {
      ok: true,
      operation_id: operationId(1),
      tool: "ui_tap",
      data: {
        foreground_package: "com.android.settings",
        settled: true,
        changed: true,
        target: { text: "Network & internet" },
        element_label: "Network & internet",
        gesture: "tap",
        screen: actScreen(world),
      },
      evidence: evidenceRef(1, "ui_tap"),
      error: null,
    });
    assert.equal(world.evidence.saved.length, 1);
    assert.ok(world.calls.includes("click"));
    assert.deepEqual([...world.live], [], "the temporary session was deleted");
    assert.equal(world.lock.held.size, 0);
  });
  assert.deepEqual({ ...world.audit[0], ts: "", duration_ms: 0 }, {
    ts: "",
    operation_id: operationId(1),
    tool: "ui_tap",
    arguments: { selector: { text: "Network & internet" } },
    outcome: "ok",
    evidence_id: evidenceRef(1, "ui_tap").artifact_id,
    duration_ms: 0,
  });
});

test("ui_tap on a selector that matches nothing waits, then answers UI_ELEMENT_NOT_FOUND with what the screen offers and a screenshot", async () => {
  const world = actWorld();
  await withActServer(world, async (c) => {
    const started = world.clock.now();
    const envelope = await call(c, "ui_tap", { selector: { text: "Bluetooth" } });
    assert.ok(world.clock.now() - started >= 4000, "it waited for the element to appear");
    assert.equal(envelope.ok, false);
    assert.equal(envelope.error?.code, "UI_ELEMENT_NOT_FOUND");
    assert.match(
      envelope.error!.message,
      /No visible element matched \{"text":"Bluetooth"\} within \d+ ms\. The screen offers: .*'Network & internet' \(button\)/,
    );
    assert.deepEqual(envelope.evidence, evidenceRef(1, "ui_tap"), "a screenshot of the moment of the miss");
    assert.deepEqual(envelope.data, {});
    assert.equal(world.calls.includes("click"), false);
    assert.deepEqual([...world.live], []);
  });
});

test("ui_tap on an ambiguous selector answers UI_ELEMENT_AMBIGUOUS at once and taps nothing", async () => {
  const world = actWorld();
  await withActServer(world, async (c) => {
    const envelope = await call(c, "ui_tap", { selector: { text_contains: "e" } });
    assert.equal(envelope.error?.code, "UI_ELEMENT_AMBIGUOUS", JSON.stringify(envelope));
    assert.ok(Array.isArray(envelope.error?.details?.["candidates"]));
    assert.equal(world.calls.includes("click"), false);
    assert.equal(world.device.screenId(), "settings_home");
  });
});

test("a target under the soft keyboard is tapped after the keyboard is hidden through Appium, never by BACK first", async () => {
  const world = actWorld({ scenario: "login" });
  await withActServer(world, async (c) => {
    assert.equal(world.device.keyboard().open, true);
    const envelope = await call(c, "ui_tap", { selector: { resource_id: "com.example.shop:id/tab_home" } });
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    const names = world.calls.filter((name) => ["hideKeyboard", "back", "click"].includes(name));
    assert.deepEqual(names, ["hideKeyboard", "click"]);
    assert.equal(world.device.keyboard().open, false);
  });
});

test("ui_type_text replaces the input's text with any Unicode, never echoes it, and redacts it in the audit log", async () => {
  const world = actWorld({ scenario: "login" });
  const text = "שלום 你好 안녕 👋🏽";
  await withActServer(world, async (c) => {
    const envelope = await call(c, "ui_type_text", { selector: { resource_id: "com.example.shop:id/email" }, text });
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    assert.equal(envelope.data["typed_length"], [...text].length);
    assert.equal(envelope.data["element_label"], "Email");
    const { screen, ...rest } = envelope.data;
    assert.equal(JSON.stringify(rest).includes("שלום"), false, "data does not repeat the text; only the screen shows what the field shows");
    assert.ok(JSON.stringify(screen).includes("שלום"), "the new screen shows the field's content, as the device does");
    assert.match(world.device.hierarchyXml(), /text="שלום 你好 안녕 👋🏽"/);
    assert.equal(envelope.data["changed"], true);
  });
  assert.deepEqual(world.audit[0]!.arguments, {
    selector: { resource_id: "com.example.shop:id/email" },
    text: { redacted_length: [...text].length },
  });
});

test("ui_type_text refuses an element that is not an input, and bad text, with typed errors", async () => {
  const world = actWorld({ scenario: "login" });
  await withActServer(world, async (c) => {
    const button = await call(c, "ui_type_text", { selector: { resource_id: "com.example.shop:id/sign_in" }, text: "x" });
    assert.equal(button.error?.code, "INVALID_SELECTOR");
    assert.match(button.error!.message, /names 'Sign in', a button, not an input/);
    assert.equal(world.calls.includes("replaceText"), false);
    const control = await call(c, "ui_type_text", { selector: { resource_id: "com.example.shop:id/email" }, text: "a\u0007b" });
    assert.equal(control.error?.code, "INVALID_TEXT");
    const empty = await call(c, "ui_type_text", { selector: { resource_id: "com.example.shop:id/email" }, text: "" });
    assert.equal(empty.error?.code, "INVALID_TEXT");
  });
});

test("ui_scroll scrolls the screen's container; a bad direction is INVALID_SCROLL_DIRECTION", async () => {
  const world = actWorld();
  await withActServer(world, async (c) => {
    const down = await call(c, "ui_scroll", { direction: "down" });
    assert.equal(down.ok, true, JSON.stringify(down.error));
    assert.equal(down.data["scrolled"], true);
    assert.equal(down.data["changed"], true);
    assert.deepEqual(down.data["screen"], actScreen(world));
    const again = await call(c, "ui_scroll", { direction: "down" });
    assert.equal(again.data["changed"], false, "at the end of the list a scroll changes nothing, and says so");
    assert.equal(again.data["at_end"], true, "and says the list can go no further that way");
    const diagonal = await call(c, "ui_scroll", { direction: "diagonal" });
    assert.equal(diagonal.error?.code, "INVALID_SCROLL_DIRECTION");
  });
});

test("device_back goes back and says when it closed the keyboard instead", async () => {
  const world = actWorld({ scenario: "login" });
  await withActServer(world, async (c) => {
    const first = await call(c, "device_back");
    assert.equal(first.data["keyboard_closed"], true);
    assert.equal(world.device.keyboard().open, false);
    assert.equal(first.data["changed"], true, "the keyboard went away: changed false would say a second Back does nothing too");
    assert.equal((first.data["screen"] as { keyboard?: unknown }).keyboard, undefined, "the answered screen has no keyboard");
    assert.equal(world.device.foregroundPackage(), "com.example.shop", "the keyboard closed; the app stayed");
  });
});

test("app_launch brings an installed package to the front; an unknown one is APP_NOT_FOUND before any session, a bad one INVALID_PACKAGE", async () => {
  const world = actWorld({ scenario: "launcher" });
  await withActServer(world, async (c) => {
    const installed = world.device.installedPackages().find((p) => !p.system && p.name !== world.device.foregroundPackage())!.name;
    const launched = await call(c, "app_launch", { package: installed });
    assert.equal(launched.ok, true, JSON.stringify(launched.error));
    assert.equal(launched.data["foreground_package"], installed);
    assert.equal(launched.data["package"], installed);
    const opens = world.calls.filter((n) => n === "open").length;
    const missing = await call(c, "app_launch", { package: "com.example.nothere" });
    assert.equal(missing.error?.code, "APP_NOT_FOUND");
    assert.equal(world.calls.filter((n) => n === "open").length, opens, "no session was opened for it");
    const bad = await call(c, "app_launch", { package: "com.x; reboot" });
    assert.equal(bad.error?.code, "INVALID_PACKAGE");
  });
});

test("settings_open brings Settings to the front", async () => {
  const world = actWorld({ scenario: "launcher" });
  await withActServer(world, async (c) => {
    const envelope = await call(c, "settings_open");
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    assert.equal(envelope.data["foreground_package"], "com.android.settings");
  });
});

test("a session is a lease: acts name it, acts without it get EMULATOR_BUSY naming it, observing passes, close is idempotent", async () => {
  const world = actWorld();
  await withActServer(world, async (c) => {
    const opened = await call(c, "ui_session_open");
    assert.equal(opened.ok, true, JSON.stringify(opened.error));
    const id = opened.data["session_id"] as string;
    assert.match(id, /^s-test\d+$/);
    assert.equal(opened.data["idle_timeout_s"], 60);
    assert.equal(opened.data["max_actions"], 1000);
    assert.ok(Date.parse(opened.data["expires_at"] as string) > world.clock.now() + 55_000);

    const outside = await call(c, "ui_tap", { selector: { text: "Network & internet" } });
    assert.equal(outside.error?.code, "EMULATOR_BUSY");
    assert.match(outside.error!.message, new RegExp(`held by UI session ${id} of this server until .*Pass "session_id"`));
    const second = await call(c, "ui_session_open");
    assert.equal(second.error?.code, "EMULATOR_BUSY");

    const tree = await call(c, "ui_get_tree");
    assert.equal(tree.ok, true, "observing passes while the session holds the device");
    assert.ok(world.calls.includes("source"), "ui_get_tree read the page source through the session");

    const inside = await call(c, "ui_tap", { selector: { text: "Network & internet" }, session_id: id });
    assert.equal(inside.ok, true, JSON.stringify(inside.error));
    assert.equal(world.calls.filter((n) => n === "open").length, 1, "the session's driver was reused");

    assert.deepEqual((await call(c, "ui_session_close", { session_id: id })).data, { session_id: id, closed: true });
    assert.deepEqual((await call(c, "ui_session_close", { session_id: id })).data, { session_id: id, closed: false });
    assert.deepEqual([...world.live], [], "deleted on the Appium side");
    assert.equal(world.lock.held.size, 0, "the device lock is released");
    const after = await call(c, "ui_tap", { selector: { text: "Internet" }, session_id: id });
    assert.equal(after.error?.code, "SESSION_NOT_FOUND");
    assert.match(after.error!.message, /has ended: closed by ui_session_close/);
    const unknown = await call(c, "device_back", { session_id: "s-never" });
    assert.equal(unknown.error?.code, "SESSION_NOT_FOUND");
  });
});

test("an idle session expires and is deleted; a session ends at its action ceiling", async () => {
  const idle = actWorld({ idleTimeoutMs: 300 });
  await withActServer(idle, async (c) => {
    const id = (await call(c, "ui_session_open")).data["session_id"] as string;
    await idle.clock.sleep(600);
    assert.deepEqual([...idle.live], []);
    const late = await call(c, "device_back", { session_id: id });
    assert.equal(late.error?.code, "SESSION_NOT_FOUND");
    assert.match(late.error!.message, /expired after 0.3 s without use/);
  });
  const capped = actWorld({ maxActions: 2 });
  await withActServer(capped, async (c) => {
    const id = (await call(c, "ui_session_open")).data["session_id"] as string;
    assert.equal((await call(c, "ui_scroll", { direction: "down", session_id: id })).ok, true);
    assert.equal((await call(c, "ui_scroll", { direction: "up", session_id: id })).ok, true);
    const third = await call(c, "ui_scroll", { direction: "down", session_id: id });
    assert.equal(third.error?.code, "SESSION_NOT_FOUND");
    assert.match(third.error!.message, /ceiling of 2 actions/);
    assert.deepEqual([...capped.live], []);
  });
});

test("an act that hangs past the time limit answers OPERATION_TIMEOUT, deletes its session and frees the device at once (R18)", async () => {
  const world = actWorld({ actionTimeoutMs: 1500 });
  await withActServer(world, async (c) => {
    // Before the gesture (its element's find): after it, the answer is ACT_UNCONFIRMED (act_unconfirmed.test.ts).
    world.behaviour.beforeCall = (name) => name.startsWith("findElements") ? new Promise(() => {}) : Promise.resolve();
    const started = world.clock.now();
    const hung = await call(c, "ui_tap", { selector: { text: "Network & internet" } });
    assert.equal(hung.error?.code, "OPERATION_TIMEOUT");
    assert.equal(world.clock.now() - started, 1500, "answered at the limit, not later");
    assert.deepEqual([...world.live], [], "the Appium session was deleted");
    assert.equal(world.lock.held.size, 0);
    delete world.behaviour.beforeCall;
    const next = await call(c, "ui_tap", { selector: { text: "Network & internet" } });
    assert.equal(next.ok, true, JSON.stringify(next.error));
  });
});

test("a timeout inside an explicit session revokes it", async () => {
  const world = actWorld({ actionTimeoutMs: 1500 });
  await withActServer(world, async (c) => {
    const id = (await call(c, "ui_session_open")).data["session_id"] as string;
    world.behaviour.beforeCall = (name) => name === "source" ? new Promise(() => {}) : Promise.resolve(); // before the back
    assert.equal((await call(c, "device_back", { session_id: id })).error?.code, "OPERATION_TIMEOUT");
    delete world.behaviour.beforeCall;
    await world.clock.sleep(50);
    assert.deepEqual([...world.live], []);
    const after = await call(c, "device_back", { session_id: id });
    assert.equal(after.error?.code, "SESSION_NOT_FOUND");
    assert.match(after.error!.message, /revoked/);
    assert.equal((await call(c, "device_back")).ok, true, "the device is free for the next call");
  });
});

test("a timeout inside an explicit session frees the device at once, even while Appium is slow to delete the session", async () => {
  const world = actWorld({ actionTimeoutMs: 1500 });
  await withActServer(world, async (c) => {
    const id = (await call(c, "ui_session_open")).data["session_id"] as string;
    world.behaviour.beforeCall = (name) => name === "source" ? new Promise(() => {}) : Promise.resolve(); // before the back
    world.behaviour.delete = () => world.clock.sleep(3000); // a hung Appium answers DELETE late
    assert.equal((await call(c, "device_back", { session_id: id })).error?.code, "OPERATION_TIMEOUT");
    delete world.behaviour.beforeCall;
    delete world.behaviour.delete;
    const freedAt = world.clock.now();
    const next = await call(c, "device_back");
    assert.equal(next.ok, true, JSON.stringify(next.error));
    assert.ok(world.clock.now() - freedAt < 1000, "the next call is served within a second of the timeout, not after the 3 s DELETE");
    assert.match((await call(c, "device_back", { session_id: id })).error!.message, /revoked/);
  });
});

test("Appium failures are typed: unreachable → APPIUM_UNAVAILABLE; the session ending on Appium's side → SESSION_NOT_FOUND", async () => {
  const world = actWorld();
  await withActServer(world, async (c) => {
    world.behaviour.open = () =>
      Promise.reject(new HarnessError("APPIUM_UNAVAILABLE", "Nothing answers at the Appium URL http://127.0.0.1:1."));
    const down = await call(c, "device_back");
    assert.deepEqual(down.error, { code: "APPIUM_UNAVAILABLE", message: "Nothing answers at the Appium URL http://127.0.0.1:1." });
    assert.equal(world.lock.held.size, 0);
    delete world.behaviour.open;
    const id = (await call(c, "ui_session_open")).data["session_id"] as string;
    world.behaviour.beforeCall = async (name) => {
      if (name === "back") throw new HarnessError("SESSION_NOT_FOUND", "The Appium session ended on the server's side.");
    };
    const dead = await call(c, "device_back", { session_id: id });
    assert.equal(dead.error?.code, "SESSION_NOT_FOUND");
    assert.match(dead.error!.message, /the UiAutomator2 side ended it/);
    assert.equal(world.layer.openCount(), 0);
  });
});

test("ui_get_tree still observes when the session holding the device died on the UiAutomator2 side; the next act starts it again", async () => {
  const world = actWorld();
  await withActServer(world, async (c) => {
    const id = (await call(c, "ui_session_open")).data["session_id"] as string;
    world.endSession("appium-1"); // another client ended it
    const tree = await call(c, "ui_get_tree");
    assert.equal(tree.ok, true, JSON.stringify(tree.error));
    assert.deepEqual(tree.data, deviceScreen(world), "read by uiautomator dump instead");
    assert.equal(world.calls.filter((n) => n === "open").length, 1, "observing never starts a session");
    const act = await call(c, "device_back", { session_id: id });
    assert.equal(act.ok, true, JSON.stringify(act.error));
    assert.match(
      act.data["session_restarted"] as string,
      /^the UiAutomator2 session appium-1 had ended \(deleted\); a new one was started$/,
    );
    assert.deepEqual([...world.live], ["appium-2"]);
    const next = await call(c, "device_back", { session_id: id });
    assert.equal(next.data["session_restarted"], undefined, "said once");
  });
});

test("ui_session_open with a package launches it, and closes the session again when the package is missing", async () => {
  const world = actWorld({ scenario: "launcher" });
  await withActServer(world, async (c) => {
    const pkg = world.device.installedPackages().find((p) => !p.system && p.name !== world.device.foregroundPackage())!.name;
    const opened = await call(c, "ui_session_open", { package: pkg });
    assert.equal(opened.ok, true, JSON.stringify(opened.error));
    assert.equal(opened.data["foreground_package"], pkg);
    assert.ok(opened.evidence !== null);
    await call(c, "ui_session_close", { session_id: opened.data["session_id"] });
    const missing = await call(c, "ui_session_open", { package: "com.example.gone" });
    assert.equal(missing.error?.code, "APP_NOT_FOUND");
    assert.equal(world.layer.openCount(), 0);
    assert.deepEqual([...world.live], []);
  });
});

test("ui_session_open with a package that fails to start after the driver opened deletes the session and frees the device", async () => {
  const world = actWorld({ scenario: "launcher" });
  await withActServer(world, async (c) => {
    const pkg = world.device.installedPackages().find((p) => !p.system && p.name !== world.device.foregroundPackage())!.name;
    world.behaviour.beforeCall = async (name) => {
      if (name.startsWith("activateApp")) throw new HarnessError("APP_NOT_FOUND", `The app could not be started: ${pkg} crashed.`);
    };
    const failed = await call(c, "ui_session_open", { package: pkg });
    assert.equal(failed.error?.code, "APP_NOT_FOUND");
    assert.equal(world.calls.filter((n) => n === "open").length, 1, "the driver had opened");
    assert.equal(world.layer.openCount(), 0);
    assert.deepEqual([...world.live], [], "deleted on the Appium side");
    assert.equal(world.lock.held.size, 0, "the device lock is released");
    delete world.behaviour.beforeCall;
    assert.equal((await call(c, "device_back")).ok, true);
  });
});

test("ui_session_open sends MCP progress notifications while the driver starts, when the client asks for them", async () => {
  const world = actWorld();
  world.behaviour.open = () => world.clock.sleep(2300); // a driver that takes its time
  await withActServer(world, async (c) => {
    const messages: string[] = [];
    const result = await c.client.callTool({ name: "ui_session_open", arguments: {} }, undefined, {
      onprogress: (p) => void messages.push(p.message ?? ""),
    });
    assert.equal(envelopeOf(result).ok, true);
    assert.equal(messages[0], "starting the UiAutomator2 session");
    assert.ok(messages.some((m) => /starting the UiAutomator2 session \(2 s\)/.test(m)), JSON.stringify(messages));
  });
});

test("ui_session_open answers only once the lock notes the Appium session (a SIGKILL right after the answer leaves it findable, R37)", async () => {
  const world = actWorld({ clock: createSystemClock() }); // the virtual clock would run the deadline out while the note waits
  const acquire = world.lock.acquire.bind(world.lock);
  const notes: { sessionId: string | undefined; written: boolean }[] = [];
  let writeNote = () => {};
  world.lock.acquire = async (device, owner) => {
    const lease = await acquire(device, owner);
    return {
      ...lease,
      noteSessionExpiry: (_expiresAt, appium) => {
        const note = { sessionId: appium?.sessionId, written: false };
        notes.push(note);
        return new Promise<void>((resolve) => (writeNote = () => resolve(void (note.written = true))));
      },
    };
  };
  await withActServer(world, async (c) => {
    let answered = false;
    const opening = call(c, "ui_session_open").then((e) => ((answered = true), e));
    while (notes.length === 0) await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    assert.equal(answered, false, "answered before the lock noted the Appium session");
    writeNote();
    const opened = await opening;
    assert.equal(opened.ok, true, JSON.stringify(opened.error));
    assert.equal(notes[0]!.written, true);
    assert.ok(notes[0]!.sessionId !== undefined && world.live.has(notes[0]!.sessionId), "the note names the live Appium session");
  });
});
