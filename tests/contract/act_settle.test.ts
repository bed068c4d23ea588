/**
 * The act pipeline's promises under its concurrency and reuse (issue 17): how many page-source reads an act
 * takes (one after the act, final when UiAutomator2 answered it within the session's idle timeout; a confirming
 * one only when that timeout is unknown or the read took all of it), `settled` and `changed` on a screen that
 * animates after the tap, and evidence for every act that shows the answered screen. The real MCP server,
 * session layer and tools over a scenario device driven in process (act_world.ts), whose driver waits for an
 * idle UI as UiAutomator2 does, on the virtual clock.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { mayStillMove, readIsFinal } from "../../src/device/settle.ts";
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import { type ActWorld, actWorld } from "../support/act_world.ts";
import { BUILTIN_SCENARIOS, type NodeSpec, type Scenario } from "../../src/sim/mod.ts";
import { type Connected, envelopeOf } from "../support/mcp_client.ts";
import { actScreen, withActServer } from "../support/act_calls.ts";

/** The Pixel emulator (API 35) every built-in scenario runs on. */
const PIXEL_API35 = BUILTIN_SCENARIOS["shop"]!.android;

/** One call, with the page-source reads it took and the bytes of the evidence it names. */
async function act(world: ActWorld, c: Connected, name: string, args: Record<string, unknown> = {}) {
  const from = world.calls.length;
  const envelope = envelopeOf(await c.client.callTool({ name, arguments: args }));
  const reads = world.calls.slice(from).filter((call) => call === "source").length;
  const shown = envelope.evidence === null ? null : (await world.evidence.resolve(envelope.evidence.artifact_id))?.bytes ?? null;
  return { envelope, reads, shown };
}

test("a switch flip and a new screen both settle on the one read after the act (UiAutomator2 answered it idle)", async () => {
  const world = actWorld();
  await withActServer(world, async (c) => {
    const id = envelopeOf(await c.client.callTool({ name: "ui_session_open", arguments: {} })).data["session_id"];
    const opened = await act(world, c, "ui_tap", { selector: { text: "Network & internet" }, session_id: id });
    assert.deepEqual(
      [opened.envelope.data["settled"], opened.envelope.data["changed"], opened.reads],
      [true, true, 2],
      "before and after only: no confirming read",
    );
    assert.deepEqual(opened.envelope.data["screen"], actScreen(world));
    const flipped = await act(world, c, "ui_tap", { selector: { text: "Airplane mode" }, session_id: id });
    assert.deepEqual(
      [flipped.envelope.data["settled"], flipped.envelope.data["changed"], flipped.reads],
      [true, true, 2],
      "before and after only",
    );
    assert.deepEqual(flipped.envelope.data["screen"], actScreen(world));
  });
});

test("a screen that animates after the tap is answered once it stopped: settled, changed, its last frame, and evidence of that frame", async () => {
  const world = actWorld({ scenario: "shop" });
  await withActServer(world, async (c) => {
    const { envelope, reads, shown } = await act(world, c, "ui_tap", { selector: { content_desc: "Cart" } });
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    assert.equal(world.device.screenId(), "cart", "the drawer's last frame is on screen");
    assert.deepEqual([envelope.data["settled"], envelope.data["changed"]], [true, true]);
    assert.deepEqual(envelope.data["screen"], actScreen(world), "the answered screen is the drawer at rest, not a frame of its slide");
    assert.equal(reads, 2, "the read after the tap waited for the slide to end: before and after only");
    assert.deepEqual(shown, world.device.screenshotPng(), "the evidence shows the answered screen");
  });
});

test("a read that took the session's whole idle timeout (the slide still moving) is not trusted: a confirming read follows", async () => {
  const world = actWorld({ scenario: "shop", uiIdleTimeoutMs: 500 }); // the slide takes 600 ms, its quiet another 500
  await withActServer(world, async (c) => {
    const { envelope, reads, shown } = await act(world, c, "ui_tap", { selector: { content_desc: "Cart" } });
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    assert.deepEqual([envelope.data["settled"], envelope.data["changed"], world.device.screenId()], [true, true, "cart"]);
    assert.deepEqual(envelope.data["screen"], actScreen(world), "the drawer at rest");
    assert.equal(reads, 3, "before, after (timed out), confirming");
    assert.deepEqual(shown, world.device.screenshotPng(), "the evidence shows the answered screen");
  });
});

test("a session whose idle timeout the harness could not learn confirms a new screen as before", async () => {
  const world = actWorld({ uiIdleTimeoutMs: null });
  await withActServer(world, async (c) => {
    const { envelope, reads } = await act(world, c, "ui_tap", { selector: { text: "Network & internet" } });
    assert.deepEqual([envelope.data["settled"], envelope.data["changed"], reads], [true, true, 3], "before, after, confirming");
    assert.deepEqual(envelope.data["screen"], actScreen(world));
  });
});

test("every successful act leaves evidence of the screen it answers", async () => {
  const world = actWorld();
  await withActServer(world, async (c) => {
    const steps: [string, Record<string, unknown>][] = [
      ["ui_tap", { selector: { text: "Network & internet" } }],
      ["ui_tap", { selector: { text: "Airplane mode" } }],
      ["device_back", {}],
      ["ui_scroll", { direction: "down" }],
      ["settings_open", {}],
    ];
    for (const [name, args] of steps) {
      const { envelope, shown } = await act(world, c, name, args);
      assert.equal(envelope.ok, true, `${name}: ${JSON.stringify(envelope.error)}`);
      assert.deepEqual(envelope.data["screen"], actScreen(world), name);
      assert.ok(shown !== null, `${name} names stored evidence`);
      assert.deepEqual(shown, world.device.screenshotPng(), `${name}: the evidence is the answered screen`);
    }
  });
});

test("a screen that never goes idle (a ticking clock) is confirmed, then answered settled: false after the settle time", async () => {
  const world = actWorld({ actionTimeoutMs: 20_000 });
  world.device.setFaults({ tickingClock: true });
  await withActServer(world, async (c) => {
    const { envelope, reads, shown } = await act(world, c, "ui_tap", { selector: { text: "Network & internet" } });
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    assert.equal(envelope.data["settled"], false);
    assert.ok(reads >= 3, `each read took the whole idle timeout, so the first is confirmed (${reads} reads)`);
    assert.ok(shown !== null, "an unsettled screen still has its evidence");
    assert.deepEqual(shown, world.device.screenshotPng(), "the evidence shows the answered screen");
  });
});

test("a failed act still leaves the moment's screenshot", async () => {
  const world = actWorld();
  await withActServer(world, async (c) => {
    const { envelope, shown } = await act(world, c, "ui_tap", { selector: { text: "No such row" } });
    assert.equal(envelope.error?.code, "UI_ELEMENT_NOT_FOUND");
    assert.deepEqual(shown, world.device.screenshotPng(), "the screenshot of the moment the element was missing");
  });
});

test("readIsFinal: a read that may still move is final only when it answered within a known idle timeout", () => {
  const before = `<hierarchy><node text="A" bounds="[0,0][10,10]"/></hierarchy>`;
  const moved = before.replace("A", "B");
  const timeout = ACT_DEFAULTS.uiIdleTimeoutMs;
  assert.equal(readIsFinal(before, { source: before, tookMs: timeout * 2 }, null), true, "unchanged");
  assert.equal(readIsFinal(before, { source: moved, tookMs: 40 }, timeout), true, "quiet within the timeout");
  assert.equal(readIsFinal(before, { source: moved, tookMs: timeout }, timeout), false, "the whole timeout: never quiet");
  assert.equal(readIsFinal(before, { source: moved, tookMs: 40 }, null), false, "unknown timeout");
  assert.equal(readIsFinal(before, { source: moved, tookMs: 0 }, 0), false, "a timeout of 0 skips the wait: nothing proven");
});

test("mayStillMove: only a flip of checked, selected or focused is final; text, bounds or nodes may still move", () => {
  const node = (attrs: string) => `<hierarchy><node text="Wi-Fi" checked="false" bounds="[0,0][10,10]" ${attrs}/></hierarchy>`;
  assert.equal(mayStillMove(node(""), node("")), false);
  assert.equal(mayStillMove(node(""), node("").replace('checked="false"', 'checked="true"')), false);
  assert.equal(mayStillMove(node('focused="false" selected="false"'), node('focused="true" selected="true"')), false);
  assert.equal(mayStillMove(node(""), node("").replace("[10,10]", "[10,12]")), true, "a node that moved");
  assert.equal(mayStillMove(node(""), node("").replace("Wi-Fi", "Wi-Fi on")), true, "a text that changed (a clock, a counter)");
  assert.equal(mayStillMove(node(""), node("").replace("</hierarchy>", "<node text='x'/></hierarchy>")), true, "a node that appeared");
});

/** A screen whose "Go" button jumps 200 px down 600 ms after it shows (a late layout, not an animation). */
const JUMPING: Scenario = {
  name: "jumping",
  description: "a button that moves once",
  android: PIXEL_API35,
  start: "up",
  screens: {
    up: { package: "com.example.jump", activity: "com.example.jump.Main", root: button(100), after: { ms: 600, to: "down" } },
    down: { package: "com.example.jump", activity: "com.example.jump.Main", root: button(300) },
    done: {
      package: "com.example.jump",
      activity: "com.example.jump.Done",
      root: {
        class: "android.widget.FrameLayout",
        bounds: [0, 0, 1080, 2400],
        children: [{ class: "android.widget.TextView", text: "Done", bounds: [0, 100, 1080, 200] }],
      },
    },
  },
  packages: [{ name: "com.example.jump", screen: "up", label: "Jump" }],
  transitions: [{ from: "down", on: "tap", selector: { text: "Go" }, to: "done" }],
};

function button(top: number): NodeSpec {
  return {
    class: "android.widget.FrameLayout",
    bounds: [0, 0, 1080, 2400],
    children: [{ class: "android.widget.Button", text: "Go", clickable: true, bounds: [100, top, 500, top + 100] }],
  };
}

test("the rectangle check rides in the find: an element that moved after the read is found again, then tapped where it is", async () => {
  const world = actWorld({ scenario: JUMPING });
  let waited = false;
  world.behaviour.beforeCall = async (name) => {
    if (name.startsWith("findElements") && !waited) {
      waited = true;
      await world.clock.sleep(700); // the button jumps between the page source and the find
    }
  };
  await withActServer(world, async (c) => {
    const { envelope } = await act(world, c, "ui_tap", { selector: { text: "Go" } });
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    assert.equal(world.device.screenId(), "done", "the tap reached the button where it had moved");
    const finds = world.calls.filter((call) => call.startsWith("findElements"));
    assert.deepEqual(
      finds.map((f) => /@bounds="([^"]+)"/.exec(f)?.[1]),
      ["[100,100][500,200]", "[100,300][500,400]"],
      "the first find asks for the rectangle read (and misses), the second for the new one",
    );
    assert.equal(world.calls.filter((call) => call === "click").length, 1, "one click, after the second find");
  });
});

/** A screen that shows "Loading…" for a second, then a "Hello" button that does nothing. */
const LOADING: Scenario = {
  name: "loading",
  description: "an element that comes after a load; tapping it changes nothing",
  android: PIXEL_API35,
  start: "loading",
  screens: {
    loading: {
      package: "com.example.load",
      activity: "com.example.load.Main",
      root: {
        class: "android.widget.FrameLayout",
        bounds: [0, 0, 1080, 2400],
        children: [{ class: "android.widget.TextView", text: "Loading…", bounds: [100, 100, 500, 200] }],
      },
      after: { ms: 1000, to: "loaded" },
    },
    loaded: { package: "com.example.load", activity: "com.example.load.Main", root: button(100) },
  },
  packages: [{ name: "com.example.load", screen: "loading", label: "Load" }],
  transitions: [],
};

test("changed compares with the screen the act was done on, not with one the element wait saw before the element came", async () => {
  const world = actWorld({ scenario: LOADING });
  await withActServer(world, async (c) => {
    const { envelope } = await act(world, c, "ui_tap", { selector: { text: "Go" } });
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    assert.equal(world.device.screenId(), "loaded");
    assert.equal(envelope.data["changed"], false, "the tap did nothing visible: repeating it will not help");
  });
});
