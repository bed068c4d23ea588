/**
 * The campaign's refusal rule: an argument error found by validation sent nothing to the device; one found
 * after looking (a selector that names a non-input, a password append) may have read the device, never changed it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { refusalOverreach } from "../../scripts/campaign/invariants.ts";
import type { LogEntry } from "../../src/sim/mod.ts";

const uia2 = (command: string): LogEntry => ({ source: "uia2", command });

test("a refusal after a read (INVALID_SELECTOR: not an input) may start a session and find, never type or tap", () => {
  const reads = [uia2("new session"), uia2("update settings"), uia2("get page source"), uia2("find elements xpath /hierarchy/*[1]")];
  assert.equal(refusalOverreach("INVALID_SELECTOR", reads), null);
  assert.equal(refusalOverreach("INVALID_ARGUMENT", reads), null);
  assert.equal(refusalOverreach("INVALID_SELECTOR", [...reads, uia2('send keys "hello"')]), 'send keys "hello"');
  assert.equal(refusalOverreach("INVALID_ARGUMENT", [...reads, uia2("click")]), "click");
});

test("a refusal by validation alone (INVALID_TEXT, INVALID_PACKAGE, INVALID_SCROLL_DIRECTION) sent no command at all", () => {
  for (const code of ["INVALID_TEXT", "INVALID_PACKAGE", "INVALID_SCROLL_DIRECTION"]) {
    assert.equal(refusalOverreach(code, [uia2("delete session")]), null, code);
    assert.equal(refusalOverreach(code, [uia2("new session")]), "new session", code);
  }
});

test("other failures are not judged by this rule", () => {
  assert.equal(refusalOverreach("UI_ELEMENT_NOT_FOUND", [uia2("click")]), null);
});
