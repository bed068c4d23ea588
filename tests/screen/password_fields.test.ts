/**
 * A field the device marks `password="true"` never shows its text (issue 18): not in the summary's texts,
 * labels or selectors, not in the raw XML answered to an agent; it is listed as an input with
 * `password: true` and its length. Other fields keep their text.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { maskPasswordText, parseDump, summarize } from "../../src/screen/mod.ts";
import { button, dump, input, SCREEN } from "./dump_builder.ts";

const SECRET = "Hunter2-S3cr3t!pw";

const screen = dump([
  input([40, 200, 1040, 320], { id: "com.example.shop:id/email", text: "zoe@example.com" }),
  input([40, 360, 1040, 480], { id: "com.example.shop:id/password", text: SECRET, password: true }),
  button("Sign in", [40, 520, 1040, 640]),
]);

test("a password field's text is in no text, label or selector of the summary; it says password and the length", () => {
  const summary = summarize(parseDump(screen), SCREEN);
  assert.ok(!JSON.stringify(summary).includes(SECRET), JSON.stringify(summary));
  const field = summary.actions.find((a) => a.password === true);
  assert.deepEqual(field?.selector, { resource_id: "password" });
  assert.equal(field?.role, "input");
  assert.equal(field?.text_length, SECRET.length);
  assert.ok(JSON.stringify(summary).includes("zoe@example.com"), "a plain input keeps its text");
});

test("an empty password field showing its hint keeps the hint and has no length", () => {
  const hinted = dump([input([40, 360, 1040, 480], { id: "pw", text: "Password", hint: "Password", password: true })])
    .replace('password="true"', 'password="true" showing-hint="true"');
  const field = summarize(parseDump(hinted), SCREEN).actions[0]!;
  assert.equal(field.password, true);
  assert.equal(field.text_length, undefined);
});

test("an empty password field in a uiautomator dump (its hint as its text, no showing-hint attribute) has no length either", () => {
  // API 26+ dumps an empty field's hint as its text; a password field's own text would be bullets.
  const hinted = dump([input([40, 360, 1040, 480], { id: "pw", text: "Password", hint: "Password", password: true })]);
  assert.doesNotMatch(hinted, /showing-hint/);
  const field = summarize(parseDump(hinted), SCREEN).actions[0]!;
  assert.equal(field.password, true);
  assert.equal(field.text_length, undefined, "8 would be the hint's length, not a typed password");
  const typed = dump([input([40, 360, 1040, 480], { id: "pw", text: "\u2022".repeat(8), hint: "Password", password: true })]);
  assert.equal(summarize(parseDump(typed), SCREEN).actions[0]!.text_length, 8, "bullets are typed characters");
});

test("the raw XML has the password node's text blanked and every other text kept", () => {
  const masked = maskPasswordText(screen);
  assert.ok(!masked.includes(SECRET));
  assert.ok(masked.includes('text="zoe@example.com"') && masked.includes('text="Sign in"'));
  assert.equal(parseDump(masked).nodes.length, parseDump(screen).nodes.length, "still the same tree");
  const appium = `<hierarchy><android.widget.EditText password='true' text='${SECRET}' bounds="[0,0][10,10]"/></hierarchy>`;
  assert.ok(!maskPasswordText(appium).includes(SECRET), "single quotes and Appium tags too");
});
