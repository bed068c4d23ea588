/**
 * The text block a model reads (src/mcp/response.ts, by what each tool declares it answers): each thing once,
 * the screen as selector lines without rectangles, while structuredContent keeps the whole envelope. Over the real MCP server and SDK client
 * (in-memory transport) with the act world, and on envelopes built by hand for the failure form.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createHarnessServer } from "../../src/mcp/server.ts";
import { envelopeText } from "../../src/mcp/response.ts";
import { renderSummaryText } from "../../src/screen/mod.ts";
import { actWorld } from "../support/act_world.ts";
import { connectInMemory } from "../support/mcp_client.ts";

test("an act's text: outcome, what it adds, the evidence once as its URI, the screen's selectors; no operation id, path or bounds", async () => {
  const world = actWorld();
  const connected = await connectInMemory(createHarnessServer(world.deps));
  try {
    const result = await connected.client.callTool({ name: "ui_tap", arguments: { selector: { text: "Network & internet" } } });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    const envelope = result.structuredContent as { operation_id: string; evidence: { artifact_id: string; path: string; uri: string } };
    const lines = text.split("\n");
    assert.equal(lines[0], "ui_tap: ok · changed · settled");
    assert.ok(lines.includes(`target: {"text":"Network & internet"}`));
    assert.ok(!text.includes("element_label"), "a label equal to the target's text is not said twice");
    assert.equal(text.split(envelope.evidence.artifact_id).length - 1, 1, "the evidence is named once");
    assert.ok(lines.includes(`evidence: ${envelope.evidence.uri}`));
    assert.ok(!text.includes(envelope.evidence.path) && !text.includes(envelope.operation_id));
    assert.ok(
      lines.includes("screen com.android.settings · scrollable · keyboard closed") ||
        lines.includes("screen com.android.settings · not scrollable · keyboard closed"),
    );
    assert.ok(lines.includes(`  toggle {"text":"Airplane mode"}`), "each action as its copyable selector");
    assert.doesNotMatch(text, /@\d+,\d+ \d+x\d+/, "no rectangles: structuredContent has them");
    assert.ok(JSON.stringify(result.structuredContent).includes('"bounds":['));
    assert.ok(text.length < JSON.stringify(result.structuredContent).length * 0.7, `${text.length} characters of text`);
  } finally {
    await connected.close();
    await world.layer.closeAll("test over");
  }
});

test("a failure's text: code, the message that says what to do, the moment's evidence; details stay structured", () => {
  const text = envelopeText({
    ok: false,
    operation_id: "7f1b2c9e-0000-4000-8000-000000000001",
    tool: "ui_tap",
    data: {},
    evidence: {
      artifact_id: "20261201-210000-000001-ui-tap.png",
      path: "/a/20261201-210000-000001-ui-tap.png",
      uri: "artifact://20261201-210000-000001-ui-tap.png",
    },
    error: {
      code: "UI_ELEMENT_NOT_FOUND",
      message: 'No visible element matched {"text":"Nope"}. The screen offers: \'Apps\' (button).',
      details: { offered: [{ label: "Apps" }] },
    },
  });
  assert.equal(
    text,
    [
      "ui_tap: failed UI_ELEMENT_NOT_FOUND",
      'No visible element matched {"text":"Nope"}. The screen offers: \'Apps\' (button).',
      "evidence: artifact://20261201-210000-000001-ui-tap.png",
      "",
    ].join("\n"),
  );
});

test("an observation's text: its fields as key: JSON, a tree's summary as lines, a requested raw dump after them", () => {
  assert.equal(
    envelopeText({
      ok: true,
      operation_id: "7f1b2c9e-0000-4000-8000-000000000002",
      tool: "app_list",
      evidence: null,
      error: null,
      data: { packages: ["com.example.a"], count: 1, include_system: false },
    }),
    `app_list: ok\npackages: ["com.example.a"]\ncount: 1\ninclude_system: false\n`,
  );
  assert.equal(
    envelopeText({
      ok: true,
      operation_id: "7f1b2c9e-0000-4000-8000-000000000003",
      tool: "ui_get_tree",
      evidence: null,
      error: null,
      data: {
        foreground_package: "com.a",
        texts: ["Hi"],
        actions: [{ selector: { text: "Go" }, bounds: [0, 0, 10, 10] }],
        raw: "<hierarchy/>",
      },
    }),
    `ui_get_tree: ok\nscreen com.a · not scrollable · keyboard closed\ntexts: "Hi"\nactions (1):\n  button {"text":"Go"}\nraw:\n<hierarchy/>\n`,
  );
});

test("a waited screen's text: the wait's fields, then the screen as lines (no act outcome it does not have)", () => {
  assert.equal(
    envelopeText({
      ok: true,
      operation_id: "7f1b2c9e-0000-4000-8000-000000000004",
      tool: "ui_wait",
      evidence: null,
      error: null,
      data: {
        waited_ms: 250,
        screen: { foreground_package: "com.a", texts: [], actions: [{ selector: { text: "Go" }, bounds: [0, 0, 10, 10] }] },
      },
    }),
    `ui_wait: ok\nwaited_ms: 250\nscreen com.a · not scrollable · keyboard closed\nactions (1):\n  button {"text":"Go"}\n`,
  );
});

test("the text reads by what the tool declares it answers, not by the data's shape", () => {
  const summary = { foreground_package: "com.example", texts: ["Hello"], actions: [] };
  const base = { ok: true as const, operation_id: "00000000-0000-4000-8000-000000000001", evidence: null, error: null };
  assert.equal(
    envelopeText({ ...base, tool: "ui_get_tree", data: summary }),
    "ui_get_tree: ok\n" + renderSummaryText(summary, { bounds: false }),
  );
  // The same keys under a tool that answers plain fields are its fields, not a screen.
  assert.equal(
    envelopeText({ ...base, tool: "app_list", data: summary }),
    'app_list: ok\nforeground_package: "com.example"\ntexts: ["Hello"]\nactions: []\n',
  );
  const act = { foreground_package: "com.example", settled: true, changed: false, screen: summary };
  assert.match(envelopeText({ ...base, tool: "device_back", data: act }), /^device_back: ok · unchanged · settled\n/);
  assert.match(envelopeText({ ...base, tool: "ui_wait", data: { waited_ms: 0, screen: summary } }), /^ui_wait: ok\nwaited_ms: 0\n/);
});
