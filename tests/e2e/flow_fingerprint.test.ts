/**
 * The screen fingerprint end to end on the simulated game (scenario "canvas": an empty accessibility tree on both
 * screens): an MCP client drives the compiled `serve --device sim --scenario canvas --record FILE` over real stdio;
 * each act's answer carries the fingerprint (in its text block too, the screen offering nothing else); the recorder
 * writes a fingerprint expectation for every step (no label ever appears); `flow FILE --device sim` replays it green
 * (exit 0) on another device whose animation is at other frames, and the same flow expecting the title's fingerprint
 * after the tap that starts the game fails as an unexpected screen (exit 3).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseFlowText } from "../../contracts/flow.ts";
import { actToolsSkipReason } from "../support/act_tools.ts";
import { runCliCaptured } from "../support/cli.ts";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";

const GAME = "com.example.skyhop";

test(
  "a game's screens recorded by fingerprint replay green (0); the wrong screen's fingerprint is exit 3",
  { skip: actToolsSkipReason() },
  async (t) => {
    const home = makeServeHome();
    t.after(() => home.remove());
    const file = join(home.root, "skyhop.json");
    const served = await spawnServe(["--device", "sim", "--scenario", "canvas", "--record", file], home.env);
    t.after(() => served.close());
    const act = async (name: string, args: Record<string, unknown>) => {
      const result = await served.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
      const envelope = envelopeOf(result);
      assert.equal(envelope.ok, true, `${name}: ${JSON.stringify(envelope.error)}`);
      const screen = envelope.data["screen"] as { texts: string[]; actions: unknown[]; fingerprint?: string };
      assert.deepEqual([screen.texts, screen.actions], [[], []], `${name}: the game offers no text and no action`);
      assert.match(screen.fingerprint ?? "", /^[0-9a-f]{80}$/, `${name}: its summary carries the fingerprint`);
      const text = (result.content as { type: string; text?: string }[])[0]!.text!;
      assert.ok(text.includes(`fingerprint: ${screen.fingerprint}`), `${name}: the model reads it too`);
      return screen.fingerprint!;
    };
    const title = await act("app_launch", { package: GAME });
    const play = await act("ui_tap", { selector: { resource_id: "android:id/content" } });
    const back = await act("device_back", {});
    assert.notEqual(play, title);
    await served.close();

    const recorded = parseFlowText(readFileSync(file, "utf8"));
    assert.ok(recorded.ok, JSON.stringify(!recorded.ok && recorded.problems));
    assert.equal(recorded.flow.sim_scenario, "canvas");
    assert.deepEqual(
      recorded.flow.steps.map((s) => [s.tool, s.expect?.fingerprint, s.expect?.visible]),
      [["app_launch", title, undefined], ["ui_tap", play, undefined], ["device_back", back, undefined]],
      "no label appeared: each step expects its screen's fingerprint",
    );

    const replay = await runCliCaptured(["flow", file, "--device", "sim", "--artifacts", join(home.root, "replay")]);
    assert.equal(replay.code, 0, `${replay.stderr}\n${replay.stdout}`);
    assert.match(replay.stdout, /passed, 3 of 3 steps passed/);

    const wrong = JSON.parse(readFileSync(file, "utf8"));
    wrong.steps[1].expect = { fingerprint: title, timeout_ms: 500 };
    const wrongFile = join(home.root, "skyhop-wrong.json");
    writeFileSync(wrongFile, JSON.stringify(wrong));
    const failed = await runCliCaptured(["flow", wrongFile, "--device", "sim", "--artifacts", join(home.root, "wrong")]);
    assert.equal(failed.code, 3, `${failed.stderr}\n${failed.stdout}`);
    assert.match(`${failed.stdout}${failed.stderr}`, /fingerprint matches \d+ of 40 cells/);
  },
);
