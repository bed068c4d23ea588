/**
 * A field the device marks `password="true"` never shows its text (issue 18): not in the summary's texts,
 * labels or selectors, not in the raw XML answered to an agent; it is listed as an input with
 * `password: true` and its length. Other fields keep their text.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { maskPasswordText, parseDump, summarize } from "../../src/screen/mod.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";
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

test("an empty password field whose text is its hint (API 26+ dumps, no showing-hint attribute) has no length", () => {
  // What the login screens of the simulated device and real phones dump: text="Password" hint="Password".
  const empty = dump([input([40, 360, 1040, 480], { id: "pw", text: "Password", hint: "Password", password: true })]);
  const field = summarize(parseDump(empty), SCREEN).actions[0]!;
  assert.equal(field.password, true);
  assert.equal(field.text_length, undefined, "nothing typed: not 8 characters");
  assert.equal(field.label, "Password");
  const typed = dump([input([40, 360, 1040, 480], { id: "pw", text: "••••", hint: "Password", password: true })]);
  assert.equal(summarize(parseDump(typed), SCREEN).actions[0]!.text_length, 4, "typed: the bullets are counted");
});

test("the raw XML has the password node's text blanked and every other text kept", () => {
  const masked = maskPasswordText(screen);
  assert.ok(!masked.includes(SECRET));
  assert.ok(masked.includes('text="zoe@example.com"') && masked.includes('text="Sign in"'));
  assert.equal(parseDump(masked).nodes.length, parseDump(screen).nodes.length, "still the same tree");
  const appium = `<hierarchy><android.widget.EditText password='true' text='${SECRET}' bounds="[0,0][10,10]"/></hierarchy>`;
  assert.ok(!maskPasswordText(appium).includes(SECRET), "single quotes and Appium tags too");
});

/**
 * The shapes of issue 25's attack (defect 6): the regular expression that blanked `text` missed each of them. Every one is
 * well-formed XML the parser reads as a password node (or a node under one), so the raw XML must not hold its text.
 */
const wrap = (nodes: string) => `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${nodes}</hierarchy>`;
const B = `bounds="[0,0][1080,200]"`;
const SHAPES: [string, string][] = [
  [
    "a decoy ` text=` inside an earlier attribute's value (attribute order)",
    `<node content-desc="note text='x'" text="${SECRET}" password="true" ${B} />`,
  ],
  ["the decoy in double quotes inside a single-quoted value", `<node hint='a text="b"' password='true' text='${SECRET}' ${B} />`],
  ['password="&#x74;rue" (a character reference)', `<node text="${SECRET}" password="&#x74;rue" ${B} />`],
  ['password="tru&#101;" (a decimal reference)', `<node password="tru&#101;" text="${SECRET}" ${B} />`],
  [
    "password on a parent, the text on its child (a PIN view draws each digit in a child)",
    `<node class="com.example.PinView" password="true" ${B}><node class="android.widget.TextView" text="${SECRET}" ${B} /></node>`,
  ],
  ["password on a grandparent", `<node password="true" ${B}><node ${B}><node text="${SECRET}" ${B} /></node></node>`],
  ["an Appium class-name tag starting with an underscore", `<_Pin.Field password="true" text="${SECRET}" ${B} />`],
  [
    "an Appium class-name tag with the text as element content",
    `<android.widget.EditText password="true" ${B}>${SECRET}</android.widget.EditText>`,
  ],
  ["the text as CDATA content", `<android.widget.EditText password="true" ${B}><![CDATA[${SECRET}]]></android.widget.EditText>`],
  ["entities in the text (&quot;, &#x..;)", `<node password="true" text="&quot;&#x48;unter2-S3cr3t!pw&quot; ${SECRET}" ${B} />`],
];

for (const [shape, nodes] of SHAPES) {
  test(`raw XML, ${shape}: the password's text is gone, the tree is the same`, () => {
    const xml = wrap(`<node text="Sign in" ${B} />${nodes}`);
    const masked = maskPasswordText(xml);
    assert.ok(!masked.includes(SECRET) && !masked.includes("Hunter2"), masked);
    assert.ok(masked.includes('text="Sign in"'), "another node keeps its text");
    const before = parseDump(xml).nodes;
    assert.deepEqual(
      parseDump(masked).nodes.map((n) => [n.className, n.bounds, n.password]),
      before.map((n) => [n.className, n.bounds, n.password]),
    );
    assert.ok(!JSON.stringify(summarize(parseDump(xml), SCREEN)).includes("Hunter2"), "nor in the summary");
  });
}

test("a dump declaring entities in a DOCTYPE is refused (no device writes one; its declarations would keep a text the node hides)", () => {
  const xml = wrap(`<node password="true" text="&s;" ${B} />`).replace("?><", `?><!DOCTYPE hierarchy [<!ENTITY s "${SECRET}">]><`);
  assert.throws(() => parseDump(xml), (e: Error & { code?: string }) => e.code === "UI_TREE_UNAVAILABLE" && /DOCTYPE/.test(e.message));
  assert.throws(() => maskPasswordText(xml), (e: Error & { code?: string }) => e.code === "UI_TREE_UNAVAILABLE");
});

test("an element beside the <hierarchy> root (a second root, which the validator lets through when self-closing) is refused", () => {
  const xml = `<node password="true" text="${SECRET}" ${B} /><hierarchy><node text="a" ${B} /></hierarchy>`;
  assert.throws(() => parseDump(xml), (e: Error & { code?: string }) => e.code === "UI_TREE_UNAVAILABLE" && /root/.test(e.message));
});

test("text printed before the XML or after it (warnings, the dump trailer) is not part of the raw XML", () => {
  const xml = `WARNING: <node password="true" text="${SECRET}"/>\n` + wrap(`<node text="Sign in" ${B} />`) +
    "UI hierchary dumped to: /dev/tty\n";
  const masked = maskPasswordText(xml);
  assert.equal(masked, wrap(`<node text="Sign in" ${B} />`));
});

const corpus = corpusSkipReason() === false ? readdirSync(CORPUS_DIR).filter((name) => name.endsWith(".xml")).sort() : [];

/** The capture with every self-closing node that has a `text` attribute, one in three, marked password and its text set to `value(i)`. */
function marked(xml: string, value: (i: number) => string): { xml: string; count: number } {
  let count = 0;
  let seen = 0;
  const out = xml.replace(/<(?![/?!])[^<>]*\stext="[^"]*"[^<>]*\/>/g, (tag) => {
    if (seen++ % 3 !== 0) return tag;
    const i = count++;
    const withText = tag.replace(/(\stext=")[^"]*"/, `$1${value(i)}"`);
    return /\spassword="/.test(withText)
      ? withText.replace(/(\spassword=")[^"]*"/, '$1true"')
      : withText.replace(/\s*\/>$/, ' password="true" />');
  });
  return { xml: out, count };
}

test("every real capture: the raw XML is the document as read when nothing is a password, and loses only the marked texts", {
  skip: corpusSkipReason(),
}, () => {
  assert.equal(corpus.length, 38);
  for (const name of corpus) {
    const xml = readFileSync(join(CORPUS_DIR, name), "utf8");
    assert.equal(maskPasswordText(xml), xml.trim(), `${name}: byte-identical`);
    const secret = marked(xml, (i) => `${SECRET}-${i}`);
    assert.ok(secret.count > 0, `${name}: some nodes were marked`);
    const masked = maskPasswordText(secret.xml);
    assert.ok(!masked.includes(SECRET), `${name}: no password text survives`);
    assert.equal(masked, marked(xml, () => "").xml.trim(), `${name}: everything else byte-identical`);
  }
});
