/**
 * Secrets never leave (issue 18): a password typed through `serve` over stdio, and the shipped login flow run
 * through the real binary with its password from the environment. The secret is in no answer, no raw XML, no
 * report, recording, audit log, evidence name or stderr line (every file the run wrote is read and searched),
 * and the files are owner-only (0600).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { actToolsSkipReason } from "../support/act_tools.ts";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";
import { runCli } from "../support/run_cli.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { dump, label } from "../screen/dump_builder.ts";

const SECRET = "Hunter2-S3cr3t!pw";
const PASSWORD = { resource_id: "com.example.shop:id/password" };

/** Every regular file under `dir`, with its name and content. */
function filesUnder(dir: string): { path: string; text: string; mode: number }[] {
  const out: { path: string; text: string; mode: number }[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    const info = statSync(path);
    if (info.isFile()) out.push({ path, text: readFileSync(path, "latin1") + readFileSync(path, "utf8"), mode: info.mode & 0o777 });
  }
  return out;
}

function assertNoSecret(where: string, text: string): void {
  assert.ok(!text.includes(SECRET), `the secret is in ${where}`);
}

test("a password typed over MCP is in no answer, raw XML, audit line, evidence name or recording (--record-secrets env)", {
  skip: actToolsSkipReason(),
  timeout: 60_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const record = join(home.root, "login.json");
  const served = await spawnServe(["--device", "sim", "--scenario", "login", "--record", record, "--record-secrets", "env"], home.env);
  t.after(() => served.close());
  const answers: string[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await served.client.callTool({ name, arguments: args });
    answers.push(JSON.stringify(result));
    return envelopeOf(result);
  };
  const session = String((await call("ui_session_open")).data["session_id"]);
  const typed = await call("ui_type_text", { selector: PASSWORD, text: SECRET, session_id: session });
  assert.equal(typed.ok, true, JSON.stringify(typed.error));
  const tree = await call("ui_get_tree", { include_raw: true });
  const field = (tree.data["actions"] as { selector: Record<string, string>; password?: boolean; text_length?: number; role?: string }[])
    .find((a) => a.selector["resource_id"]?.endsWith("password"));
  assert.deepEqual({ role: field?.role, password: field?.password, text_length: field?.text_length }, {
    role: "input",
    password: true,
    text_length: SECRET.length,
  });
  assert.match(String(tree.data["raw"]), /password="true"/);
  await call("ui_screenshot");
  await call("ui_tap", { selector: { resource_id: "com.example.shop:id/sign_in" }, session_id: session });
  await call("ui_session_close", { session_id: session });
  for (const [i, answer] of answers.entries()) assertNoSecret(`answer ${i + 1}`, answer);
  await served.close();
  assertNoSecret("stderr", served.stderr());
  assert.match(served.stderr(), /set ANDROID_MCP_TEXT_1 before replaying/);
  const written = [...filesUnder(home.artifacts), {
    path: record,
    text: readFileSync(record, "utf8"),
    mode: statSync(record).mode & 0o777,
  }];
  assert.ok(
    written.some((f) => f.path.endsWith(".png")) && written.some((f) => f.path.endsWith(".jsonl")),
    "evidence and an audit log were written",
  );
  for (const file of written) {
    assertNoSecret(file.path, file.path + file.text);
    assert.equal(file.mode, 0o600, `${file.path} is owner-only`);
  }
  const flow = JSON.parse(readFileSync(record, "utf8")) as { steps: { tool: string; args?: Record<string, unknown> }[] };
  assert.deepEqual(flow.steps.find((s) => s.tool === "ui_type_text")?.args?.["text"], { env: "ANDROID_MCP_TEXT_1" });
});

test("serve --record without --record-secrets warns on stderr that typed text is kept, except in password fields", {
  skip: actToolsSkipReason(),
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const served = await spawnServe(["--device", "sim", "--record", join(home.root, "kept.json")], home.env);
  t.after(() => served.close());
  await served.client.listTools();
  assert.match(served.stderr(), /typed text is KEPT in it as typed, except in password fields/);
});

test("a password sent under a wrong argument name (value, password) is refused and not written to the audit log (a18)", {
  skip: actToolsSkipReason(),
  timeout: 60_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const served = await spawnServe(["--device", "sim", "--scenario", "login"], home.env);
  t.after(() => served.close());
  const answers: string[] = [];
  for (const wrong of [{ value: SECRET }, { password: SECRET }, { text: SECRET, input: { text: SECRET } }]) {
    const result = await served.client.callTool({ name: "ui_type_text", arguments: { selector: PASSWORD, ...wrong } });
    answers.push(JSON.stringify(result));
    assert.equal(envelopeOf(result).ok, false, "refused");
  }
  await served.close();
  for (const [i, answer] of answers.entries()) assertNoSecret(`answer ${i + 1}`, answer);
  assertNoSecret("stderr", served.stderr());
  const audit = filesUnder(home.artifacts).filter((f) => f.path.endsWith("audit.jsonl"));
  assert.equal(audit.length, 1, "an audit log was written");
  assertNoSecret(audit[0]!.path, audit[0]!.text);
  assert.match(audit[0]!.text, /"value":\{"redacted_length":17\}/);
});

test("serve --screen: a PIN view marked password whose digits are its children's text is in no ui_get_tree answer (issue 25, 6)", {
  skip: actToolsSkipReason(),
  timeout: 60_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const file = join(home.root, "pin.xml");
  writeFileSync(
    file,
    dump([
      label("Enter your PIN", [40, 200, 1040, 300]),
      {
        cls: "com.example.PinView",
        password: true,
        bounds: [40, 360, 1040, 480],
        children: [...SECRET].slice(0, 4).map((digit, i) => label(`${digit}${SECRET}`, [40 + i * 250, 360, 280 + i * 250, 480])),
      },
    ]),
  );
  const served = await spawnServe(["--device", "sim", "--screen", file], home.env);
  t.after(() => served.close());
  const result = await served.client.callTool({ name: "ui_get_tree", arguments: { include_raw: true } });
  const tree = envelopeOf(result);
  assert.equal(tree.ok, true, JSON.stringify(tree.error));
  assert.match(String(tree.data["raw"]), /Enter your PIN/);
  assertNoSecret("the ui_get_tree answer", JSON.stringify(result));
});

const runBinary = (args: string[], env: Record<string, string>) => runCli(args, env);

test("the shipped login flow with its password from SHOP_PASSWORD: no report, log, evidence name or output holds it", {
  skip: actToolsSkipReason(),
  timeout: 120_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const file = join(REPO_ROOT, "docs", "flows", "login-form.json");
  assert.ok(!readFileSync(file, "utf8").includes(SECRET));
  const ran = await runBinary(["flow", file, "--device", "sim", "--scenario", "login", "--json"], { ...home.env, SHOP_PASSWORD: SECRET });
  assert.equal(ran.code, 0, ran.stderr + ran.stdout.slice(0, 2000));
  assertNoSecret("stdout", ran.stdout);
  assertNoSecret("stderr", ran.stderr);
  const written = filesUnder(home.artifacts);
  const reports = written.filter((f) => f.path.includes(`${"/reports/"}`));
  assert.equal(reports.length, 3, "JSON, HTML and JUnit reports");
  for (const file of written) {
    assertNoSecret(file.path, file.path + file.text);
    assert.equal(file.mode, 0o600, `${file.path} is owner-only`);
  }
  // The e-mail the flow types (not a secret: a plain field, written in the flow) is shown as typed, in the step's
  // arguments and the "expected" column; the password only as its length.
  const html = reports.find((f) => f.path.endsWith(".html"))!.text;
  assert.ok(html.includes("zoë.müller@例え.jp"), "the typed e-mail is shown");
  assert.doesNotMatch(html, /\[typed text, 16 characters\]/);
  assert.match(html, new RegExp(`\\{&quot;redacted_length&quot;:${[...SECRET].length}\\}`), "the password's step shows its length");
});

test("a flow whose env text is not set is refused before anything runs, naming the variable", async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const file = join(REPO_ROOT, "docs", "flows", "login-form.json");
  const ran = await runBinary(["flow", file, "--device", "sim", "--scenario", "login"], home.env);
  assert.equal(ran.code, 1);
  assert.match(ran.stderr, /steps\.2\.args\.text: the environment variable SHOP_PASSWORD is not set/);
  assert.match(ran.stderr, /nothing was run/);
});

test('a flow\'s {"env": NAME} text typed into a field that shows it is in no report and not on stdout (a18)', {
  skip: actToolsSkipReason(),
  timeout: 120_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const file = join(home.root, "env-in-plain-field.json");
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      name: "env-in-plain-field",
      package_name: "com.example.shop",
      sim_scenario: "login",
      steps: [
        { tool: "app_launch", args: { package: "com.example.shop" } },
        { tool: "ui_type_text", args: { selector: { resource_id: "com.example.shop:id/email" }, text: { env: "SHOP_PASSWORD" } } },
        { tool: "ui_get_tree", expect: { visible: { text: "Nothing like this" } } },
      ],
    }),
  );
  const ran = await runBinary(["flow", file, "--device", "sim", "--json"], { ...home.env, SHOP_PASSWORD: SECRET });
  assert.equal(ran.code, 3, ran.stderr);
  assertNoSecret("stdout", ran.stdout);
  assertNoSecret("stderr", ran.stderr);
  for (const written of filesUnder(home.artifacts)) assertNoSecret(written.path, written.path + written.text);
  assert.match(ran.stdout, /\[text from \$SHOP_PASSWORD, 17 characters\]/);
});
