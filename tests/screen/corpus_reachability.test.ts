/**
 * The reachability law on every real capture of the shared corpus (SPEC §5): every on-screen
 * actionable node is reached by an offered action whose selector resolves to it or to the row it
 * belongs to, no action stands for two separate checkables or an input inside a row, and no selector
 * is offered that names several elements (there is no `ambiguous` entry any more). Skipped, with the
 * reason, when the corpus is missing.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { keyboardInDump, parseDump, screenSizeOf, summarize } from "../../src/screen/mod.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";
import { reachabilityOf } from "../support/reachability.ts";

const skip = corpusSkipReason();
const captures = skip === false && existsSync(CORPUS_DIR) ? readdirSync(CORPUS_DIR).filter((name) => name.endsWith(".xml")).sort() : [];

for (const name of captures) {
  test(`reachability law: ${name}`, () => {
    const tree = parseDump(readFileSync(join(CORPUS_DIR, name), "utf8"));
    const summary = summarize(tree, { ...screenSizeOf(tree), density: 420, keyboard: keyboardInDump(tree) });
    const law = reachabilityOf(tree, summary);
    assert.deepEqual(law.faults, [], `${name}: ${law.faults.join("; ")}`);
    assert.equal(law.reachable, law.actionable);
    assert.ok(summary.actions.every((action) => !("ambiguous" in action)), "no entry is offered as ambiguous");
  });
}

test("the whole corpus: every actionable element reachable, none offered ambiguous", { skip }, () => {
  let actionable = 0;
  let reachable = 0;
  for (const name of captures) {
    const tree = parseDump(readFileSync(join(CORPUS_DIR, name), "utf8"));
    const law = reachabilityOf(tree, summarize(tree, { ...screenSizeOf(tree), density: 420, keyboard: keyboardInDump(tree) }));
    actionable += law.actionable;
    reachable += law.reachable;
  }
  assert.ok(actionable > 700, `the corpus holds hundreds of actionable elements (${actionable})`);
  assert.equal(reachable, actionable);
});
