/**
 * The single executable (`npm run build:bin`), copied alone into an empty temporary folder with no
 * node_modules above it: --help, --version, help, tree --file on a real capture, doctor --json (when the
 * command exists), serve --device sim answering the SDK client over stdio (initialize, tools/list, an
 * observe and an act call: ui_tap opens a W3C session from inside the binary, on the UiAutomator2 server the binary
 * installs from the two APKs it carries). Runs when
 * ANDROID_MCP_BINARY names the built file (`npm run test:bin` and .ci/run set it); skipped otherwise.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before, test } from "node:test";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { AVAILABLE_TOOL_NAMES } from "../../contracts/tools.ts";
import { APK_FILES, packagedServerApks } from "../../src/adapters/uia2_direct/server_package.ts";
import { VERSION } from "../../src/version.ts";
import { envelopeOf } from "../support/mcp_client.ts";
import { killQuietly } from "../support/mcp_e2e.ts";
import { CORPUS_DIR, OWN_FIXTURES } from "../support/paths.ts";

const BINARY = process.env["ANDROID_MCP_BINARY"]?.trim();
const skip = BINARY ? false : "ANDROID_MCP_BINARY is not set; `npm run test:bin` builds the single executable and runs this file";

let folder: string;
let copy: string;
let env: Record<string, string>;

before(() => {
  if (!BINARY) return;
  assert.ok(existsSync(BINARY), `${BINARY} does not exist; run npm run build:bin`);
  folder = mkdtempSync(join(tmpdir(), "amh-binary-"));
  copy = join(folder, "android-mcp-harness");
  copyFileSync(resolve(BINARY), copy);
  spawnSync("chmod", ["+x", copy]);
  // Only PATH (for adb) and a private HOME: nothing points back at the checkout.
  env = { PATH: process.env["PATH"] ?? "", HOME: folder, XDG_STATE_HOME: join(folder, "state") };
});

after(() => {
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

function run(args: string[], timeoutMs = 20_000) {
  const result = spawnSync(copy, args, { cwd: folder, env, encoding: "utf8", timeout: timeoutMs });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test("the copy sits alone: no node_modules in its folder or any folder above it", { skip }, () => {
  assert.deepEqual(readdirSync(folder), ["android-mcp-harness"]);
  for (let dir = folder;; dir = dirname(dir)) {
    assert.equal(existsSync(join(dir, "node_modules")), false, `${dir} has a node_modules`);
    if (dirname(dir) === dir) break;
  }
});

test("--help lists the commands, --version names this version, help works as a command", { skip }, () => {
  const help = run(["--help"]);
  assert.equal(help.code, 0, help.stderr);
  for (const command of ["serve", "tree", "sim"]) assert.match(help.stdout, new RegExp(`^  ${command} `, "m"));
  const version = run(["--version"]);
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, new RegExp(`^android-mcp-harness/${VERSION.replaceAll(".", "\\.")} \\(single executable, bun `));
  assert.equal(run(["help"]).stdout, help.stdout);
});

test("tree --file prints the summary of a real capture", { skip }, () => {
  const real = join(CORPUS_DIR, "settings-developer-options-pl-samsung-tablet.xml");
  const capture = existsSync(real) ? real : join(OWN_FIXTURES, "dumps", "settings_list.xml");
  const result = run(["tree", "--file", capture, "--json"]);
  assert.equal(result.code, 0, result.stderr);
  const summary = JSON.parse(result.stdout) as { actions: unknown[] };
  assert.ok(summary.actions.length > 0);
});

test(
  "doctor --json prints the eight checks as one JSON document, the runtime being the single executable",
  { skip: skip || doctorSkip() },
  () => {
    const result = run(["doctor", "--json"], 60_000);
    assert.ok(result.code === 0 || result.code === 1, `exit ${result.code}: ${result.stderr}`);
    const report = JSON.parse(result.stdout) as { total: number; checks: { id: string; ok: boolean; detail: string }[] };
    assert.equal(report.total, 8);
    assert.equal(report.checks.length, 8);
    const runtime = report.checks.find((c) => c.id === "runtime");
    assert.ok(runtime?.ok, JSON.stringify(runtime));
  },
);

/** doctor is built on another branch; until it is merged the step is skipped, said so. */
function doctorSkip(): string | false {
  if (!BINARY || !existsSync(BINARY)) return false;
  const help = spawnSync(BINARY, ["--help"], { encoding: "utf8", timeout: 20_000 });
  return /^ {2}doctor /m.test(help.stdout) ? false : "this build has no doctor command yet (built on its own branch)";
}

test("serve --device sim answers initialize, tools/list, an observe call and an act call over stdio", { skip }, async () => {
  const transport = new StdioClientTransport({ command: copy, args: ["serve", "--device", "sim"], cwd: folder, env, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString("utf8")));
  const client = new Client({ name: "binary-test", version: "0" });
  try {
    await client.connect(transport);
    assert.equal(client.getServerVersion()?.version, VERSION);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), AVAILABLE_TOOL_NAMES);
    const tree = envelopeOf(await client.callTool({ name: "ui_get_tree", arguments: {} }));
    assert.equal(tree.ok, true, JSON.stringify(tree.error));
    assert.ok((tree.data["actions"] as unknown[]).length > 0);
    const shot = envelopeOf(await client.callTool({ name: "ui_screenshot", arguments: {} }));
    assert.equal(shot.ok, true, JSON.stringify(shot.error));
    // Its folder is HOME, not a project: the evidence goes to the state directory, never a stray artifacts/.
    assert.ok(shot.evidence!.path.startsWith(join(folder, "state", "android-mcp-harness", "artifacts")), shot.evidence!.path);
    // An act: a UI session (src/adapters/appium/w3c_session.ts) against the sim's UiAutomator2 endpoint, from inside the binary.
    const tapped = envelopeOf(
      await client.callTool({ name: "ui_tap", arguments: { selector: { text: "Network & internet" } } }, undefined, { timeout: 120_000 }),
    );
    assert.equal(tapped.ok, true, JSON.stringify(tapped.error));
    assert.equal(tapped.data["changed"], true);
    assert.ok(existsSync(tapped.evidence!.path), "the act left its PNG evidence");
    const back = envelopeOf(await client.callTool({ name: "device_back", arguments: {} }, undefined, { timeout: 120_000 }));
    assert.equal(back.ok, true, JSON.stringify(back.error));
    assert.match(stderr, /SIMULATED/);
    // No Appium anywhere: the act went through the direct backend, whose APKs come from inside the binary, copied
    // to the user's cache folder for adb to stream (the same bytes as the package's files).
    assert.match(
      stderr,
      /installed the UiAutomator2 server 10\.6\.6 \(io\.appium\.uiautomator2\.server, io\.appium\.uiautomator2\.server\.test\)/,
    );
    const cached = join(folder, ".cache", "android-mcp-harness", "apks-10.6.6");
    const packaged = packagedServerApks();
    for (const [name, original] of [[APK_FILES.server, packaged.server], [APK_FILES.test, packaged.test]] as const) {
      assert.ok(readFileSync(join(cached, name)).equals(readFileSync(original)), `${name} is the package's own APK`);
    }
  } finally {
    await client.close().catch(() => {});
    killQuietly(transport.pid);
  }
});
