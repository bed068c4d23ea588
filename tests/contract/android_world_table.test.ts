/**
 * docs/contract.md's AndroidWorld table: every action type AndroidWorld's JSON action space accepts
 * (google-research/android_world, android_world/env/json_action.py `_ACTION_TYPES`, read at d9c569f) has
 * exactly one row, and each row's calls name only tools the catalog declares.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { AVAILABLE_TOOL_NAMES } from "../../contracts/tools.ts";
import { REPO_ROOT } from "../support/paths.ts";

/** json_action.py's `_ACTION_TYPES`, in its order. */
const ANDROID_WORLD_ACTION_TYPES = [
  "click",
  "double_tap",
  "scroll",
  "swipe",
  "input_text",
  "navigate_home",
  "navigate_back",
  "keyboard_enter",
  "open_app",
  "status",
  "wait",
  "long_press",
  "answer",
  "unknown",
];

/** The table's rows after the heading, as [AndroidWorld cell, "here" cell]. */
function tableRows(): [string, string][] {
  const text = readFileSync(join(REPO_ROOT, "docs", "contract.md"), "utf8");
  const section = text.split("## AndroidWorld's action space here")[1];
  assert.ok(section !== undefined, "docs/contract.md has the AndroidWorld section");
  const lines = section.split("\n");
  const start = lines.findIndex((line) => line.startsWith("| AndroidWorld"));
  const rows: [string, string][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line.split(" | ").map((cell) => cell.replace(/^\|\s*|\s*\|$/g, ""));
    rows.push([cells[0]!, cells.slice(1).join(" | ")]);
  }
  return rows;
}

/** The backticked names of a cell outside its parentheses (the action types a row is about). */
const namedTypes = (cell: string) => [...cell.replace(/\([^)]*\)/g, "").matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);

test("the AndroidWorld table has one row for each action type json_action.py accepts, and no other", () => {
  const named = tableRows().flatMap(([kind]) => namedTypes(kind));
  assert.deepEqual([...named].sort(), [...ANDROID_WORLD_ACTION_TYPES].sort());
});

test("each row of the AndroidWorld table calls only tools the catalog declares", () => {
  const tools = new Set<string>(AVAILABLE_TOOL_NAMES);
  for (const [kind, here] of tableRows()) {
    // A call is a backticked tool-shaped name (the catalog's families), alone or with its arguments: `ui_tap {selector}`.
    const called = [...here.matchAll(/`((?:ui|device|app|settings)_[a-z_]+)(?: \{[^`]*\})?`/g)].map((m) => m[1]!);
    const agentOwn = /the agent's own/.test(here);
    assert.ok(agentOwn || called.length > 0, `${kind}: names a call`);
    for (const name of called) assert.ok(tools.has(name), `${kind}: ${name} is a tool of the catalog`);
  }
});
