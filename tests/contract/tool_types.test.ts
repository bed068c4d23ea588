/**
 * What the compiler refuses about tools, checked when the tests build (each `@ts-expect-error` below fails tsc
 * once the error it expects no longer happens): a record of handlers without one declared tool or with an
 * undeclared one, a handler under another tool's name, and an act tool's handler not made by defineActTool
 * (which would skip the act pipeline). The served handlers are checked for the same rule at run time.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { TOOL_NAMES, TOOLS } from "../../contracts/tools.ts";
import type { ToolHandlers } from "../../src/ports/operation.ts";
import { TOOL_HANDLERS } from "../../src/tools/mod.ts";

test("the compiler refuses a missing, an undeclared, a renamed handler and an act handler outside the pipeline", () => {
  const { ui_wait: _left, ...withoutOne } = TOOL_HANDLERS;
  // @ts-expect-error -- ui_wait is declared, so the record needs its handler
  const missing: ToolHandlers = withoutOne;
  const undeclared: ToolHandlers = {
    ...TOOL_HANDLERS,
    // @ts-expect-error -- no tool ui_dummy is declared
    ui_dummy: TOOL_HANDLERS.ui_wait,
  };
  // @ts-expect-error -- ui_get_tree's handler is not ui_wait's
  const renamed: ToolHandlers["ui_wait"] = TOOL_HANDLERS.ui_get_tree;
  // @ts-expect-error -- device_back acts: its handler comes from defineActTool (the pipeline), not a plain run()
  const plainAct: ToolHandlers["device_back"] = { name: "device_back", run: TOOL_HANDLERS.device_back.run };
  assert.ok([missing, undeclared, renamed, plainAct].every((value) => value !== undefined));
});

test("every tool declared with device access act is handled through the act pipeline, and only those", () => {
  const inPipeline = TOOL_NAMES.filter((name) => "pipeline" in TOOL_HANDLERS[name] && TOOL_HANDLERS[name].pipeline === "act");
  assert.deepEqual(inPipeline, TOOL_NAMES.filter((name) => TOOLS[name].device === "act"));
  assert.equal(inPipeline.length, 9);
});
