import assert from "node:assert/strict";
import { test } from "node:test";
import { HarnessError } from "../../src/errors.ts";
import { validateSelector } from "../../src/screen/validate_selector.ts";

function refused(input: unknown, problem: RegExp): void {
  assert.throws(() => validateSelector(input), (error: unknown) => {
    assert.ok(error instanceof HarnessError);
    assert.equal(error.code, "INVALID_SELECTOR");
    assert.match(error.message, problem);
    assert.match(error.message, /exactly one of resource_id, text, content_desc, text_contains, input_hint, role/, "says what is accepted");
    return true;
  });
}

test("each of the five keys is accepted alone, and with a within", () => {
  for (const key of ["resource_id", "text", "content_desc", "text_contains", "input_hint"]) {
    assert.deepEqual(validateSelector({ [key]: "Save" }), { [key]: "Save" });
  }
  assert.deepEqual(validateSelector({ text: "Save", within: { content_desc: "Personal profile" } }), {
    text: "Save",
    within: { content_desc: "Personal profile" },
  });
});

test("role is a key like the others (button, input, toggle), also in a within; index picks one of several", () => {
  for (const role of ["button", "input", "toggle"]) assert.deepEqual(validateSelector({ role }), { role });
  assert.deepEqual(validateSelector({ role: "button", within: { resource_id: "reminder_card" }, index: 2 }), {
    role: "button",
    within: { resource_id: "reminder_card" },
    index: 2,
  });
  assert.deepEqual(validateSelector({ text: "Save", within: { role: "toggle" } }), { text: "Save", within: { role: "toggle" } });
  assert.deepEqual(validateSelector({ text: "Mark Done", index: 0 }), { text: "Mark Done", index: 0 });
});

test("a role outside the list, or an index that is not a whole number from 0, or alone, is refused", () => {
  refused({ role: "link" }, /role/);
  refused({ role: "button", text: "Save" }, /exactly one/);
  refused({ text: "Save", index: -1 }, /index/);
  refused({ text: "Save", index: 1.5 }, /index/);
  refused({ text: "Save", index: "2" }, /index/);
  refused({ index: 0 }, /exactly one/);
  refused({ text: "Save", within: { text: "Card", index: 1 } }, /unknown key "index"/);
});

test("newlines are allowed (Flutter merged content-desc)", () => {
  assert.deepEqual(validateSelector({ content_desc: "Historial\nTab 2 of 3" }), { content_desc: "Historial\nTab 2 of 3" });
});

test("no key, two keys, a within alone or a within with two keys are refused", () => {
  refused({}, /exactly one/);
  refused({ text: "a", content_desc: "b" }, /exactly one/);
  refused({ within: { text: "a" } }, /exactly one/);
  refused({ text: "a", within: { text: "b", content_desc: "c" } }, /within/);
});

test("unknown keys are refused; coordinates are named as never accepted", () => {
  refused({ text: "a", xpath: "//node" }, /unknown key "xpath"/);
  refused({ x: 10, y: 20 }, /coordinates are never accepted/);
});

test("empty, blank, too long, non-string values and control characters are refused", () => {
  refused({ text: "" }, /empty or blank/);
  refused({ text: "   " }, /empty or blank/);
  refused({ text: "a".repeat(1001) }, /longer than the maximum/);
  refused({ text: 42 }, /text/);
  refused({ text: "a\u0000b" }, /control characters/);
  refused({ text: "a\tb" }, /control characters/);
});

test("a non-object is refused with what is accepted", () => {
  refused("Save", /expected an object/);
  refused(null, /expected an object/);
  refused(["text", "Save"], /expected an object/);
});

test("details list every problem and the accepted keys", () => {
  try {
    validateSelector({ text: "", foo: 1 });
    assert.fail("should throw");
  } catch (error) {
    const details = (error as HarnessError).details!;
    assert.ok((details["problems"] as string[]).length >= 2);
    assert.deepEqual(details["accepted_keys"], ["resource_id", "text", "content_desc", "text_contains", "input_hint", "role"]);
  }
});
