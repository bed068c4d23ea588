import assert from "node:assert/strict";
import { test } from "node:test";
import { isHarnessError } from "../../src/errors.ts";
import { parseScenarioText, resolveScenario } from "../../src/sim/scenario/load.ts";
import { validateScenario } from "../../src/sim/scenario/validate.ts";
import { BUILTIN_SCENARIOS } from "../../src/sim/scenarios/mod.ts";

function rejects(fn: () => unknown, ...patterns: RegExp[]) {
  assert.throws(fn, (error: unknown) => {
    assert.ok(isHarnessError(error));
    assert.equal(error.code, "INVALID_ARGUMENT");
    for (const p of patterns) assert.match(error.message, p);
    return true;
  });
}

// deno-lint-ignore no-explicit-any -- scenario JSON edited freely to build invalid shapes
type Any = any;
const clone = () => structuredClone(BUILTIN_SCENARIOS["settings"]!) as unknown as Record<string, Any>;

test("an unknown built-in name lists the names that exist", () => {
  rejects(() => resolveScenario("nope"), /no built-in scenario named "nope"/, /settings, launcher, login, flutter, permission, shop/);
});

test("broken JSON says it is not JSON and names the file", () => {
  rejects(() => parseScenarioText("{", "my.json"), /my\.json is not valid JSON/);
});

test("shape errors name the path; unknown keys are rejected", () => {
  const s = clone();
  s["android"].api = 21;
  s["extra"] = 1;
  rejects(() => validateScenario(s, "x.json"), /x\.json/, /android\.api/, /extra|Unrecognized key/);
});

test("cross-references: unknown screens, packages and missing selectors are all reported at once", () => {
  const s = clone();
  s["start"] = "nowhere";
  s["transitions"].push({ on: "tap", to: "missing" });
  s["transitions"].push({ on: "tap", selector: { text: "x" }, to: "@launch:com.not.installed" });
  rejects(
    () => validateScenario(s),
    /start: unknown screen "nowhere"/,
    /to: unknown screen "missing"/,
    /needs a selector/,
    /"com\.not\.installed" is not in "packages"/,
  );
});

test("a raw dump screen must parse, and a screen gives exactly one of root or xml", () => {
  const s = clone();
  s["screens"].broken = { package: "com.android.settings", activity: "A", xml: "<hierarchy><node" };
  s["screens"].both = { package: "com.android.settings", activity: "A" };
  rejects(() => validateScenario(s), /screens\.broken\.xml: the XML does not parse/, /screens\.both: give exactly one/);
});

test("a raw uiautomator dump can be a screen", () => {
  const s = clone();
  s["screens"].raw = {
    package: "com.android.settings",
    activity: "com.android.settings.Settings",
    xml:
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="Raw" class="android.widget.TextView" package="com.android.settings" bounds="[0,0][100,100]" /></hierarchy>`,
  };
  s["start"] = "raw";
  assert.equal(validateScenario(s).start, "raw");
});

test("the hands' keys are checked too: timed screens, links, notifications, launchWhen, gestures without a selector, ime_action", () => {
  const s = structuredClone(BUILTIN_SCENARIOS["shop"]!) as unknown as Record<string, Any>;
  s["screens"]["checkout"].after = { ms: 100, to: "later" };
  s["links"].push({ prefix: "shop://x", screen: "nowhere" });
  s["notifications"].push({ package: "com.not.installed", title: "t", text: "x" });
  s["packages"][0].launchWhen.push({ flag: "f", screen: "gone" });
  s["transitions"].push({ on: "long_press", to: "checkout" });
  rejects(
    () => validateScenario(s),
    /screens\.checkout\.after\.to: unknown screen "later"/,
    /links\.3\.screen: unknown screen "nowhere"/,
    /notifications\.1\.package: "com\.not\.installed" is not in "packages"/,
    /launchWhen\.1\.screen: unknown screen "gone"/,
    /a "long_press" transition needs a selector/,
  );
  const shape = structuredClone(BUILTIN_SCENARIOS["shop"]!) as unknown as Record<string, Any>;
  shape["links"].push({ prefix: "no-scheme", screen: "checkout" });
  shape["transitions"].push({ on: "swipe", selector: { text: "x" }, to: "checkout" });
  rejects(() => validateScenario(shape), /links\.3\.prefix: a URL prefix with its scheme/, /transitions\.\d+\.on/);
  const ime = structuredClone(BUILTIN_SCENARIOS["shop"]!) as unknown as Record<string, Any>;
  ime["transitions"].push({ on: "submit", selector: { text: "x" }, to: "checkout", ime_action: "jump" });
  rejects(() => validateScenario(ime), /transitions\.\d+\.ime_action/);
  const tapWithIme = structuredClone(BUILTIN_SCENARIOS["shop"]!) as unknown as Record<string, Any>;
  tapWithIme["transitions"].push({ on: "tap", selector: { text: "x" }, to: "checkout", ime_action: "search" });
  rejects(() => validateScenario(tapWithIme), /transitions\.\d+\.ime_action: only a "submit" transition answers an IME action/);
});

test("every built-in scenario, the shop too, passes its own validation", () => {
  for (const [name, scenario] of Object.entries(BUILTIN_SCENARIOS)) {
    assert.doesNotThrow(() => validateScenario(structuredClone(scenario), name), name);
  }
});

test("a screen's filter and a tap's saves are checked: unknown keys refused, saves only on a tap", () => {
  const s = clone();
  s["screens"]["settings_home"].filter = { field: "f", row: "r", empty: "e", extra: 1 };
  s["transitions"].push({ on: "submit", selector: { text: "x" }, to: "@back", saves: { list: "l", texts: { a: "b" } } });
  rejects(() => validateScenario(s, "x.json"), /screens\.settings_home\.filter/, /extra|Unrecognized key/);
  delete s["screens"]["settings_home"].filter.extra;
  rejects(() => validateScenario(s, "x.json"), /transitions\.\d+\.saves: only a "tap" transition saves/);
});

test("a filter or a saves naming a resource-id its screen does not have is refused, not silently inert", () => {
  const s = clone();
  // settings_home has no "nope:id/field" input, no such rows, and no empty-state node: the filter would never act.
  s["screens"]["settings_home"].filter = { field: "nope:id/field", row: "nope:id/row", empty: "nope:id/empty" };
  rejects(
    () => validateScenario(s, "x.json"),
    /screens\.settings_home\.filter\.field: no input with resource-id "nope:id\/field" on the screen/,
    /screens\.settings_home\.filter\.row: no node with resource-id "nope:id\/row"/,
    /screens\.settings_home\.filter\.empty: no node with resource-id "nope:id\/empty"/,
  );
  const t = clone();
  t["transitions"].push({
    from: "settings_home",
    on: "tap",
    selector: { text: "x" },
    to: "settings_home",
    saves: { list: "nope:id/list", texts: { a: "nope:id/in" } },
  });
  rejects(
    () => validateScenario(t, "x.json"),
    /transitions\.\d+\.saves\.list: no node with resource-id "nope:id\/list" on the screen "settings_home"/,
    /transitions\.\d+\.saves\.texts\.a: no input with resource-id "nope:id\/in" on the screen "settings_home"/,
  );
  const u = clone();
  u["transitions"].push({ on: "tap", selector: { text: "x" }, to: "@back", saves: { list: "l", texts: {} } });
  rejects(() => validateScenario(u, "x.json"), /transitions\.\d+\.saves\.texts: names no input, so nothing would ever be saved/);
});
