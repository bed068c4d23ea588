/**
 * Credentials in the Appium URL (`http://user:key@host:4723`, as device clouds give) are used and never said
 * (issue 25 item 2, reliability R42): the harness opens its UI sessions with them (webdriverio's user/key: Basic
 * auth on the new-session request) and doctor's probe sends them (Basic auth on GET /status); every place that
 * prints the URL shows its scheme, host and port only — APPIUM_UNAVAILABLE answers, `doctor://report`, `doctor`,
 * `flow --json` and the flow's three reports, stderr. Through the compiled binary, against an external simulated
 * device behind a stand-in that asks for the credentials.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { startSimDevice } from "../../src/sim/mod.ts";
import { actToolsSkipReason } from "../support/act_tools.ts";
import { envelopeOf, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";
import { runCli } from "../support/run_cli.ts";

const USER = "cloud-alice";
const KEY = "k3y-5ecr3t-77aa";
const BASIC = `Basic ${Buffer.from(`${USER}:${KEY}`).toString("base64")}`;

/** Every regular file under `dir`, with its content. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map((name) => join(dir, name)).filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path, "utf8") }));
}

function assertNoCredentials(where: string, text: string): void {
  assert.ok(!text.includes(KEY), `the Appium key is in ${where}: ${text.slice(0, 2000)}`);
  assert.ok(!text.includes(USER), `the Appium user is in ${where}: ${text.slice(0, 2000)}`);
}

/** A device cloud's front: refuses a new session or a status read without the Basic credentials, forwards the rest. */
async function guardedFront(target: string): Promise<{ url: string; refused: string[]; server: Server }> {
  const refused: string[] = [];
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const guarded = req.url === "/status" || req.method === "POST" && req.url === "/session";
    if (guarded && req.headers.authorization !== BASIC) {
      refused.push(`${req.method} ${req.url}`);
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ value: { error: "unauthorized", message: "no" } }));
      return;
    }
    const forwarded = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    forwarded.on("error", () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, refused, server };
}

/** A port nothing listens on (a server bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const credentialed = (url: string) => url.replace("http://", `http://${USER}:${KEY}@`);

test("a credentialed Appium URL is used for sessions and doctor's probe, and said as scheme, host and port only (R42)", {
  skip: actToolsSkipReason(),
  timeout: 480_000,
}, async (t) => {
  const sim = await startSimDevice({ scenario: "settings" });
  t.after(() => sim.stop());
  const front = await guardedFront(sim.appiumUrl);
  t.after(() => front.server.close());
  const home = makeServeHome();
  t.after(() => home.remove());
  const env = { ...home.env, ADB_SERVER_SOCKET: sim.adbServerSocket };

  // Used: a session opens through the front, which refuses it without the credentials.
  const served = await spawnServe([], { ...env, APPIUM_URL: credentialed(front.url) });
  t.after(() => served.close());
  const opened = envelopeOf(await served.client.callTool({ name: "ui_session_open", arguments: {} }, undefined, { timeout: 60_000 }));
  assert.equal(opened.ok, true, JSON.stringify(opened.error));
  assert.deepEqual(front.refused, [], "every guarded request carried the credentials");
  await served.client.callTool({ name: "ui_session_close", arguments: { session_id: opened.data["session_id"] } });
  const report = await served.client.readResource({ uri: "doctor://report" });
  assertNoCredentials("doctor://report", JSON.stringify(report));
  assert.match(JSON.stringify(report), new RegExp(`${front.url.replace(/[.:/]/g, "\\$&")}`), "doctor://report names the endpoint");
  await served.close();
  assertNoCredentials("serve's stderr", served.stderr());

  // doctor: the working credentialed URL is reachable (the probe sends Basic auth), and said without them.
  // A generous per-check time: on a loaded machine the stand-in and the simulated device answer /status slowly.
  const doctor = await runCli(["doctor", "--json", "--timeout", "30"], { ...env, APPIUM_URL: credentialed(front.url) }, {
    limitMs: 120_000,
  });
  assertNoCredentials("doctor --json", doctor.stdout + doctor.stderr);
  const checks = (JSON.parse(doctor.stdout) as { checks: { id: string; ok: boolean; detail: string }[] }).checks;
  const appium = checks.find((c) => c.id === "appium");
  assert.equal(appium?.ok, true, JSON.stringify(appium));
  assert.deepEqual(front.refused, [], "doctor's probe carried the credentials");
  const text = await runCli(["doctor", "--timeout", "30"], { ...env, APPIUM_URL: credentialed(front.url) }, { limitMs: 120_000 });
  assertNoCredentials("doctor", text.stdout + text.stderr);

  // Nothing answers: APPIUM_UNAVAILABLE names scheme, host and port, in the answer and in flow's outputs.
  const down = credentialed(`http://127.0.0.1:${await closedPort()}`);
  const shown = down.replace(`${USER}:${KEY}@`, "");
  const lonely = await spawnServe([], { ...env, APPIUM_URL: down });
  t.after(() => lonely.close());
  const refused = envelopeOf(await lonely.client.callTool({ name: "ui_session_open", arguments: {} }, undefined, { timeout: 60_000 }));
  assert.equal(refused.error?.code, "APPIUM_UNAVAILABLE");
  assert.ok(refused.error?.message.includes(shown), refused.error?.message);
  assertNoCredentials("the APPIUM_UNAVAILABLE answer", JSON.stringify(refused));
  assertNoCredentials("doctor://report", JSON.stringify(await lonely.client.readResource({ uri: "doctor://report" })));
  await lonely.close();
  assertNoCredentials("serve's stderr", lonely.stderr());

  const flowFile = join(home.root, "flow.json");
  writeFileSync(
    flowFile,
    JSON.stringify({ version: 1, name: "cloud", package_name: "com.android.settings", steps: [{ tool: "settings_open" }] }),
  );
  const flow = await runCli(["flow", flowFile, "--json"], { ...env, APPIUM_URL: down }, { limitMs: 120_000 });
  assert.notEqual(flow.code, 0);
  assert.match(flow.stdout, /APPIUM_UNAVAILABLE/);
  assertNoCredentials("flow --json", flow.stdout + flow.stderr);
  const written = filesUnder(home.artifacts);
  for (const suffix of [".json", ".html", ".xml"]) {
    assert.ok(written.some((f) => f.path.endsWith(suffix)), `a ${suffix} report in ${written.map((f) => f.path).join(", ")}`);
  }
  for (const file of written) assertNoCredentials(file.path, file.text);
});
