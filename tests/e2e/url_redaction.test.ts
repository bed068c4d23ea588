/**
 * A URL's secret parts never reach what the harness writes (issue 18, oracle reliability R38): an
 * `app_open_url` whose query, fragment or userinfo holds a token is kept as scheme, host and path plus a
 * length marker in the audit log, every flow report (JSON, HTML, JUnit), `flow --json` and stderr, through
 * the compiled binary; `serve --record` keeps the URL whole (replay needs it) and says so once on stderr.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { actToolsSkipReason } from "../support/act_tools.ts";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";
import { runCli } from "../support/run_cli.ts";

const TOKEN = "tok-5ecr3t-Q9xv";
const WEB = `https://shop.example/product/42?token=${TOKEN}&utm=mail#frag-${TOKEN}`;
const APP = `shop://product/42?code=${TOKEN}`; // userinfo: unit-tested (the sim matches links by prefix)
const WEB_WRITTEN = "https://shop.example/product/42?<redacted 30 chars>#<redacted 20 chars>";

/** Every regular file under `dir`, with its content. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map((name) => join(dir, name)).filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, "utf8") }));
}

function assertNoToken(where: string, text: string): void {
  assert.ok(!text.includes(TOKEN), `the URL's token is in ${where}`);
}

test("serve: the audit log keeps an opened URL without its query, fragment or userinfo; --record keeps it whole and says so once (R38)", {
  skip: actToolsSkipReason(),
  timeout: 120_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const record = join(home.root, "links.json");
  const served = await spawnServe(["--device", "sim", "--scenario", "shop", "--record", record], home.env);
  t.after(() => served.close()); // kills the process by its PID if it is still alive
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    envelopeOf(await served.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 }));
  const session = String((await call("ui_session_open")).data["session_id"]);
  for (const url of [WEB, APP]) {
    const opened = await call("app_open_url", { url, session_id: session });
    assert.equal(opened.ok, true, `${url}: ${JSON.stringify(opened.error)}`);
  }
  await call("ui_session_close", { session_id: session });
  await served.close();

  const audit = filesUnder(home.artifacts).filter((f) => f.path.endsWith(".jsonl"));
  assert.equal(audit.length, 1, "one audit log");
  const lines = audit[0]!.text.trimEnd().split("\n").map((l) => JSON.parse(l) as { tool: string; arguments: { url?: string } });
  assert.deepEqual(lines.filter((l) => l.tool === "app_open_url").map((l) => l.arguments.url), [
    WEB_WRITTEN,
    "shop://product/42?<redacted 20 chars>",
  ]);
  for (const file of filesUnder(home.artifacts)) assertNoToken(file.path, file.path + file.text);
  assertNoToken("stderr", served.stderr());

  const flow = JSON.parse(readFileSync(record, "utf8")) as { steps: { tool: string; args?: { url?: string } }[] };
  assert.deepEqual(flow.steps.filter((s) => s.tool === "app_open_url").map((s) => s.args?.url), [WEB, APP], "the recording replays");
  const warnings = served.stderr().split("\n").filter((l) => /holds? a URL with a query/.test(l));
  assert.equal(warnings.length, 1, `one warning, not one per URL:\n${served.stderr()}`);
  assert.ok(warnings[0]!.includes(record), warnings[0]);
});

const runBinary = (args: string[], env: Record<string, string>) => runCli(args, env);

test("flow: a URL step's token is in no report (JSON, HTML, JUnit), audit line, --json output or stderr (R38)", {
  skip: actToolsSkipReason(),
  timeout: 120_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const file = join(home.root, "links.flow.json");
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      name: "links",
      package_name: "com.example.shop",
      sim_scenario: "shop",
      steps: [
        { tool: "app_open_url", args: { url: WEB }, expect: { foreground_package: "com.example.shop" } },
        { tool: "app_open_url", args: { url: APP } },
      ],
    }),
  );
  const ran = await runBinary(["flow", file, "--device", "sim", "--json"], home.env);
  assert.equal(ran.code, 0, ran.stderr + ran.stdout.slice(0, 2000));
  assertNoToken("flow --json stdout", ran.stdout);
  assertNoToken("stderr", ran.stderr);
  const written = filesUnder(home.artifacts);
  const reports = written.filter((f) => f.path.includes("/reports/"));
  assert.equal(reports.length, 3, "JSON, HTML and JUnit reports");
  assert.ok(written.some((f) => f.path.endsWith(".jsonl")), "an audit log");
  for (const f of written) assertNoToken(f.path, f.path + f.text);
  assert.ok(reports.find((f) => f.path.endsWith(".json"))!.text.includes(WEB_WRITTEN), "the report names the link without its secret");
});

test("flow: a link nothing handles fails APP_NOT_FOUND without its userinfo or query in any report, output or stderr (R38)", {
  skip: actToolsSkipReason(),
  timeout: 120_000,
}, async (t) => {
  const home = makeServeHome();
  t.after(() => home.remove());
  const file = join(home.root, "dead-link.flow.json");
  // No app claims the scheme: Android's "unable to resolve Intent { … dat=… }" names the URL (its userinfo, and on a
  // real device a custom scheme's query: Uri.toSafeString keeps the scheme-specific part), and so did the message.
  const url = `nolink://ada:${TOKEN}@host/p?code=${TOKEN}`;
  writeFileSync(
    file,
    JSON.stringify({ version: 1, name: "dead-link", package_name: "com.example.shop", steps: [{ tool: "app_open_url", args: { url } }] }),
  );
  const ran = await runBinary(["flow", file, "--device", "sim", "--scenario", "shop", "--json"], home.env);
  assert.equal(ran.code, 1, ran.stderr + ran.stdout.slice(0, 2000));
  assert.match(ran.stdout, /APP_NOT_FOUND/);
  assertNoToken("flow --json stdout", ran.stdout);
  assertNoToken("stderr", ran.stderr);
  for (const f of filesUnder(home.artifacts)) assertNoToken(f.path, f.path + f.text);
});
