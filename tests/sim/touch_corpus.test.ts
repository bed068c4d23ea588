/**
 * Every action the harness's summary offers on a real capture is one a finger can press on the simulated device: the
 * capture becomes a scenario screen with a `tap` transition on that element alone, and the tap fires it, through
 * both paths a client has: the UiAutomator2 element click (the centre of the element's visible bounds) and
 * `input tap` at the centre of the bounds the summary gives. Offered: listed by the summary, not disabled, not under
 * the keyboard, not `covered_by` another view (those the harness itself says a tap does not reach). The pair is what
 * is checked: a view the harness rightly offers must not be dead on the sim (a non-clickable full-screen frame drawn
 * last swallowed such taps before the sim dispatched touches as ViewGroup.dispatchTouchEvent does).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { locate, summaryFromXml } from "../../src/screen/mod.ts";
import type { ActionEntry } from "../../src/screen/types.ts";
import { captureScenario, ScenarioDevice } from "../../src/sim/mod.ts";
import type { Scenario } from "../../src/sim/mod.ts";
// Internal sim modules (no public entry for them yet): the dump reader and writer, the node list, the device shell.
import { readDump, writeDump } from "../../src/sim/scenario/dump_xml.ts";
import { allNodes } from "../../src/sim/scenario/sim_node.ts";
import { DeviceShell } from "../../src/sim/shell/device_shell.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";

const skip = corpusSkipReason();
const files = skip === false ? readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".xml")).sort() : [];
const MARK = "touch.test:id/offered";

function offered(action: ActionEntry): boolean {
  return action.enabled !== false && action.covered_by === undefined && action.covered_by_keyboard !== true;
}

/**
 * The capture as a live (not frozen) scenario whose one transition fires on a tap that reaches node `index`; built as
 * `sim --screen` builds its scenario, unvalidated (a capture's package may be `android`).
 */
function scenarioTapping(xml: string, index: number): Scenario {
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
    transitions: [{ on: "tap", from: "capture", selector: { resource_id: MARK }, to: "fired" }],
  };
}

interface Tally {
  files: number;
  actions: number;
  dead: string[];
}
const tally: Tally = { files: 0, actions: 0, dead: [] };

for (const file of files) {
  test(`corpus ${file}: every action the summary offers fires its tap transition (element click and input tap)`, { skip }, () => {
    const xml = readFileSync(join(CORPUS_DIR, file), "utf8");
    const { tree, summary } = summaryFromXml({ xml, context: {} });
    const nodes = allNodes(readDump(xml).roots);
    assert.equal(nodes.length, tree.nodes.length, "the sim and the harness read the same nodes");
    const dead: string[] = [];
    let count = 0;
    for (const action of summary.actions.filter(offered)) {
      const element = locate(tree, action.selector);
      assert.equal(nodes[element.node.id]!.attrs["class"], element.node.className, "the same node on both sides");
      const scenario = scenarioTapping(xml, element.node.id);
      const clicked = new ScenarioDevice(scenario);
      clicked.tap({ "resource-id": MARK }); // what the UiAutomator2 element click runs (element_commands.ts)
      const [left, top, width, height] = action.bounds;
      const x = Math.floor(left + width / 2), y = Math.floor(top + height / 2);
      const tapped = new ScenarioDevice(scenario);
      new DeviceShell(tapped).run(`input tap ${x} ${y}`);
      const said = `${JSON.stringify(action.selector)} (${action.label ?? ""})`;
      if (clicked.screenId() !== "fired") dead.push(`${said}: element click`);
      if (tapped.screenId() !== "fired") dead.push(`${said}: input tap ${x} ${y}`);
      count += 1;
    }
    tally.files += 1;
    tally.actions += count;
    tally.dead.push(...dead.map((d) => `${file} ${d}`));
    assert.deepEqual(dead, [], `${dead.length} dead taps (element click or input tap) among ${count} offered actions`);
  });
}

test("the corpus run covered every capture and many offered actions", { skip }, (t) => {
  t.diagnostic(`${tally.actions} offered actions on ${tally.files} captures, ${tally.dead.length} dead`);
  assert.equal(tally.files, files.length);
  assert.ok(files.length >= 30, `only ${files.length} captures in ${CORPUS_DIR}`);
  assert.ok(tally.actions >= 300, `only ${tally.actions} offered actions`);
});
