/**
 * Contract tests of ui_wait: the real MCP server over the in-memory transport, the real session layer and
 * tools over the sim's shop scenario (its order confirmation arrives 3 s after "Place order"), all on a
 * virtual clock, so "waited 3 s" and "gave up at 1.5 s" are exact under any load. Whole envelopes for the
 * success and each error path; refused inputs never read the device; a held session is read through.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { callEnvelope as call, deviceScreen, evidenceRef, withActServer } from "../support/act_calls.ts";
import { type ActWorld, actWorld } from "../support/act_world.ts";
import { operationId } from "../support/mcp_fakes.ts";
import { createVirtualClock, type VirtualClock } from "../support/virtual_clock.ts";
import { BUILTIN_SCENARIOS } from "../../src/sim/mod.ts";

const SHOP_SCENARIO = BUILTIN_SCENARIOS["shop"]!;

interface WaitWorld extends ActWorld {
  clock: VirtualClock;
  /** How many times the device's screen was read (dumped, or its context asked) through adb. */
  reads: () => number;
}

function waitWorld(options: { actionTimeoutMs?: number } = {}): WaitWorld {
  const clock = createVirtualClock();
  const world = actWorld({ scenario: "shop", clock, ...options });
  let reads = 0;
  const observer = world.deps.ports.observer;
  const counted = { ...observer };
  counted.captureTree = (wait) => (reads++, observer.captureTree(wait));
  counted.screenContext = (wait) => (reads++, observer.screenContext(wait));
  counted.bind = () => counted;
  world.deps.ports.observer = counted;
  return { ...world, clock, reads: () => reads };
}

/** Opens the checkout by its deep link and places the order: "Order confirmed" arrives 3 s after this moment. */
function placeOrder(world: ActWorld): number {
  assert.notEqual(world.device.openUrl("https://shop.example/checkout"), null);
  world.device.tap({ bounds: "[63,500][1017,650]", class: "android.widget.Button", text: "Place order" });
  assert.equal(world.device.screenId(), "order_placing");
  return world.clock.now();
}

test("ui_wait visible returns once a delayed element appears (3 s later), with the screen then, without an Appium session", async () => {
  const world = waitWorld();
  await withActServer(world, async (c) => {
    const placed = placeOrder(world);
    const envelope = await call(c, "ui_wait", { visible: { text: "Order confirmed" } });
    const waited = world.clock.now() - placed;
    assert.equal(world.device.screenId(), "order_placed");
    assert.deepEqual(envelope, {
      ok: true,
      operation_id: operationId(1),
      tool: "ui_wait",
      data: { waited_ms: 3000, screen: deviceScreen(world) },
      evidence: null,
      error: null,
    });
    assert.ok(waited >= 3000 && waited < 3000 + 250, `answered within one poll of the element's arrival (${waited} ms)`);
    assert.ok(deviceScreen(world).texts.includes("Order confirmed"));
    assert.deepEqual(world.calls, [], "no Appium session was opened");
    assert.equal(world.lock.held.size, 0);
  });
  assert.deepEqual({ ...world.audit[0], ts: "", duration_ms: 0 }, {
    ts: "",
    operation_id: operationId(1),
    tool: "ui_wait",
    arguments: { visible: { text: "Order confirmed" } },
    outcome: "ok",
    evidence_id: null,
    duration_ms: 0,
  });
});

test("ui_wait visible that never appears is UI_ELEMENT_NOT_FOUND after timeout_ms, with what the screen offers and a screenshot", async () => {
  const world = waitWorld();
  await withActServer(world, async (c) => {
    placeOrder(world);
    const started = world.clock.now();
    const envelope = await call(c, "ui_wait", { visible: { text: "Order shipped" }, timeout_ms: 1500 });
    assert.equal(world.clock.now() - started, 1500, "it gave up at its timeout_ms, not before and not at the action timeout");
    assert.deepEqual(envelope, {
      ok: false,
      operation_id: operationId(1),
      tool: "ui_wait",
      data: {},
      evidence: evidenceRef(1, "ui_wait"),
      error: {
        code: "UI_ELEMENT_NOT_FOUND",
        message:
          `No visible element matched {"text":"Order shipped"} within 1500 ms. The screen offers: 'Navigate up' (button) {"content_desc":"Navigate up"}.`,
        details: {
          selector: { text: "Order shipped" },
          offered: [{ label: "Navigate up", role: "button", selector: { content_desc: "Navigate up" } }],
        },
      },
    });
    assert.equal(world.device.screenId(), "order_placing", "still placing: the order confirms at 3 s");
    assert.equal(world.evidence.saved.length, 1);
  });
});

test("ui_wait gone returns once the element has left the screen", async () => {
  const world = waitWorld();
  await withActServer(world, async (c) => {
    placeOrder(world);
    const envelope = await call(c, "ui_wait", { gone: { text: "Placing your order" }, timeout_ms: 8000 });
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    assert.deepEqual(envelope.data, { waited_ms: 3000, screen: deviceScreen(world) });
    assert.equal(deviceScreen(world).texts.includes("Placing your order"), false);
  });
});

test("ui_wait gone that never goes is OPERATION_TIMEOUT naming what stayed, with a screenshot of that moment", async () => {
  const world = waitWorld();
  await withActServer(world, async (c) => {
    world.device.openUrl("https://shop.example/checkout");
    const envelope = await call(c, "ui_wait", { gone: { text: "Place order" }, timeout_ms: 1000 });
    assert.deepEqual(envelope, {
      ok: false,
      operation_id: operationId(1),
      tool: "ui_wait",
      data: {},
      evidence: evidenceRef(1, "ui_wait"),
      error: {
        code: "OPERATION_TIMEOUT",
        message: `{"text":"Place order"} was still on screen ('Place order') after 1000 ms. Wait longer (timeout_ms up to 30000), ` +
          "or read the screen (ui_get_tree) and act on what it shows.",
        details: { selector: { text: "Place order" }, waited_ms: 1000 },
      },
    });
  });
});

test("ui_wait with timeout_ms 0 looks once: it holds at once, or fails at once", async () => {
  const world = waitWorld();
  await withActServer(world, async (c) => {
    const started = world.clock.now();
    const held = await call(c, "ui_wait", { visible: { text: "Wool beanie" }, timeout_ms: 0 });
    assert.equal(held.ok, true, JSON.stringify(held.error));
    assert.equal(held.data["waited_ms"], 0);
    const missed = await call(c, "ui_wait", { gone: { text: "Wool beanie" }, timeout_ms: 0 });
    assert.equal(missed.error?.code, "OPERATION_TIMEOUT");
    assert.equal(world.clock.now(), started, "no time passed");
  });
});

test("ui_wait refuses what is not exactly one bounded condition, typed, before it reads the device", async () => {
  const world = waitWorld();
  const refusals: [Record<string, unknown>, string, RegExp][] = [
    [{}, "INVALID_ARGUMENT", /give exactly one of visible .* or gone/],
    [{ visible: { text: "A" }, gone: { text: "B" } }, "INVALID_ARGUMENT", /give exactly one of visible/],
    [{ visible: { text: "A" }, timeout_ms: 30_001 }, "INVALID_ARGUMENT", /'timeout_ms'/],
    [{ visible: { text: "A" }, timeout_ms: -1 }, "INVALID_ARGUMENT", /'timeout_ms'/],
    [{ visible: { text: "A" }, timeout_ms: 2.5 }, "INVALID_ARGUMENT", /'timeout_ms'/],
    [{ visible: { text: "A" }, timeout_ms: 1e308 }, "INVALID_ARGUMENT", /'timeout_ms'.*<=30000/], // not "<=9007199254740991"
    [{ visible: { x: 540, y: 1200 } }, "INVALID_SELECTOR", /'visible'/],
    [{ gone: { bounds: [0, 0, 10, 10] } }, "INVALID_SELECTOR", /'gone'/],
    [{ visible: "Wool beanie" }, "INVALID_SELECTOR", /'visible'/],
    [{ visible: { text: "A" }, session_id: "s-1" }, "INVALID_ARGUMENT", /Unknown argument 'session_id'/],
  ];
  await withActServer(world, async (c) => {
    for (const [args, code, message] of refusals) {
      const envelope = await call(c, "ui_wait", args);
      assert.equal(envelope.ok, false, JSON.stringify(args));
      assert.equal(envelope.error?.code, code, JSON.stringify(args));
      assert.match(envelope.error!.message, message, JSON.stringify(args));
      assert.deepEqual(envelope.data, {});
      assert.equal(envelope.evidence, null);
    }
  });
  assert.equal(world.reads(), 0, "no refused call read the device");
  assert.deepEqual(world.calls, []);
});

test("ui_wait refuses a timeout_ms that does not fit in the action timeout, saying the most it can take", async () => {
  const world = waitWorld({ actionTimeoutMs: 10_000 });
  await withActServer(world, async (c) => {
    const envelope = await call(c, "ui_wait", { visible: { text: "Order confirmed" }, timeout_ms: 9000 });
    assert.deepEqual(envelope.error, {
      code: "INVALID_ARGUMENT",
      message:
        "timeout_ms 9000 does not fit in this call's time limit (ANDROID_MCP_ACTION_TIMEOUT): send at most 8000, or raise the limit.",
      details: { timeout_ms: 9000, at_most: 8000 },
    });
    assert.equal(world.reads(), 0);
    const fits = await call(c, "ui_wait", { visible: { text: "Wool beanie" }, timeout_ms: 8000 });
    assert.equal(fits.ok, true, JSON.stringify(fits.error));
  });
});

test("ui_wait without timeout_ms under a short time limit waits what the limit leaves, not a refusal of a default it was not sent", async () => {
  const world = waitWorld({ actionTimeoutMs: 5000 });
  await withActServer(world, async (c) => {
    const held = await call(c, "ui_wait", { visible: { text: "Wool beanie" } });
    assert.equal(held.ok, true, JSON.stringify(held.error));
    const started = world.clock.now();
    const missed = await call(c, "ui_wait", { visible: { text: "Order confirmed" } });
    assert.equal(missed.error?.code, "UI_ELEMENT_NOT_FOUND", JSON.stringify(missed.error));
    assert.equal(world.clock.now() - started, 3000, "5 s less the 2 s the answer keeps");
  });
});

test("ui_wait reads through the UI session this server holds (beside it, never busy) and leaves it open", async () => {
  const world = waitWorld();
  await withActServer(world, async (c) => {
    const opened = await call(c, "ui_session_open", {});
    assert.equal(opened.ok, true, JSON.stringify(opened.error));
    placeOrder(world);
    const before = world.calls.filter((name) => name === "source").length;
    const envelope = await call(c, "ui_wait", { visible: { text: "Order confirmed" } });
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    assert.deepEqual(envelope.data, { waited_ms: 3000, screen: deviceScreen(world) });
    assert.ok(world.calls.filter((name) => name === "source").length > before, "the page source came from the held session");
    assert.equal(world.live.size, 1, "the session is still open");
  });
});

test("ui_wait's waited_ms runs from its first reading to the one where the condition held: 0 when it held at once, however long a dump takes", async () => {
  const world = waitWorld();
  const observer = world.deps.ports.observer;
  const slow = { ...observer };
  slow.captureTree = async (wait) => (await world.clock.sleep(1500), observer.captureTree(wait)); // a real uiautomator dump: 1–4 s
  slow.bind = () => slow;
  world.deps.ports.observer = slow;
  await withActServer(world, async (c) => {
    const held = await call(c, "ui_wait", { visible: { text: "Wool beanie" } });
    assert.equal(held.ok, true, JSON.stringify(held.error));
    assert.equal(held.data["waited_ms"], 0, "the element was on the first reading: nothing was waited for");
    const placed = placeOrder(world);
    const arrived = await call(c, "ui_wait", { visible: { text: "Order confirmed" } });
    assert.equal(arrived.ok, true, JSON.stringify(arrived.error));
    const waited = arrived.data["waited_ms"] as number;
    assert.ok(waited >= 3000 - 1500 && waited <= world.clock.now() - placed - 1500, `${waited} ms: reading starts, not their ends`);
  });
});

test("ui_wait through a held session on a screen that never goes quiet (each page source takes the 3 s idle wait) fails typed within the time limit (R39)", async () => {
  // The cart drawer's frames, looped: the UI is never idle, so UiAutomator2 answers each page source after its whole waitForIdleTimeout.
  const frames = {
    spin_a: { ...SHOP_SCENARIO.screens["cart_1"]!, after: { ms: 120, to: "spin_b" } },
    spin_b: { ...SHOP_SCENARIO.screens["cart_2"]!, after: { ms: 120, to: "spin_a" } },
  };
  const scenario = {
    ...SHOP_SCENARIO,
    start: "spin_a",
    screens: { ...SHOP_SCENARIO.screens, ...frames },
    packages: SHOP_SCENARIO.packages.map((p) => p.name === "com.example.shop" ? { ...p, screen: "spin_a", launchWhen: [] } : p),
  };
  const clock = createVirtualClock();
  const world = actWorld({ scenario, clock, actionTimeoutMs: 10_000 });
  const observer = world.deps.ports.observer;
  const slow = { ...observer }; // a screencap takes 0.7–2 s on a real device (docs/simulated-device.md "Latency profile")
  slow.screenshot = async (wait) => (await clock.sleep(700), observer.screenshot(wait));
  slow.bind = () => slow;
  world.deps.ports.observer = slow;
  await withActServer(world, async (c) => {
    assert.equal((await call(c, "ui_session_open", {})).ok, true);
    for (
      const [condition, code] of [[{ visible: { text: "Order confirmed" } }, "UI_ELEMENT_NOT_FOUND"], [
        { gone: { text: "Your cart" } },
        "OPERATION_TIMEOUT",
      ]] as const
    ) {
      const started = clock.now();
      const envelope = await call(c, "ui_wait", { ...condition, timeout_ms: 8000 });
      assert.equal(envelope.error?.code, code, JSON.stringify(envelope.error));
      assert.doesNotMatch(envelope.error!.message, /did not finish within 10 s/, "the wait's own answer, not the call's time limit");
      assert.ok(envelope.evidence !== null, "a screenshot of that moment");
      assert.ok(clock.now() - started <= 10_000, `${clock.now() - started} ms`);
    }
  });
});
