/**
 * Argument refusals of the declared tools (also the eight act tools, so their contract is pinned before
 * they exist): each refused argument gives the code the contract declares for it, and a message that
 * names the argument; coordinates and shell-shaped values are not representable.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { isHarnessError } from "../../src/errors.ts";
import { parseToolInput } from "../../src/mcp/tool_input.ts";
import type { ToolName } from "../../contracts/tools.ts";

function refusal(name: ToolName, args: unknown): { code: string; message: string } {
  try {
    parseToolInput(name, args);
  } catch (error) {
    assert.ok(isHarnessError(error));
    return { code: error.code, message: error.message };
  }
  assert.fail(`${name} accepted ${JSON.stringify(args)}`);
}

test("accepted inputs come back parsed", () => {
  assert.deepEqual(parseToolInput("ui_get_tree", undefined), {});
  assert.deepEqual(parseToolInput("app_list", { filter: "com.ex", include_system: true }), { filter: "com.ex", include_system: true });
  assert.deepEqual(parseToolInput("ui_tap", { selector: { text: "Historial\nTab 2 of 3", within: { content_desc: "Tabs" } } }), {
    selector: { text: "Historial\nTab 2 of 3", within: { content_desc: "Tabs" } },
  });
  assert.deepEqual(parseToolInput("ui_type_text", { selector: { input_hint: "Email" }, text: "line one\nline two" }), {
    selector: { input_hint: "Email" },
    text: "line one\nline two",
  });
});

test("deep links the URL rule accepts (any app scheme, query, fragment, %XX) and a session id published as a plain string still checked", () => {
  for (
    const url of [
      "https://shop.example/checkout?from=mcp&x=%20#top",
      "shop://product/42",
      "tel:+15551234",
      "market://details?id=com.example.shop",
      "myapp+beta.v2://a/b/[1]@x!~",
      `https://x.example/${"a".repeat(2048 - 18)}`,
    ]
  ) {
    assert.deepEqual(parseToolInput("app_open_url", { url }), { url }, url);
  }
  assert.equal(refusal("app_open_url", { url: `https://x.example/${"a".repeat(2049 - 18)}` }).code, "INVALID_ARGUMENT", "2,049 characters");
  assert.equal(refusal("device_back", { session_id: "s 1" }).code, "INVALID_ARGUMENT");
  assert.equal(refusal("ui_session_close", { session_id: "x".repeat(65) }).code, "INVALID_ARGUMENT");
});

test("selector problems are INVALID_SELECTOR, wherever they are inside the selector; coordinates are not representable (R13)", () => {
  for (
    const selector of [
      {},
      { text: "a", content_desc: "b" },
      { x: 10, y: 20 },
      { text: "" },
      { text: "a\u0007" },
      { text: "OK", within: {} },
      { text: "OK", within: { text: "a", resource_id: "b" } },
      "Calendar",
      [10, 20],
    ]
  ) {
    const { code, message } = refusal("ui_tap", { selector });
    assert.equal(code, "INVALID_SELECTOR", JSON.stringify(selector));
    assert.match(message, /selector/);
  }
});

test("text, package and direction refusals carry their own codes", () => {
  assert.equal(refusal("ui_type_text", { selector: { text: "Name" }, text: "" }).code, "INVALID_TEXT");
  assert.equal(refusal("ui_type_text", { selector: { text: "Name" }, text: "a\u001b[2J" }).code, "INVALID_TEXT");
  assert.equal(refusal("ui_type_text", { selector: { text: "Name" }, text: "x".repeat(2001) }).code, "INVALID_TEXT");
  for (const pkg of ["com.example;reboot", "../etc", "--help", "nodots", "com..x", "1com.x", ""]) {
    assert.equal(refusal("app_launch", { package: pkg }).code, "INVALID_PACKAGE", pkg);
  }
  for (const direction of ["diagonal", "UP", 1, ""]) {
    assert.equal(refusal("ui_scroll", { direction }).code, "INVALID_SCROLL_DIRECTION", String(direction));
  }
});

test("missing, unknown and mistyped arguments are INVALID_ARGUMENT naming what is accepted", () => {
  const missing = refusal("ui_session_close", {});
  assert.equal(missing.code, "INVALID_ARGUMENT");
  assert.match(missing.message, /'session_id'/);
  const unknown = refusal("device_status", { verbose: true });
  assert.deepEqual(unknown, { code: "INVALID_ARGUMENT", message: "Unknown argument 'verbose' for device_status; it accepts device." });
  assert.match(refusal("app_list", { includeSystem: true }).message, /it accepts filter, include_system/);
  assert.equal(refusal("ui_session_close", { session_id: "../../x" }).code, "INVALID_ARGUMENT");
  assert.equal(refusal("ui_tap", { selector: { text: "OK" }, x: 5 }).code, "INVALID_ARGUMENT");
});

test("a selector with unknown keys (coordinates) says which keys a selector takes, for every argument that is a selector", () => {
  const points = refusal("ui_tap", { selector: { x: 1, y: 2 } });
  assert.deepEqual(points, {
    code: "INVALID_SELECTOR",
    message: "Unknown arguments 'x', 'y' for 'selector'; a selector takes one of resource_id, text, content_desc, text_contains, " +
      "input_hint, role, with an optional within and index (coordinates are refused), as ui_get_tree offers it.",
  });
  assert.match(refusal("ui_scroll", { direction: "down", until: { x: 1 } }).message, /for 'until'; a selector takes one of resource_id/);
  assert.match(refusal("ui_wait", { visible: { bounds: [0, 0, 1, 1] } }).message, /for 'visible'; a selector takes one of/);
  assert.match(refusal("ui_tap", { selector: { text: "OK", within: { x: 1 } } }).message, /for 'selector\.within'; a selector takes/);
});

test("a selector sent as a string (or any non-object) is INVALID_SELECTOR with an example of the object to send", () => {
  const tap = refusal("ui_tap", { selector: "Network & internet" });
  assert.equal(tap.code, "INVALID_SELECTOR");
  assert.match(tap.message, /'selector' is an object naming one key, not a string: send \{"text":"Network & internet"\}/);
  const wait = refusal("ui_wait", { visible: "Saved" });
  assert.match(wait.message, /'visible' is an object naming one key, not a string: send \{"text":"Saved"\}/);
  const within = refusal("ui_tap", { selector: { text: "OK", within: "Dialog" } });
  assert.match(within.message, /'selector\.within' is an object naming one key, not a string: send \{"text":"Dialog"\}/);
  assert.match(refusal("ui_tap", { selector: 7 }).message, /'selector' is an object naming one key, not a number: send \{"text":"Save"\}/);
});
