/**
 * Issue 25's secrets defects tried again in the hardening section (reliability R48–R50). The raw XML's
 * password masking (6, R48): a capture holding every node shape the attack used (a decoy ` text=` in an earlier
 * value, `password="&#x74;rue"`, password on a parent and a grandparent, a class-name tag, text as element content
 * and CDATA) through `tree --file --raw` and `serve --screen`'s `ui_get_tree include_raw`, and a DOCTYPE's entity
 * and an element beside the root, both refused by `tree --file`. Recordings (3, 4; R49, R50): `--record-secrets env`
 * on the shop's search that shows the query inside a longer text, and a default `--record` of a typed password.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { harnessCommand, spawnServe } from "../../tests/support/mcp_client.ts";
import { makeServeHome } from "../../tests/support/mcp_e2e.ts";
import type { Tally } from "./tally.ts";

const SECRET = "Hunter2-S3cr3t!pw";
/** The longest a child may take to start, answer or exit on a loaded two-core machine before it counts as hung. */
const WAIT_MS = 60_000;
const B = `bounds="[0,0][1080,200]"`;
const P = `package="com.example.shop"`;

/** Every node shape of the attack on issue 25 (defect 6), each holding the secret. */
const SHAPES = [
  `<node content-desc="note text='x'" text="${SECRET}" password="true" ${P} ${B} />`,
  `<node hint='a text="b"' password='true' text='${SECRET}' ${P} ${B} />`,
  `<node text="${SECRET}" password="&#x74;rue" ${P} ${B} />`,
  `<node class="com.example.PinView" password="true" ${P} ${B}><node text="${SECRET}" ${P} ${B} /></node>`,
  `<node password="true" ${P} ${B}><node ${P} ${B}><node text="${SECRET}" ${P} ${B} /></node></node>`,
  `<_Pin.Field password="true" text="${SECRET}" ${P} ${B} />`,
  `<android.widget.EditText password="true" ${P} ${B}>${SECRET}</android.widget.EditText>`,
  `<android.widget.EditText password="true" ${P} ${B}><![CDATA[${SECRET}]]></android.widget.EditText>`,
];

const capture = (nodes: string, prolog = "") =>
  `<?xml version="1.0" encoding="UTF-8"?>${prolog}<hierarchy rotation="0"><node class="android.widget.FrameLayout" ${P} ` +
  `bounds="[0,0][1080,2400]"><node text="Sign in" ${P} ${B} />${nodes}</node></hierarchy>`;

export async function rawXmlMasking(tally: Tally, done: string[]): Promise<void> {
  const home = makeServeHome();
  try {
    const file = join(home.root, "shapes.xml");
    writeFileSync(file, capture(SHAPES.join("")));
    tally.inputsTried++;
    const raw = await runTree(["tree", "--file", file, "--raw"], home.env);
    if (raw.code === null) tally.violation("hangs", "hardening: tree --file --raw still ran");
    else if (raw.code !== 0 || !raw.stdout.includes("Sign in")) {
      tally.violation("campaign errors", `hardening: tree --file --raw on the shapes exited ${raw.code}: ${raw.stderr.slice(0, 200)}`);
    }
    if (raw.stdout.includes(SECRET)) tally.violation("secrets leaked", "hardening: tree --raw printed a password's text");
    const refused = [
      capture(`<node password="true" text="&s;" ${P} ${B} />`, `<!DOCTYPE hierarchy [<!ENTITY s "${SECRET}">]>`),
      `<node password="true" text="${SECRET}" ${B} />` + capture(""),
    ];
    for (const [i, xml] of refused.entries()) {
      const path = join(home.root, `refused-${i}.xml`);
      writeFileSync(path, xml);
      tally.inputsTried++;
      const ran = await runTree(["tree", "--file", path, "--raw"], home.env);
      if (ran.stdout.includes(SECRET)) tally.violation("secrets leaked", `hardening: tree --raw printed a password's text (${i})`);
      if (ran.code !== 1) tally.violation("campaign errors", `hardening: tree --file on a DOCTYPE or a second root exited ${ran.code}`);
    }
    tally.inputsTried++;
    const served = await spawnServe(["--device", "sim", "--screen", file], home.env);
    try {
      tally.callsMade++;
      const answer = JSON.stringify(await served.client.callTool({ name: "ui_get_tree", arguments: { include_raw: true } }));
      if (!answer.includes("Sign in")) tally.violation("campaign errors", "hardening: ui_get_tree on the shapes did not answer the screen");
      if (answer.includes(SECRET)) tally.violation("secrets leaked", "hardening: serve --screen answered a password's text in include_raw");
    } finally {
      await served.close();
    }
    done.push(`raw XML: ${SHAPES.length} password shapes blanked (tree --raw, serve --screen), a DOCTYPE and a second root refused`);
  } finally {
    home.remove();
  }
}

/** 3 and 4: what `serve --record` writes holds no text it wrote as a reference, and no password by default. */
export async function recordedSecrets(tally: Tally, done: string[]): Promise<void> {
  const home = makeServeHome();
  try {
    const query = "zebra-Geheimnis";
    const search = join(home.root, "search.json");
    const login = join(home.root, "login.json");
    const sessions: [string[], [string, Record<string, unknown>][]][] = [
      [["--scenario", "shop", "--record", search, "--record-secrets", "env"], [
        ["ui_tap", { selector: { content_desc: "Search" } }],
        ["ui_type_text", { selector: { resource_id: "search_field" }, text: query, submit: "search" }],
      ]],
      [["--scenario", "login", "--record", login], [
        ["ui_type_text", { selector: { resource_id: "email" }, text: "zoe@example.com" }],
        ["ui_type_text", { selector: { resource_id: "password" }, text: SECRET }],
      ]],
    ];
    for (const [args, calls] of sessions) {
      tally.inputsTried++;
      const served = await spawnServe(["--device", "sim", ...args], home.env);
      try {
        for (const [name, callArgs] of calls) {
          tally.callsMade++;
          const answer = await served.client.callTool({ name, arguments: callArgs });
          if ((answer.structuredContent as { ok?: unknown } | undefined)?.ok !== true) {
            tally.violation("campaign errors", `hardening: ${name} failed while recording: ${JSON.stringify(answer).slice(0, 200)}`);
          }
        }
      } finally {
        await served.close();
      }
    }
    if (readFileSync(search, "utf8").toLowerCase().includes(query.toLowerCase())) {
      tally.violation("secrets leaked", "hardening: --record-secrets env wrote the typed text back in an expectation");
    }
    const recorded = readFileSync(login, "utf8");
    if (recorded.includes(SECRET) || !recorded.includes('"env": "ANDROID_MCP_TEXT_2"')) {
      tally.violation("secrets leaked", "hardening: serve --record wrote a password field's text, not a reference");
    }
    done.push("recordings: a referenced text in no expectation, a password a reference by default");
  } finally {
    home.remove();
  }
}

function runTree(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [command, ...prefix] = harnessCommand();
  const child = spawn(command, [...prefix, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => void (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => void (stderr += c.toString("utf8")));
  let hung = false;
  const killer = setTimeout(() => ((hung = true), child.kill("SIGKILL")), WAIT_MS);
  return new Promise((resolve) =>
    child.on("close", (code) => (clearTimeout(killer), resolve({ code: hung ? null : code, stdout, stderr })))
  );
}
