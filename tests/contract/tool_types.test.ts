/**
 * What the compiler refuses about tools, checked when the tests build (each `@ts-expect-error` below fails tsc
 * once the error it expects no longer happens): a record of handlers without one declared tool or with an
 * undeclared one, a handler under another tool's name, and an act tool's handler not made by defineActTool
 * (which would skip the act pipeline); and a key the screen summary, an action, an act's answer, a session or
 * the device status has that its published data schema lacks (or the reverse). The served handlers are checked
 * for the pipeline rule at run time.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type * as z from "zod";
import type { ACT_DATA_SHAPE, ActionEntrySchema, ScreenSummarySchema, SessionInfoShape } from "../../contracts/tool_data.ts";
import { TOOL_NAMES, type ToolData, TOOLS } from "../../contracts/tools.ts";
import type { ActData } from "../../src/device/act.ts";
import type { ToolHandlers } from "../../src/ports/operation.ts";
import type { UiSessionInfo } from "../../src/ports/ui_sessions.ts";
import type { ActionEntry, ScreenSummary } from "../../src/screen/types.ts";
import type { AnsweredStatus } from "../../src/tools/device_status.ts";
import { TOOL_HANDLERS } from "../../src/tools/mod.ts";

/**
 * The types the code answers with and the data schemas tools/list publishes for them: each assignable to the
 * other, and with the same keys (TypeScript lets an object carry a key its target type lacks; the published
 * schema refuses it, additionalProperties false). `true` only when both hold.
 */
type Matches<A, B> = [A] extends [B] ? [B] extends [A] ? [Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>] extends [never] ? true
    : false
  : false
  : false;

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

test("the summary, action, act, session and device status types are the published data schemas, key for key", () => {
  const summary: Matches<ScreenSummary, z.output<typeof ScreenSummarySchema>> = true;
  const action: Matches<ActionEntry, z.output<typeof ActionEntrySchema>> = true;
  const act: Matches<ActData, z.output<z.ZodObject<typeof ACT_DATA_SHAPE>>> = true;
  const session: Matches<UiSessionInfo, z.output<z.ZodObject<typeof SessionInfoShape>>> = true;
  const status: Matches<AnsweredStatus, ToolData<"device_status">> = true;
  assert.ok([summary, action, act, session, status].every((value) => value));
});

test("every tool declared with device access act is handled through the act pipeline, and only those", () => {
  const inPipeline = TOOL_NAMES.filter((name) => "pipeline" in TOOL_HANDLERS[name] && TOOL_HANDLERS[name].pipeline === "act");
  assert.deepEqual(inPipeline, TOOL_NAMES.filter((name) => TOOLS[name].device === "act"));
  assert.ok(inPipeline.includes("ui_tap"), "the check sees the act tools");
});
