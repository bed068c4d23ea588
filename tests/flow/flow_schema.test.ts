/**
 * The flow file contract: a valid version-1 flow parses; every kind of bad field is refused with the
 * dotted path of the offending field, steps checked by the same schemas MCP uses for tool inputs.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { FLOW_EXIT, FLOW_STEP_TOOLS, parseFlow, parseFlowText } from "../../contracts/flow.ts";
import { TOOL_INPUTS } from "../../contracts/tools.ts";

const valid = {
  version: 1,
  name: "settings tour",
  package_name: "com.android.settings",
  steps: [
    { tool: "settings_open", args: {}, expect: { visible: { text: "Network & internet" }, foreground_package: "com.android.settings" } },
    { tool: "ui_tap", args: { selector: { text: "Display" } }, expect: { visible: { text: "Dark theme" }, timeout_ms: 3000 } },
    { tool: "ui_type_text", args: { selector: { resource_id: "com.example.shop:id/email" }, text: "zoë@例え.jp" } },
    { tool: "device_back" },
    { tool: "ui_get_tree", args: { include_raw: false } },
  ],
};

function problemsOf(value: unknown): { path: string; message: string }[] {
  const parsed = parseFlow(value);
  assert.equal(parsed.ok, false, "expected the flow to be refused");
  return parsed.ok ? [] : parsed.problems;
}

function withStep(step: unknown, index = 1): unknown {
  const steps: unknown[] = structuredClone(valid.steps);
  steps[index] = step;
  return { ...valid, steps };
}

test("a valid flow parses, with its steps as written (args may be left out)", () => {
  const parsed = parseFlow(valid);
  assert.ok(parsed.ok);
  assert.equal(parsed.flow.steps.length, 5);
  assert.equal(parsed.flow.steps[3]!.args, undefined);
  assert.deepEqual(parsed.flow.steps[2]!.args, valid.steps[2]!.args);
});

test("step args are checked with the tool's MCP schema; the problem names the field inside args", () => {
  assert.deepEqual(problemsOf(withStep({ tool: "ui_tap", args: { selector: { text: "A", content_desc: "B" } } })).map((p) => p.path), [
    "steps.1.args.selector",
  ]);
  assert.deepEqual(problemsOf(withStep({ tool: "ui_scroll", args: { direction: "diagonal" } })).map((p) => p.path), [
    "steps.1.args.direction",
  ]);
  assert.deepEqual(problemsOf(withStep({ tool: "ui_tap", args: { selector: { text: "A" }, x: 10 } })).map((p) => p.path), ["steps.1.args"]);
  assert.match(problemsOf(withStep({ tool: "ui_tap", args: { selector: { text: "A" }, x: 10 } }))[0]!.message, /unknown key 'x'/);
  assert.deepEqual(problemsOf(withStep({ tool: "ui_type_text", args: { selector: { text: "A" }, text: "" } })).map((p) => p.path), [
    "steps.1.args.text",
  ]);
  assert.deepEqual(problemsOf(withStep({ tool: "app_launch", args: { package: "../etc" } })).map((p) => p.path), ["steps.1.args.package"]);
  assert.deepEqual(problemsOf(withStep({ tool: "ui_tap", args: {} })).map((p) => p.path), ["steps.1.args.selector"]);
});

test("the runner owns the session: session tools and session_id are refused in steps", () => {
  const open = problemsOf(withStep({ tool: "ui_session_open", args: {} }));
  assert.deepEqual(open.map((p) => p.path), ["steps.1.tool"]);
  assert.match(open[0]!.message, /one session that the runner opens/);
  const id = problemsOf(withStep({ tool: "device_back", args: { session_id: "abc" } }));
  assert.deepEqual(id.map((p) => p.path), ["steps.1.args.session_id"]);
  assert.deepEqual([...FLOW_STEP_TOOLS].sort(), Object.keys(TOOL_INPUTS).filter((t) => !t.startsWith("ui_session")).sort());
});

test("unknown tools, bad expectations and file-level fields are refused with their paths", () => {
  const unknown = problemsOf(withStep({ tool: "shell", args: { cmd: "rm -rf /" } }));
  assert.deepEqual(unknown.map((p) => p.path), ["steps.1.tool"]);
  assert.match(unknown[0]!.message, /unknown tool; a step calls one of device_status/);
  const badSelector = problemsOf(withStep({ tool: "device_back", expect: { visible: { x: 1 } } }));
  assert.deepEqual([...new Set(badSelector.map((p) => p.path))], ["steps.1.expect.visible"]);
  assert.ok(badSelector.some((p) => /unknown key 'x'/.test(p.message)) && badSelector.some((p) => /exactly one of/.test(p.message)));
  assert.deepEqual(problemsOf(withStep({ tool: "device_back", expect: { timeout_ms: -1, visible: { text: "A" } } })).map((p) => p.path), [
    "steps.1.expect.timeout_ms",
  ]);
  const huge = problemsOf(withStep({ tool: "device_back", expect: { timeout_ms: 1e308, visible: { text: "A" } } }));
  assert.match(huge[0]!.message, /<=120000/, "the limit a flow can use, not the largest safe integer");
  assert.deepEqual(problemsOf(withStep({ tool: "device_back", expect: { timeout_ms: 100 } })).map((p) => p.path), ["steps.1.expect"]);
  assert.deepEqual(problemsOf(withStep({ tool: "device_back", expect: { foreground_package: "settings" } })).map((p) => p.path), [
    "steps.1.expect.foreground_package",
  ]);
  assert.deepEqual(problemsOf(withStep({ tool: "device_back", wait: 3 })).map((p) => p.path), ["steps.1"]);
  assert.deepEqual(problemsOf({ ...valid, version: 2 }).map((p) => p.path), ["version"]);
  assert.match(problemsOf({ ...valid, version: 2 })[0]!.message, /version 1/);
  assert.deepEqual(problemsOf({ ...valid, package_name: "" }).map((p) => p.path), ["package_name"]);
  assert.deepEqual(problemsOf({ ...valid, steps: [] }).map((p) => p.path), ["steps"]);
  assert.deepEqual(problemsOf({ ...valid, name: "  " }).map((p) => p.path), ["name"]);
  assert.deepEqual(problemsOf({ ...valid, extra: true }).map((p) => p.path), [""]);
  const { name: _name, ...nameless } = valid;
  assert.deepEqual(problemsOf(nameless).map((p) => p.path), ["name"]);
});

test("every problem of a flow is reported at once", () => {
  const problems = problemsOf({ ...valid, version: 3, steps: [{ tool: "ui_tap", args: {} }, { tool: "nope" }] });
  assert.deepEqual(problems.map((p) => p.path).sort(), ["steps.0.args.selector", "steps.1.tool", "version"]);
});

test("text that is not JSON is one problem at the file itself", () => {
  const parsed = parseFlowText("{ not json");
  assert.equal(parsed.ok, false);
  assert.ok(!parsed.ok && parsed.problems[0]!.path === "" && /not valid JSON/.test(parsed.problems[0]!.message));
  assert.ok(parseFlowText(JSON.stringify(valid)).ok);
});

test("the exit codes are the documented, stable ones", () => {
  assert.deepEqual(FLOW_EXIT, { passed: 0, error: 1, timed_out: 2, unexpected_screen: 3, device_fault: 4, no_progress: 5 });
});

test("steps accept every new hand and argument (still version 1), and refuse bad ones at their path", () => {
  const steps = [
    { tool: "ui_tap", args: { selector: { text: "Canvas sneakers" }, gesture: "long_press" } },
    { tool: "ui_tap", args: { selector: { content_desc: "Photo" }, gesture: "double_tap" } },
    { tool: "ui_scroll", args: { direction: "right", container: { resource_id: "chips" } } },
    { tool: "ui_scroll", args: { direction: "down", until: { text: "Daypack" } } },
    { tool: "ui_type_text", args: { selector: { resource_id: "search_field" }, text: "boots", submit: "search", append: true } },
    { tool: "device_press", args: { key: "home" } },
    { tool: "app_open_url", args: { url: "shop://product/42", package: "com.example.shop" } },
    { tool: "app_launch", args: { package: "com.example.shop", restart: true } },
    { tool: "app_clear", args: { package: "com.example.shop" } },
    { tool: "ui_wait", args: { visible: { text: "Order confirmed" }, timeout_ms: 8000 } },
    { tool: "ui_wait", args: { gone: { text: "Loading" } }, expect: { visible: { text: "Airplane mode" }, checked: true } },
  ];
  const parsed = parseFlow({ ...valid, steps });
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.problems));
  assert.equal(parsed.flow.steps.length, steps.length);
  assert.deepEqual(problemsOf(withStep({ tool: "ui_tap", args: { selector: { text: "A" }, gesture: "swipe" } })).map((p) => p.path), [
    "steps.1.args.gesture",
  ]);
  assert.deepEqual(problemsOf(withStep({ tool: "device_press", args: { key: "power" } })).map((p) => p.path), ["steps.1.args.key"]);
  assert.deepEqual([...new Set(problemsOf(withStep({ tool: "app_open_url", args: { url: "javascript:alert(1)" } })).map((p) => p.path))], [
    "steps.1.args.url",
  ]);
  assert.deepEqual(problemsOf(withStep({ tool: "ui_wait", args: { visible: { text: "A" }, gone: { text: "B" } } })).map((p) => p.path), [
    "steps.1.args",
  ]);
  assert.deepEqual([...new Set(problemsOf(withStep({ tool: "ui_wait", args: { visible: { x: 1, y: 2 } } })).map((p) => p.path))], [
    "steps.1.args.visible",
  ]);
});
