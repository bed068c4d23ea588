/**
 * Every word the harness puts on an `adb shell` line reaches the command as it was (issue 25 item 9): read back
 * by the simulated device's shell lexer, which globs unquoted words as sh does (here everything matches).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ADB_COMMANDS, shellWord } from "../../src/adapters/adb/adb_commands.ts";
import { parseCommandLine } from "../../src/sim/mod.ts";

const everything = () => ["GLOBBED"];

test("shellWord: a word sh would read specially is single-quoted and read back whole; a literal one is left as it is", () => {
  const words = [
    "https://example.com/?",
    "https://shop.example/search?q=[a]&page=?#x",
    "http://[::1]:8080/",
    "a b",
    "it's",
    "$(reboot)",
    "`reboot`",
    "a;b&&c||d|e>f<g",
    "*",
    "line\nbreak",
    "tab\there",
    "~root",
    "#comment",
    "back\\slash",
    '"double"',
    "",
    "-d",
  ];
  for (const word of words) {
    const line = `echo ${shellWord(word)}`;
    assert.deepEqual(parseCommandLine(line, everything)[0]!.argv, ["echo", word], `${JSON.stringify(word)} as ${line}`);
  }
  assert.equal(shellWord("com.example.shop"), "com.example.shop");
  assert.equal(shellWord("android.intent.action.VIEW"), "android.intent.action.VIEW");
  assert.equal(shellWord("it's"), `'it'\\''s'`);
  assert.throws(() => shellWord("a\0b"), { code: "INVALID_ARGUMENT" });
});

test("the unquoted glob the driver sent is expanded by the simulated shell, as sh does", () => {
  assert.deepEqual(parseCommandLine("am start -d https://example.com/?", everything)[0]!.argv, ["am", "start", "-d", "GLOBBED"]);
  assert.deepEqual(parseCommandLine("am start -d https://example.com/?", () => [])[0]!.argv.at(-1), "https://example.com/?");
});

test("startView puts the URL on the shell line as one quoted word, the package checked", () => {
  const url = "https://shop.example/search?q=[a]&page=?";
  const command = ADB_COMMANDS.startView(url, "com.android.chrome");
  assert.deepEqual(command.args, [
    "shell",
    "am",
    "start",
    "-W",
    "-a",
    "android.intent.action.VIEW",
    "-d",
    `'${url}'`,
    "com.android.chrome",
  ]);
  assert.deepEqual(parseCommandLine(command.args.slice(1).join(" "), everything)[0]!.argv.at(-2), url);
  assert.throws(() => ADB_COMMANDS.startView(url, "com.x; reboot"), { code: "INVALID_PACKAGE" });
});
