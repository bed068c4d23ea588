/**
 * Every action the harness's summary offers on a real capture is one a finger can press on the simulated device: the
 * capture becomes a scenario screen with a transition on that element alone, and the press fires it, through both
 * paths a client has: the UiAutomator2 element click (the centre of the element's visible bounds) and `adb shell input`
 * at the centre of the bounds the summary gives (`input tap`; for an element that is only long-clickable, a long press:
 * the element's long click and `input swipe x y x y 1000`). Offered: listed by the summary, not disabled, not under the
 * keyboard, not `covered_by` another view (those the harness itself says a tap does not reach). The pair is what is
 * checked: a view the harness rightly offers must not be dead on the sim (a non-clickable full-screen frame drawn last
 * swallowed such taps before the sim dispatched touches as ViewGroup.dispatchTouchEvent does). Where the capture does
 * not say which of two overlapping siblings is drawn on top (no `drawing-order`), neither side can know: such a press
 * that reaches the other sibling is counted and listed as undecided, not failed. So is a press whose point lies on a
 * view inside the element that takes the touch with another gesture (a Play button at the centre of a long-clickable
 * video, a long-clickable-only child row at the centre of a clickable group): Android gives it to that inner view, the
 * harness counts the inner view as the element's own.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { locate, summaryFromXml } from "../../src/screen/mod.ts";
import type { ActionEntry, UiNode } from "../../src/screen/types.ts";
import { captureScenario, ScenarioDevice } from "../../src/sim/mod.ts";
import type { Scenario } from "../../src/sim/mod.ts";
// Internal sim modules (no public entry for them): the dump reader and writer, the nodes, the touch dispatch, the shell.
import { readDump, writeDump } from "../../src/sim/scenario/dump_xml.ts";
import { allNodes, ancestors, type SimNode } from "../../src/sim/scenario/sim_node.ts";
import { touchTarget, visibleCentreOf } from "../../src/sim/scenario/touch_point.ts";
import { DeviceShell } from "../../src/sim/shell/device_shell.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";

const skip = corpusSkipReason();
const files = skip === false ? readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".xml")).sort() : [];
const MARK = "touch.test:id/offered";

function offered(action: ActionEntry): boolean {
  return action.enabled !== false && action.covered_by === undefined && action.covered_by_keyboard !== true;
}

/** An element that only a long press acts on (long-clickable, not clickable, not an input): it gets a long press. */
function longPressOnly(node: UiNode): boolean {
  return node.longClickable && !node.clickable && !node.checkable && !/EditText/.test(node.className);
}

/**
 * The capture as a live (not frozen) scenario whose one transition fires on a press that reaches node `index`; built as
 * `sim --screen` builds its scenario, unvalidated (a capture's package may be `android`).
 */
function scenarioPressing(xml: string, index: number, on: "tap" | "long_press"): Scenario {
  const dump = readDump(xml);
  const node = allNodes(dump.roots)[index]!;
  node.attrs["resource-id"] = MARK;
  const base = captureScenario({ xml }).scenario;
  const capture = base.screens["capture"]!;
  const { width, height } = base.android;
  return {
    ...base,
    frozen: false,
    screens: {
      capture: { ...capture, xml: writeDump(dump.roots, dump.rotation) },
      fired: { package: capture.package, activity: capture.activity, root: { bounds: [0, 0, width, height], text: "fired" } },
    },
    transitions: [{ on, from: "capture", selector: { resource_id: MARK }, to: "fired" }],
  };
}

/**
 * Why a press at (x, y) did not reach `target`: "undecided" when what took it sits in a sibling branch whose drawing
 * order the dump does not say, "inner" when a view inside the target took it, else null (a dead press).
 */
function excuse(roots: readonly SimNode[], target: SimNode, x: number, y: number): "undecided" | "inner" | null {
  const taker = touchTarget(roots, x, y);
  if (taker === null) return null;
  const mine = [target, ...ancestors(target)].reverse();
  const theirs = [taker, ...ancestors(taker)].reverse();
  let split = 0;
  while (split < mine.length && split < theirs.length && mine[split] === theirs[split]) split += 1;
  if (split === mine.length && split < theirs.length) return "inner";
  if (split === 0 || split === mine.length || split === theirs.length) return null;
  return [mine[split]!, theirs[split]!].some((n) => !(Number(n.attrs["drawing-order"] ?? 0) > 0)) ? "undecided" : null;
}

const tally = { files: 0, actions: 0, excused: [] as string[] };

for (const file of files) {
  test(`corpus ${file}: every action the summary offers fires its transition (element click and adb input)`, { skip }, () => {
    const xml = readFileSync(join(CORPUS_DIR, file), "utf8");
    const { tree, summary } = summaryFromXml({ xml, context: {} });
    const roots = readDump(xml).roots;
    const nodes = allNodes(roots);
    assert.equal(nodes.length, tree.nodes.length, "the sim and the harness read the same nodes");
    const dead: string[] = [];
    let count = 0;
    for (const action of summary.actions.filter(offered)) {
      const element = locate(tree, action.selector);
      const target = nodes[element.node.id]!;
      assert.equal(target.attrs["class"], element.node.className, "the same node on both sides");
      const long = longPressOnly(element.node);
      const scenario = scenarioPressing(xml, element.node.id, long ? "long_press" : "tap");
      const clicked = new ScenarioDevice(scenario);
      // What the UiAutomator2 element click and long click run (element_commands.ts, hand_commands.ts).
      if (long) clicked.longPress({ "resource-id": MARK });
      else clicked.tap({ "resource-id": MARK });
      const [left, top, width, height] = action.bounds;
      const x = Math.floor(left + width / 2), y = Math.floor(top + height / 2);
      const tapped = new ScenarioDevice(scenario);
      const line = long ? `input swipe ${x} ${y} ${x} ${y} 1000` : `input tap ${x} ${y}`;
      new DeviceShell(tapped).run(line);
      const said = `${JSON.stringify(action.selector)} (${action.label ?? ""})`;
      const centre = visibleCentreOf(target)!;
      for (const [device, how, at] of [[clicked, "element click", centre], [tapped, line, { x, y }]] as const) {
        if (device.screenId() === "fired") continue;
        const why = excuse(roots, target, at.x, at.y);
        if (why !== null) tally.excused.push(`${why}: ${file} ${said}: ${how}`);
        else dead.push(`${said}: ${how}`);
      }
      count += 1;
    }
    tally.files += 1;
    tally.actions += count;
    assert.deepEqual(dead, [], `${dead.length} dead presses (element click or adb input) among ${count} offered actions`);
  });
}

test("the corpus run covered every capture and many offered actions; undecided and inner presses are listed", { skip }, (t) => {
  const presses = 2 * tally.actions;
  t.diagnostic(`${tally.actions} offered actions on ${tally.files} captures, ${presses} presses; ${tally.excused.length} excused`);
  for (const line of tally.excused) t.diagnostic(line);
  assert.equal(tally.files, files.length);
  assert.ok(files.length >= 30, `only ${files.length} captures in ${CORPUS_DIR}`);
  assert.ok(tally.actions >= 700, `only ${tally.actions} offered actions`);
  assert.ok(tally.excused.length <= presses / 10, `${tally.excused.length} of ${presses} presses excused: more than a tenth`);
});
