import assert from "node:assert/strict";
import { test } from "node:test";
import { applyGreps, parseCommandLine } from "../../src/sim/shell/command_line.ts";

test("exec-out quoting, joiners and redirections are undone the way the device shell does", () => {
  assert.deepEqual(parseCommandLine("cmd package 'install' '-g' -S 3076274")[0]!.argv, [
    "cmd",
    "package",
    "install",
    "-g",
    "-S",
    "3076274",
  ]);
  assert.deepEqual(parseCommandLine(`echo 'it'\\''s' "a b" c\\ d`)[0]!.argv, ["echo", "it's", "a b", "c d"]);
  const joined = parseCommandLine("settings put a b 1;settings put a c 1 && false || echo x 2>/dev/null");
  assert.deepEqual(joined.map((c) => [c.joiner, c.argv.join(" ")]), [[";", "settings put a b 1"], [";", "settings put a c 1"], [
    "&&",
    "false",
  ], ["||", "echo x"]]);
});

test("| grep filters: plain, -i, -E, -v and -c", () => {
  const text = "mCurrentFocus=Window{a}\nmFocusedApp=ActivityRecord{b}\nother\n";
  const grep = (line: string) => {
    const result = applyGreps(text, parseCommandLine(`dumpsys window ${line}`)[0]!.greps);
    return result.ok ? result.text : result.error;
  };
  assert.equal(grep("| grep mCurrentFocus"), "mCurrentFocus=Window{a}\n");
  assert.equal(grep("| grep -i MFOCUSEDAPP"), "mFocusedApp=ActivityRecord{b}\n");
  assert.equal(grep("| grep -E 'mCurrentFocus|mFocusedApp'"), "mCurrentFocus=Window{a}\nmFocusedApp=ActivityRecord{b}\n");
  assert.equal(grep("| grep -v Focus"), "other\n");
  assert.equal(grep("| grep -c m"), "2\n");
});

test("a lone redirection operator takes the next word with it", () => {
  assert.deepEqual(parseCommandLine("echo hi 2> /dev/null")[0]!.argv, ["echo", "hi"]);
  assert.deepEqual(parseCommandLine("echo a > /sdcard/x >> /sdcard/y 2>&1 &> /dev/null")[0]!.argv, ["echo", "a"]);
});

test("a -E pattern that does not compile is grep's error, not an exception", () => {
  const result = applyGreps("a\n", parseCommandLine("x | grep -E '['")[0]!.greps);
  assert.equal(result.ok, false);
  assert.match(result.ok ? "" : result.error, /^grep: bad regex '\[': /);
});
