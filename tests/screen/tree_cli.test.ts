import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runCliCaptured } from "../support/cli.ts";
import { OWN_FIXTURES, REPO_ROOT } from "../support/paths.ts";

const SETTINGS = join(OWN_FIXTURES, "dumps", "settings_list.xml");
const CHAT = join(OWN_FIXTURES, "dumps", "chat_keyboard_appium.xml");

test("tree --file prints the compact text form by default, one line per action with its selector", async () => {
  const run = await runCliCaptured(["tree", "--file", SETTINGS, "--density", "420"]);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trimEnd().split("\n");
  assert.equal(lines[0], "screen com.android.settings · scrollable · keyboard closed");
  assert.ok(lines.includes(`  button {"text":"Calendar"} @0,420 1080x200`), run.stdout);
  assert.ok(lines.includes(`  input  {"resource_id":"search"} "Search apps" @40,270 1000x130`), run.stdout);
  assert.ok(lines.includes(`  button {"text":"Clock","index":0} @0,620 1080x200`), run.stdout);
  assert.ok(lines.includes(`  button {"text":"Clock","index":1} @0,820 1080x200`), run.stdout);
  assert.ok(lines.includes(`  toggle {"text":"Show notifications"} [checked] @0,1020 1080x200`), run.stdout);
  assert.ok(lines.includes(`  button {"resource_id":"uninstall"} "Uninstall" [disabled] @40,1240 480x140`), run.stdout);
  assert.ok(lines.includes(`  touch_target_too_small {"content_desc":"Navigate up"} 40x40px < 126px`), run.stdout);
});

test("tree --json prints the summary object; without --density no size is audited", async () => {
  const run = await runCliCaptured(["tree", "--file", SETTINGS, "--json"]);
  assert.equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout);
  assert.equal(summary.foreground_package, "com.android.settings");
  assert.deepEqual(summary.texts, ["Apps", "12 MB"]);
  assert.equal(summary.actions.length, 7);
  assert.equal("issues" in summary, false, "no issues: the field is left out");
  assert.equal("keyboard" in summary, false, "keyboard closed: left out");
  assert.equal(summary.can_scroll, true);
});

test("an Appium page source with keyboard nodes: keyboard found from the dump, tab bar under it flagged", async () => {
  const run = await runCliCaptured(["tree", "--file", CHAT, "--json"]);
  assert.equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout);
  assert.deepEqual(summary.keyboard, { open: true, top: 1450 });
  assert.deepEqual(summary.actions.map((a: { covered_by_keyboard?: boolean }) => a.covered_by_keyboard ?? false), [
    false,
    false,
    true,
    true,
  ]);
  assert.deepEqual(summary.actions[2].selector, { content_desc: "Chats\nTab 1 of 2" });
});

test("--keyboard-top and --width/--height override what the dump says", async () => {
  const run = await runCliCaptured(["tree", "--file", SETTINGS, "--json", "--keyboard-top", "800", "--width", "500", "--height", "900"]);
  assert.equal(run.code, 0, run.stderr);
  const summary = JSON.parse(run.stdout);
  assert.deepEqual(summary.keyboard, { open: true, top: 800 });
  assert.ok(summary.issues.some((i: { issue: string }) => i.issue === "off_screen"), "rows below y=900 are off a 500x900 screen");
});

test("tree --raw prints the XML document as read, without the dump's trailer (as adb answers it through MCP)", async () => {
  const run = await runCliCaptured(["tree", "--file", SETTINGS, "--raw"]);
  assert.equal(run.code, 0);
  const file = readFileSync(SETTINGS, "utf8");
  assert.match(file, /<\/hierarchy>\nUI hierchary dumped to: \/dev\/tty\n$/);
  assert.equal(run.stdout, file.replace(/UI hierchary dumped to: \/dev\/tty\n$/, ""));
});

test("tree --raw on a capture whose password field's text follows a decoy ' text=' (issue 25): the password is not printed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tree-raw-"));
  try {
    const file = join(dir, "login.xml");
    const secret = "Hunter2-S3cr3t!pw";
    writeFileSync(
      file,
      `<?xml version="1.0"?><hierarchy><node class="android.widget.EditText" content-desc="note text='x'" text="${secret}" ` +
        `password="&#x74;rue" bounds="[0,0][1080,200]" /></hierarchy>`,
    );
    const run = await runCliCaptured(["tree", "--file", file, "--raw"]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!run.stdout.includes(secret), run.stdout);
    assert.match(run.stdout, / text="" password="&#x74;rue"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--file and --device together, or --file without a path, are usage errors (exit 2)", async () => {
  const both = await runCliCaptured(["tree", "--file", SETTINGS, "--device", "sim"]);
  assert.equal(both.code, 2, both.stderr);
  assert.match(both.stderr, /Choose one of --file and --device/);
  const empty = await runCliCaptured(["tree", "--file", ""]);
  assert.equal(empty.code, 2, empty.stderr);
});

test("bad flags are usage errors (exit 2)", async () => {
  for (const args of [["--density", "abc"], ["--keyboard-top", "-5"], ["--json", "--raw"]]) {
    const run = await runCliCaptured(["tree", "--file", SETTINGS, ...args]);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
  }
});

test("negative, huge, fractional and hexadecimal numbers are refused in one line naming the range and the value", async () => {
  const cases: [string[], RegExp][] = [
    [["--density", "-5"], /^tree: --density must be a whole number of dpi between 1 and 4000, got "-5"\.\n$/],
    [
      ["--density", "99999999999999999999"],
      /^tree: --density must be a whole number of dpi between 1 and 4000, got "99999999999999999999"\.\n$/,
    ],
    [["--density", "420.5"], /got "420\.5"/],
    [["--width", "0x400"], /^tree: --width must be a whole number of px between 1 and 20000, got "0x400"\.\n$/],
    [["--height", "0"], /--height must be a whole number of px between 1 and 20000, got "0"/],
    [["--keyboard-top", "99999999"], /^tree: --keyboard-top must be a whole number of px between 1 and 20000, got "99999999"\.\n$/],
  ];
  for (const [args, message] of cases) {
    const run = await runCliCaptured(["tree", "--file", SETTINGS, ...args]);
    assert.equal(run.code, 2, args.join(" "));
    assert.match(run.stderr, message, args.join(" "));
    assert.equal(run.stdout, "");
  }
});

test("--keyboard-top must lie on the screen: the dump's own height, or --height", async () => {
  const below = await runCliCaptured(["tree", "--file", SETTINGS, "--keyboard-top", "2400"]);
  assert.equal(below.code, 2);
  assert.equal(below.stderr, "tree: --keyboard-top 2400 is not on the 2400 px high screen; give a y between 1 and 2399.\n");
  const flagged = await runCliCaptured(["tree", "--file", SETTINGS, "--keyboard-top", "1000", "--height", "900"]);
  assert.equal(flagged.code, 2);
  assert.match(flagged.stderr, /--keyboard-top 1000 is not on the 900 px high screen/);
  assert.equal((await runCliCaptured(["tree", "--file", SETTINGS, "--keyboard-top", "2399"])).code, 0);
});

test("a binary file or a text that is not XML is 'not a UI dump', without quoting binary bytes", async (t) => {
  // The start of the node executable (the whole of it is over tree --file's 50 MiB limit).
  const dir = mkdtempSync(join(tmpdir(), "amh-tree-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const program = join(dir, "program");
  writeFileSync(program, readFileSync(process.execPath).subarray(0, 256 * 1024));
  const binary = await runCliCaptured(["tree", "--file", program]);
  assert.equal(binary.code, 1);
  assert.equal(
    binary.stderr,
    `tree: ${program} is not a UI dump: it is a binary file. Give the XML that \`adb exec-out uiautomator dump /dev/tty\` or Appium's page source writes.\n`,
  );
  const text = await runCliCaptured(["tree", "--file", join(REPO_ROOT, "package.json")]);
  assert.equal(text.code, 1);
  assert.match(text.stderr, /package\.json is not a UI dump: it is not XML \(it starts with "\{\\n {2}\\"name\\": /);
  assert.doesNotMatch(text.stderr, /Take a new dump/);
});

test("a missing file or a broken dump exits 1 with the reason, no stack trace", async () => {
  const missing = await runCliCaptured(["tree", "--file", "/nonexistent/dump.xml"]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot read \/nonexistent\/dump\.xml/);
  const dir = mkdtempSync(join(tmpdir(), "tree-cli-"));
  try {
    const broken = join(dir, "broken.xml");
    writeFileSync(broken, `<?xml version='1.0'?><hierarchy rotation="0"><node text="a"`);
    const run = await runCliCaptured(["tree", "--file", broken]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /UI_TREE_UNAVAILABLE: Cannot read the screen hierarchy: the dump is truncated/);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
