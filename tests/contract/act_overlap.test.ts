/**
 * What an act sends side by side (issue 24's warm tap): the keyboard's state beside the page source before the act
 * (ui_tap, device_back), the device's facts (one adb shell) beside the page source after it; each still of the
 * screen it belongs to. The keyboard's state is asked again for a screen the element wait read later; the facts
 * again beside the confirming read when the read after the act is not final. The real MCP server, session layer and
 * tools over a scenario device driven in process (act_world.ts), on the virtual clock.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type ActWorld, actWorld } from "../support/act_world.ts";
import { BUILTIN_SCENARIOS, type Scenario } from "../../src/sim/mod.ts";
import { envelopeOf } from "../support/mcp_client.ts";
import { actScreen, withActServer } from "../support/act_calls.ts";

/** Each driver call and each facts read, with the virtual time it was sent at; a page source takes 100 ms, the facts 190. */
function timeline(world: ActWorld): { name: string; at: number }[] {
  const sent: { name: string; at: number }[] = [];
  world.behaviour.beforeCall = async (name) => {
    sent.push({ name: name.split(" ")[0]!, at: world.clock.now() });
    if (name === "source") await world.clock.sleep(100);
  };
  const observer = world.deps.ports.observer;
  const read = observer.screenContext.bind(observer);
  observer.screenContext = async (wait) => {
    sent.push({ name: "facts", at: world.clock.now() });
    await world.clock.sleep(190);
    return await read(wait);
  };
  return sent;
}

const at = (sent: { name: string; at: number }[], name: string, nth = 0) => sent.filter((s) => s.name === name)[nth]?.at;

test("a warm ui_tap asks the keyboard beside the read before and the facts beside the read after; two page sources", async () => {
  const world = actWorld({ warmIdleTimeoutMs: 60_000 });
  await withActServer(world, async (c) => {
    const sent = timeline(world);
    const tap = envelopeOf(await c.client.callTool({ name: "ui_tap", arguments: { selector: { text: "Network & internet" } } }));
    assert.equal(tap.ok, true, JSON.stringify(tap.error));
    assert.deepEqual(
      sent.map((s) => s.name),
      ["source", "isKeyboardShown", "findElements", "click", "source", "facts"],
      "one keyboard check, two page sources, one facts read",
    );
    assert.equal(at(sent, "isKeyboardShown"), at(sent, "source", 0), "the keyboard is asked with the read before");
    assert.equal(at(sent, "facts"), at(sent, "source", 1), "the facts are read with the read after");
    assert.deepEqual(tap.data["screen"], actScreen(world), "the answered screen is the one now on the device");
  });
});

test("device_back asks the keyboard beside its read before, and still says it closed the keyboard", async () => {
  const world = actWorld({ scenario: "login" }); // the login field has the focus and the keyboard is open
  await withActServer(world, async (c) => {
    const sent = timeline(world);
    const back = envelopeOf(await c.client.callTool({ name: "device_back", arguments: {} }));
    assert.deepEqual([back.data["keyboard_closed"], world.device.keyboard().open], [true, false]);
    assert.equal(at(sent, "isKeyboardShown"), at(sent, "source", 0));
    assert.deepEqual(back.data["screen"], actScreen(world));
  });
});

/** A screen whose "Go" button shows only 600 ms after the screen (a late load). */
const LATE: Scenario = {
  name: "late",
  description: "a button that arrives late",
  android: BUILTIN_SCENARIOS["shop"]!.android,
  start: "empty",
  screens: {
    empty: { package: "com.example.late", activity: "com.example.late.Main", root: frame([]), after: { ms: 600, to: "loaded" } },
    loaded: {
      package: "com.example.late",
      activity: "com.example.late.Main",
      root: frame([{ class: "android.widget.Button", text: "Go", clickable: true, bounds: [100, 300, 500, 400] }]),
    },
    done: {
      package: "com.example.late",
      activity: "com.example.late.Done",
      root: frame([{ class: "android.widget.TextView", text: "Done", bounds: [0, 100, 1080, 200] }]),
    },
  },
  packages: [{ name: "com.example.late", screen: "empty", label: "Late" }],
  transitions: [{ from: "loaded", on: "tap", selector: { text: "Go" }, to: "done" }],
};

function frame(children: NonNullable<Scenario["screens"][string]["root"]>["children"]) {
  return { class: "android.widget.FrameLayout", bounds: [0, 0, 1080, 2400] as [number, number, number, number], children };
}

test("the keyboard is asked again for the screen the element wait found the element on", async () => {
  const world = actWorld({ scenario: LATE });
  await withActServer(world, async (c) => {
    const sent = timeline(world);
    const tap = envelopeOf(await c.client.callTool({ name: "ui_tap", arguments: { selector: { text: "Go" } } }));
    assert.equal(tap.ok, true, JSON.stringify(tap.error));
    assert.equal(world.device.screenId(), "done");
    const names = sent.map((s) => s.name);
    const found = names.indexOf("findElements");
    assert.ok(found > names.indexOf("source", 1), "found in a later read of the element wait");
    assert.deepEqual(names.slice(found), ["findElements", "isKeyboardShown", "click", "source", "facts"], "asked again, then tapped");
  });
});

test("a read after the act that is not final has the facts read again beside its confirming read", async () => {
  const world = actWorld({ scenario: "shop", uiIdleTimeoutMs: 500 }); // the cart's slide outlasts the idle timeout
  await withActServer(world, async (c) => {
    const sent = timeline(world);
    const tap = envelopeOf(await c.client.callTool({ name: "ui_tap", arguments: { selector: { content_desc: "Cart" } } }));
    assert.equal(tap.ok, true, JSON.stringify(tap.error));
    assert.deepEqual([tap.data["settled"], world.device.screenId()], [true, "cart"]);
    const names = sent.map((s) => s.name);
    assert.deepEqual(names.filter((n) => n === "source" || n === "facts"), ["source", "source", "facts", "facts", "source"]);
    assert.ok(at(sent, "facts", 1)! >= at(sent, "source", 1)! + 500, "the second facts read comes once the first read ended");
    assert.deepEqual(tap.data["screen"], actScreen(world), "the drawer at rest, with the facts of that moment");
  });
});
