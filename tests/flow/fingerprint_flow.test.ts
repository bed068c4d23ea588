/**
 * Flows on a screen no selector confirms (the sim's "canvas" game: the same empty tree on its title and play screens),
 * through the real runner and gate on the virtual clock: the act's summary carries its evidence's fingerprint; the
 * two screens are told apart by it and each is matched across its animation frames; a fingerprint that does not
 * match is an unexpected screen (3) even though the tree did not change; `tolerance` and `min_match` reach the
 * comparison at their edges; the recorder writes a fingerprint expectation for a step where no label appeared, and
 * the recorded flow replays.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type FlowFile, parseFlow } from "../../contracts/flow.ts";
import { expectationFrom } from "../../src/flow/recorder.ts";
import { runFlow } from "../../src/flow/runner.ts";
import { compareFingerprints, screenFingerprint } from "../../src/png/mod.ts";
import type { ScreenSummary } from "../../src/screen/mod.ts";
import { BUILTIN_SCENARIOS, ScenarioDevice } from "../../src/sim/mod.ts";
import { virtualScenarioWorld } from "./scenario_world.ts";

const GAME = "com.example.skyhop";
const CONTENT = { resource_id: "android:id/content" };

/** The fingerprint of each of a canvas screen's three animation frames (400 ms each), drawn by the sim. */
function frameFingerprints(screen: "title" | "play"): string[] {
  let now = 0;
  const device = new ScenarioDevice({ ...BUILTIN_SCENARIOS["canvas"]!, start: screen }, { now: () => now });
  return [0, 400, 800].map((at) => {
    now = at;
    return screenFingerprint(device.screenshotPng());
  });
}

const TITLE = frameFingerprints("title");
const PLAY = frameFingerprints("play");

function flow(steps: unknown[]): FlowFile {
  const parsed = parseFlow({ version: 1, name: "canvas", package_name: GAME, steps });
  if (!parsed.ok) assert.fail(JSON.stringify(parsed.problems));
  return parsed.flow;
}

/** `base` with the cells at `cells` moved by `by` (a fingerprint the screen matches only within the knobs). */
function shifted(base: string, cells: number[], by: number): string {
  const bytes = base.match(/../g)!.map((h) => parseInt(h, 16));
  for (const c of cells) bytes[c] = bytes[c]! + by;
  return bytes.map((v) => v.toString(16).padStart(2, "0")).join("");
}

test("the canvas scenario: the tree cannot tell title from play; the fingerprint can, and matches each across its frames", () => {
  for (const frames of [TITLE, PLAY]) {
    for (const a of frames) for (const b of frames) assert.equal(compareFingerprints(a, b).matched, 40, "one screen, any two frames");
    assert.ok(frames.some((f) => f !== frames[0]), "the frames differ: the screen animates");
  }
  for (const t of TITLE) for (const p of PLAY) assert.ok(compareFingerprints(t, p).matched <= 4, "title and play are told apart");
});

test("a flow confirms each screen of the game by fingerprint: exit 0; the act's summary carries the fingerprint", async () => {
  const world = virtualScenarioWorld("canvas");
  const run = await runFlow(
    flow([
      { tool: "app_launch", args: { package: GAME }, expect: { foreground_package: GAME, fingerprint: TITLE[0] } },
      { tool: "ui_tap", args: { selector: CONTENT }, expect: { fingerprint: PLAY[2] } },
      { tool: "device_back", expect: { fingerprint: TITLE[1] } },
    ]),
    world.harness,
    { pollIntervalMs: 20 },
  );
  assert.equal(run.outcome, "passed", JSON.stringify(run.failure));
  assert.equal(run.exit_code, 0);
  const tapped = run.steps[1]!.envelope!.data as { changed: boolean; screen: ScreenSummary };
  assert.deepEqual([tapped.changed, tapped.screen.texts, tapped.screen.actions], [false, [], []], "the tree says nothing changed");
  assert.ok(
    PLAY.some((f) => compareFingerprints(f, tapped.screen.fingerprint!).matched === 40),
    "the act's fingerprint is the play screen's",
  );
  assert.deepEqual(run.steps.map((s) => s.expectation?.readings), [1, 1, 1], "the act's own fingerprint was the first reading");
  for (const step of run.steps.slice(1)) {
    const evidence = step.envelope!.evidence;
    assert.ok(evidence !== null, "an act on a screen with nothing to read names its PNG (taken before the answer)");
    assert.match(evidence.artifact_id, /\.png$/);
  }
});

test("a fingerprint that does not match is an unexpected screen (3), though the tree did not change; the report says why", async () => {
  const world = virtualScenarioWorld("canvas");
  const run = await runFlow(
    flow([
      { tool: "app_launch", args: { package: GAME } },
      { tool: "ui_tap", args: { selector: CONTENT }, expect: { fingerprint: TITLE[0], timeout_ms: 200 } },
    ]),
    world.harness,
    { pollIntervalMs: 50 },
  );
  assert.equal(run.outcome, "unexpected_screen");
  assert.equal(run.exit_code, 3);
  assert.equal(run.failure?.step, 2);
  assert.match(run.failure!.reason, /fingerprint matches \d of 40 cells within 14, expected at least 34 \(min_match 0\.85\)/);
  assert.ok(run.steps[1]!.expectation!.readings > 1, "polled with screenshots until the timeout");
  assert.match(run.failure!.expected!, /^fingerprint [0-9a-f]{80}$/);
});

test("tolerance and min_match reach the comparison at their edges through the flow", async () => {
  // Cells no frame of the title changes: moved by exactly the tolerance, or one more.
  const still = [...Array(40).keys()].filter((c) => new Set(TITLE.map((f) => f.slice(2 * c, 2 * c + 2))).size === 1).slice(0, 7);
  assert.equal(still.length, 7);
  const outcome = async (expect: Record<string, unknown>) => {
    const world = virtualScenarioWorld("canvas");
    const run = await runFlow(
      flow([{ tool: "app_launch", args: { package: GAME }, expect: { ...expect, timeout_ms: 100 } }]),
      world.harness,
      {
        pollIntervalMs: 50,
      },
    );
    return run.exit_code;
  };
  // The default share 0.85 is 34 of 40 cells: six cells off by 15 pass, seven fail.
  assert.equal(await outcome({ fingerprint: shifted(TITLE[0]!, still.slice(0, 6), 15) }), 0);
  assert.equal(await outcome({ fingerprint: shifted(TITLE[0]!, still, 15) }), 3);
  // Every cell asked (min_match 1): the still cells off by exactly the tolerance pass, by one more fail.
  assert.equal(await outcome({ fingerprint: shifted(TITLE[0]!, still, 20), tolerance: 20, min_match: 1 }), 0);
  assert.equal(await outcome({ fingerprint: shifted(TITLE[0]!, still, 21), tolerance: 20, min_match: 1 }), 3);
});

test("a fingerprint's knobs without a fingerprint, or a malformed one, are refused before anything runs", () => {
  const problems = (expect: unknown) => {
    const parsed = parseFlow({ version: 1, name: "x", package_name: GAME, steps: [{ tool: "device_back", expect }] });
    return parsed.ok ? [] : parsed.problems.map((p) => `${p.path}: ${p.message}`);
  };
  assert.deepEqual(problems({ foreground_package: GAME, tolerance: 3 }), [
    "steps.0.expect: tolerance and min_match adjust how a fingerprint is matched: add fingerprint",
  ]);
  assert.deepEqual(problems({ fingerprint: "AB".repeat(40) }), [
    "steps.0.expect.fingerprint: a screen fingerprint: 80 lowercase hex digits",
  ]);
  assert.equal(problems({ fingerprint: TITLE[0], tolerance: 256 }).length, 1);
  assert.equal(problems({ fingerprint: TITLE[0], min_match: 1.5 }).length, 1);
  assert.deepEqual(problems({ fingerprint: TITLE[0], tolerance: 0, min_match: 0 }), []);
});

test("the recorder: the fingerprint when no label appeared, a selector when one did", () => {
  const empty = (fingerprint?: string): ScreenSummary => ({
    foreground_package: GAME,
    texts: [],
    actions: [],
    ...(fingerprint === undefined ? {} : { fingerprint }),
  });
  assert.deepEqual(expectationFrom(empty(TITLE[0]), empty(PLAY[0]), GAME), { foreground_package: GAME, fingerprint: PLAY[0] });
  assert.deepEqual(expectationFrom(empty(), empty(), GAME), { foreground_package: GAME }, "no screenshot, no fingerprint");
  const labelled = { ...empty(PLAY[0]), texts: ["Game over"] };
  assert.deepEqual(expectationFrom(empty(TITLE[0]), labelled, GAME), { foreground_package: GAME, visible: { text: "Game over" } });
});
