/**
 * The reachability law on every screen of every built-in simulated scenario (the screens the e2e
 * campaign and users of `sim` see): each screen's dump, as the simulated device started on it writes it, summarizes to
 * actions that reach every actionable element, none ambiguous, each selector resolving to its element,
 * and each listed scroll area's selector leading back to that area (scrollContainerOf).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { keyboardInDump, parseDump, screenSizeOf, scrollContainerOf, summarizeWithNodes } from "../../src/screen/mod.ts";
import { BUILTIN_SCENARIOS, ScenarioDevice } from "../../src/sim/mod.ts";
import { reachabilityOf } from "../support/reachability.ts";

for (const [name, scenario] of Object.entries(BUILTIN_SCENARIOS)) {
  test(`reachability law on every screen of the '${name}' scenario`, () => {
    const ids = Object.keys(scenario.screens);
    assert.ok(ids.length > 0);
    for (const id of ids) {
      const tree = parseDump(new ScenarioDevice({ ...scenario, start: id }).hierarchyXml());
      const context = { ...screenSizeOf(tree), density: 420, keyboard: keyboardInDump(tree) };
      const { summary, scrollAreaNodes } = summarizeWithNodes(tree, context);
      (summary.scroll_areas ?? []).forEach((area, i) => {
        assert.equal(scrollContainerOf(tree, area.selector)?.id, scrollAreaNodes[i], `${name}/${id}: ${JSON.stringify(area.selector)}`);
      });
      const law = reachabilityOf(tree, summary);
      assert.deepEqual(law.faults, [], `${name}/${id}: ${law.faults.join("; ")}`);
      assert.equal(law.reachable, law.actionable, `${name}/${id}`);
    }
  });
}
