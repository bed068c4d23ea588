/**
 * The compact summary shape is part of the contract a client reads, not only of the docs: the
 * ui_get_tree description (tools/list; tests/contract checks catalog.json matches it) says the bounds
 * tuple's order and every default an action or the summary leaves out, and what this model writes relies on exactly those.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { TOOL_CONTRACTS } from "../../contracts/tools.ts";
import { parseDump, summarize } from "../../src/screen/mod.ts";
import { button, dump, SCREEN } from "./dump_builder.ts";

const described = TOOL_CONTRACTS.find((tool) => tool.name === "ui_get_tree")!.description;

test("ui_get_tree's description states the bounds tuple and the defaults an action leaves out", () => {
  assert.match(described, /bounds \[left, top, width, height\]/);
  assert.match(described, /absent role = button, enabled = true, label = the selector's value/);
  assert.match(described, /long_press, checked, selected, focused, password, covered_by_keyboard only when true/);
  assert.match(described, /Absent: can_scroll false, keyboard closed, issues none/);
});

test("a plain enabled button on a still screen is written with exactly the fields the description makes optional left out", () => {
  const summary = summarize(parseDump(dump([button("Save", [40, 300, 400, 420])])), SCREEN);
  assert.deepEqual(summary, {
    foreground_package: "com.example.app",
    texts: [],
    actions: [{ selector: { text: "Save" }, bounds: [40, 300, 360, 120] }],
  });
});
